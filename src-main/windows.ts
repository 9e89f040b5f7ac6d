import type { Caller } from './caller';

/**
 * The one registry of per-window state and its cleanup. A window (or CLI run, or test-bridge
 * page) is a `Caller.sessionId`; when its `signal` aborts (the window closed) every cleanup
 * registered for it runs once: the review leases it held go back to the queue, the sales panel
 * forgets its merchant, history and requests in flight.
 */
export class WindowRegistry {
  /** Open windows that registered something: cleanups by feature key. */
  private readonly windows = new Map<string, Map<string, () => void>>();

  /** Runs `cleanup` when the caller's window closes (the first registration of a key wins). */
  onClose(caller: Caller, key: string, cleanup: () => void): void {
    const { signal, sessionId } = caller;
    if (!signal) return;
    let cleanups = this.windows.get(sessionId);
    if (!cleanups) {
      const fresh = new Map<string, () => void>();
      cleanups = fresh;
      this.windows.set(sessionId, fresh);
      signal.addEventListener(
        'abort',
        () => {
          this.windows.delete(sessionId);
          for (const run of fresh.values()) run();
        },
        { once: true },
      );
    }
    if (!cleanups.has(key)) cleanups.set(key, cleanup);
  }

  /**
   * State of one feature per window: created on the window's first use, handed to `dispose` and
   * forgotten when the window closes.
   */
  perWindow<T>(key: string, create: () => T, dispose: (state: T) => void): PerWindow<T> {
    const states = new Map<string, T>();
    return {
      get: (caller) => {
        const found = states.get(caller.sessionId);
        if (found !== undefined) return found;
        const state = create();
        states.set(caller.sessionId, state);
        this.onClose(caller, key, () => {
          states.delete(caller.sessionId);
          dispose(state);
        });
        return state;
      },
      peek: (caller) => states.get(caller.sessionId),
    };
  }
}

export interface PerWindow<T> {
  /** The window's state, created on first use. */
  get(caller: Caller): T;
  /** The window's state if it has any. */
  peek(caller: Caller): T | undefined;
}
