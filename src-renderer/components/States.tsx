import type { ReactNode } from 'react';
import { ERROR_TITLES } from '@shared/errors';
import type { ApiError } from '../api';

/** Shown while data loads. `inline` for small areas (a status bar, a table footer). */
export function LoadingState({
  label = 'Carregando…',
  inline = false,
}: {
  label?: string;
  inline?: boolean;
}) {
  return (
    <div className={inline ? 'state state-inline' : 'state'} role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

/** Nothing to show: say why and, when useful, what to do. */
export function EmptyState({
  title,
  children,
  action,
}: {
  title: string;
  children?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className="state state-empty" role="status">
      <p className="state-title">{title}</p>
      {children ? <div className="state-body">{children}</div> : null}
      {action ? <div className="state-action">{action}</div> : null}
    </div>
  );
}

/**
 * A failed load: a title for its kind (the one code → title mapping, #42.6), the pt-BR message
 * from main and a retry.
 */
export function ErrorState({
  error,
  onRetry,
  title,
}: {
  error: ApiError | { message: string };
  onRetry?: () => void;
  title?: string;
}) {
  const code = 'code' in error ? error.code : null;
  const heading =
    title ?? (code && code !== 'interno' ? ERROR_TITLES[code] : 'Não foi possível carregar');
  return (
    <div className="state state-error" role="alert">
      <p className="state-title">{heading}</p>
      <p className="state-body">{error.message}</p>
      {onRetry ? (
        <button type="button" className="btn" onClick={onRetry}>
          Tentar de novo
        </button>
      ) : null}
    </div>
  );
}

export type Tone = 'neutral' | 'ok' | 'warn' | 'danger' | 'info';

/** A small colored label (status of an item, connection state). */
export function StatusBadge({
  tone,
  children,
  title,
}: {
  tone: Tone;
  children: ReactNode;
  title?: string;
}) {
  return (
    <span className={`badge badge-${tone}`} title={title}>
      {children}
    </span>
  );
}
