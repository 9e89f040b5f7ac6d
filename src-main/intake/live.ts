/**
 * Live queue: one dedicated SESSION connection per app LISTENs on 'balcao_fila' (the trigger on
 * `extracoes`, migrations 0620 and 0880) and pushes `review/changed` to every window (with
 * `reservas`: the items whose lease changed hands; `conversas`: those whose conversation with the
 * merchant changed). LISTEN needs a
 * session connection, never a transaction pooler: DIRECT_DATABASE_URL, else the app URL.
 * Notifications within ~150 ms are coalesced into one event; when the connection drops it
 * reconnects with exponential backoff (250 ms … 15 s) and sends one `review/changed` with
 * `reconectado: true` so screens refetch what they may have missed.
 */
import pg from 'pg';
import type { Logger } from '../util/logger';

export interface QueueChange {
  /** Items that changed (empty after a reconnect: refetch everything). */
  ids: number[];
  /**
   * Of those, the items whose lease passed to another claim (a supervisor took it over, or
   * someone claimed it after it expired): the holder's screen checks its lease at once.
   */
  reservas?: number[];
  /** Of those, the items whose conversation with the merchant changed (migration 1023). */
  conversas?: number[];
  reconectado?: boolean;
}

export interface QueueListener {
  /** True while LISTEN is active. */
  connected(): boolean;
  close(): Promise<void>;
}

export function startQueueListener(opts: {
  connectionString: string;
  onChange: (c: QueueChange) => void;
  logger?: Logger;
  coalesceMs?: number;
  maxBackoffMs?: number;
}): QueueListener {
  const coalesceMs = opts.coalesceMs ?? 150;
  const maxBackoff = opts.maxBackoffMs ?? 15_000;
  let client: pg.Client | null = null;
  let live = false;
  let closed = false;
  let attempt = 0;
  let retryTimer: NodeJS.Timeout | undefined;
  let flushTimer: NodeJS.Timeout | undefined;
  const pending = new Set<number>();
  const leases = new Set<number>();
  const talks = new Set<number>();

  const flush = () => {
    flushTimer = undefined;
    const ids = [...pending];
    const reservas = [...leases];
    const conversas = [...talks];
    pending.clear();
    leases.clear();
    talks.clear();
    if (ids.length) {
      opts.onChange({
        ids,
        ...(reservas.length ? { reservas } : {}),
        ...(conversas.length ? { conversas } : {}),
      });
    }
  };

  const schedule = () => {
    if (closed || retryTimer) return;
    const delay = Math.min(maxBackoff, 250 * 2 ** attempt);
    attempt++;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void connect();
    }, delay);
    retryTimer.unref?.();
  };

  const connect = async () => {
    if (closed) return;
    const c = new pg.Client({
      connectionString: opts.connectionString,
      application_name: 'balcao-fila-ao-vivo',
      connectionTimeoutMillis: 5_000,
      keepAlive: true,
    });
    const lost = (err?: unknown) => {
      if (client !== c) return;
      client = null;
      live = false;
      if (!closed) {
        opts.logger?.warn({ err }, 'fila ao vivo: conexão perdida; reconectando');
        c.end().catch(() => undefined);
        schedule();
      }
    };
    c.on('error', lost);
    c.on('end', () => lost());
    c.on('notification', (n) => {
      if (n.channel !== 'balcao_fila') return;
      try {
        const p = JSON.parse(n.payload ?? '{}') as {
          id?: unknown;
          reserva?: unknown;
          op?: unknown;
        };
        const id = Number(p.id);
        if (!Number.isSafeInteger(id)) return;
        pending.add(id);
        if (p.reserva === 'trocada') leases.add(id);
        if (p.op === 'conversa') talks.add(id);
      } catch {
        return;
      }
      flushTimer ??= setTimeout(flush, coalesceMs);
    });
    client = c;
    try {
      await c.connect();
      await c.query('LISTEN balcao_fila');
      if (closed || client !== c) {
        await c.end().catch(() => undefined);
        return;
      }
      const wasReconnect = attempt > 0;
      attempt = 0;
      live = true;
      if (wasReconnect) opts.onChange({ ids: [], reconectado: true });
    } catch (err) {
      lost(err);
    }
  };

  void connect();
  return {
    connected: () => live,
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      clearTimeout(flushTimer);
      const c = client;
      client = null;
      live = false;
      if (c) await c.end().catch(() => undefined);
    },
  };
}
