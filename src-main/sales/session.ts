import type { MerchantSummary } from '@shared/contract/sales';
import { AppError } from '@shared/errors';
import { withHistoryEntry } from '@shared/sales-history';

export { HISTORY_LIMIT } from '@shared/sales-history';

interface SessionState {
  merchant: MerchantSummary | null;
  history: string[];
  /** In-flight model requests of this window, by the renderer's request id. */
  inflight: Map<string, AbortController>;
}

/** A started request: its signal (aborted by cancel, window close or the caller) and its end. */
export interface RequestHandle {
  signal: AbortSignal;
  /** Forget the request (always call it, in `finally`). */
  end(): void;
}

/**
 * Per-window state of the sales panel, held by the main process and keyed by
 * `CallContext.sessionId`: the chosen merchant (the tenant of every query — never taken from the
 * model or from free text), the history of this window's questions, and its in-flight requests
 * so that cancel can reach them. A window can only see and cancel its own state.
 */
export class SalesSessions {
  private readonly sessions = new Map<string, SessionState>();

  private state(sessionId: string): SessionState {
    let s = this.sessions.get(sessionId);
    if (!s) {
      s = { merchant: null, history: [], inflight: new Map() };
      this.sessions.set(sessionId, s);
    }
    return s;
  }

  /** Whether this window has any state yet. */
  has(sessionId: string): boolean {
    return this.sessions.has(sessionId);
  }

  merchant(sessionId: string): MerchantSummary | null {
    return this.sessions.get(sessionId)?.merchant ?? null;
  }

  /** Sets the window's merchant (already checked to exist by the caller). */
  selectMerchant(sessionId: string, merchant: MerchantSummary): void {
    if (!Number.isSafeInteger(merchant.id) || merchant.id <= 0) {
      throw new AppError('entrada_invalida', 'Lojista inválido.');
    }
    const s = this.state(sessionId);
    if (s.merchant?.id !== merchant.id) {
      // Another tenant: answers in flight belong to the previous merchant.
      for (const c of s.inflight.values()) c.abort();
      s.inflight.clear();
    }
    s.merchant = { id: merchant.id, nome: merchant.nome };
  }

  /** The merchant every query of this window runs for; a clear error when none was chosen. */
  requireMerchant(sessionId: string): MerchantSummary {
    const m = this.merchant(sessionId);
    if (!m) {
      throw new AppError('entrada_invalida', 'Escolha um lojista antes de consultar as vendas.');
    }
    return m;
  }

  history(sessionId: string): string[] {
    return [...(this.sessions.get(sessionId)?.history ?? [])];
  }

  /** Records a question; a repeated question moves to the end instead of duplicating. */
  addHistory(sessionId: string, question: string): string[] {
    const s = this.state(sessionId);
    s.history = withHistoryEntry(s.history, question);
    return [...s.history];
  }

  /**
   * Starts a cancellable request. Its signal aborts on `cancel(sessionId, requestId)`, when the
   * window's own signal aborts (window closed), or when the merchant changes.
   */
  begin(sessionId: string, requestId: string, parent?: AbortSignal): RequestHandle {
    const s = this.state(sessionId);
    if (s.inflight.has(requestId)) {
      throw new AppError('conflito', 'Essa consulta já está em andamento.');
    }
    const controller = new AbortController();
    const onParentAbort = () => controller.abort();
    if (parent?.aborted) controller.abort();
    else parent?.addEventListener('abort', onParentAbort, { once: true });
    s.inflight.set(requestId, controller);
    return {
      signal: controller.signal,
      end: () => {
        parent?.removeEventListener('abort', onParentAbort);
        const cur = this.sessions.get(sessionId);
        if (cur?.inflight.get(requestId) === controller) cur.inflight.delete(requestId);
      },
    };
  }

  /** Cancels one of this window's requests; false when it is not (or no longer) running. */
  cancel(sessionId: string, requestId: string): boolean {
    const c = this.sessions.get(sessionId)?.inflight.get(requestId);
    if (!c) return false;
    c.abort();
    return true;
  }

  /** Number of this window's requests still running. */
  inflightCount(sessionId: string): number {
    return this.sessions.get(sessionId)?.inflight.size ?? 0;
  }

  /** Window closed: abort its requests and forget its state. */
  dispose(sessionId: string): void {
    const s = this.sessions.get(sessionId);
    if (!s) return;
    for (const c of s.inflight.values()) c.abort();
    this.sessions.delete(sessionId);
  }
}
