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

interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
}

interface ToastApi {
  show(kind: ToastKind, message: string): void;
}

const Ctx = createContext<ToastApi | null>(null);

const DURATION_MS: Record<ToastKind, number> = { success: 3500, info: 4000, error: 7000 };

/** Short notices at the bottom right; announced to screen readers; errors stay longer. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const dismiss = useCallback((id: number) => setToasts((t) => t.filter((x) => x.id !== id)), []);
  const api = useMemo<ToastApi>(
    () => ({
      show(kind, message) {
        const id = next.current++;
        setToasts((t) => [...t.slice(-3), { id, kind, message }]);
        window.setTimeout(() => dismiss(id), DURATION_MS[kind]);
      },
    }),
    [dismiss],
  );
  return (
    <Ctx.Provider value={api}>
      {children}
      <div className="toasts" role="region" aria-label="Notificações">
        {toasts.map((t) => (
          <div
            key={t.id}
            className={`toast toast-${t.kind}`}
            role={t.kind === 'error' ? 'alert' : 'status'}
          >
            <span>{t.message}</span>
            <button
              type="button"
              className="toast-close"
              aria-label="Fechar notificação"
              onClick={() => dismiss(t.id)}
            >
              ×
            </button>
          </div>
        ))}
      </div>
    </Ctx.Provider>
  );
}

export function useToast(): ToastApi {
  const c = useContext(Ctx);
  if (!c) throw new Error('useToast fora de ToastProvider');
  return c;
}
