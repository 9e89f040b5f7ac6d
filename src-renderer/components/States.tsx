import type { ReactNode } from 'react';
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

/** A failed load: the pt-BR message from main and a retry. */
export function ErrorState({
  error,
  onRetry,
  title = 'Não foi possível carregar',
}: {
  error: ApiError | { message: string };
  onRetry?: () => void;
  title?: string;
}) {
  return (
    <div className="state state-error" role="alert">
      <p className="state-title">{title}</p>
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
