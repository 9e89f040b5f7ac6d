import {
  createContext,
  useCallback,
  useContext,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';

export type ToastKind = 'success' | 'error' | 'info';

export interface ToastOptions {
  /**
   * What the notice belongs to (an item's screen: `itemToastScope(id)`). The screen dismisses
   * its scope when it goes away, so a notice never outlives what it speaks of.
   */
  scope?: string;
  /** One action beside the text (undo where undo exists). */
  action?: { label: string; run: () => void };
}

interface Toast extends ToastOptions {
  id: number;
  kind: ToastKind;
  message: string;
}

interface ToastApi {
  show(kind: ToastKind, message: string, opts?: ToastOptions): void;
  /** Removes the notice of this scope, if it is the one showing. */
  dismissScope(scope: string): void;
}

const Ctx = createContext<ToastApi | null>(null);

const DURATION_MS: Record<ToastKind, number> = { success: 3500, info: 4000, error: 7000 };
/** A notice with an action stays long enough to reach it. */
const ACTION_DURATION_MS = 8000;

export const itemToastScope = (id: number) => `pedido:${id}`;

/**
 * One quiet notice at a time at the bottom right (a new one replaces the old: never a stack of
 * contradicting ones); announced to screen readers; errors and notices with an action stay longer.
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toast, setToast] = useState<Toast | null>(null);
  const next = useRef(1);
  const dismiss = useCallback((id: number) => setToast((t) => (t && t.id === id ? null : t)), []);
  const api = useMemo<ToastApi>(
    () => ({
      show(kind, message, opts = {}) {
        const id = next.current++;
        setToast({ id, kind, message, ...opts });
        window.setTimeout(() => dismiss(id), opts.action ? ACTION_DURATION_MS : DURATION_MS[kind]);
      },
      dismissScope(scope) {
        setToast((t) => (t && t.scope === scope ? null : t));
      },
    }),
    [dismiss],
  );
  return (
    <Ctx.Provider value={api}>
      {children}
      <div className="toasts" role="region" aria-label="Notificações">
        {toast ? (
          <div
            key={toast.id}
            className={`toast toast-${toast.kind}`}
            role={toast.kind === 'error' ? 'alert' : 'status'}
          >
            <span>{toast.message}</span>
            {toast.action ? (
              <button
                type="button"
                className="link toast-action"
                onClick={() => {
                  dismiss(toast.id);
                  toast.action?.run();
                }}
              >
                {toast.action.label}
              </button>
            ) : null}
            <button
              type="button"
              className="toast-close"
              aria-label="Fechar notificação"
              onClick={() => dismiss(toast.id)}
            >
              ×
            </button>
          </div>
        ) : null}
      </div>
    </Ctx.Provider>
  );
}

export function useToast(): ToastApi {
  const c = useContext(Ctx);
  if (!c) throw new Error('useToast fora de ToastProvider');
  return c;
}
