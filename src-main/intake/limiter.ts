/**
 * Rate limits shared by every worker, kept in PostgreSQL:
 * - a cap on model requests in flight across all workers (BALCAO_MAX_EM_VOO): each request
 *   holds one slot, a session advisory lock (620, slot) taken by `balcao_intake_vaga`, so a
 *   worker that dies (kill -9) frees its slots with its session;
 * - a shared pause: a 429 seen by any worker (its `retry-after`) sets intake_limites.pausado_ate
 *   and every worker waits until then before its next request.
 * Transport retries stay inside the SDK: the custom `fetch` only observes 429s and honours the
 * pause; the SDK still decides to retry.
 * A request costs two short statements on the session: `balcao_intake_vaga` (told which slots
 * this session holds, no catalog scan) and `balcao_intake_liberar`, which notifies
 * 'balcao_vagas' only when another session waits for that slot: a waiting session holds the
 * shared advisory locks (621, k) for k < least(cap, 16) (`balcao_intake_espera`, taken before its
 * last look at the slots, so no freed slot goes unseen) and the release of slot s tries
 * (621, s % 16) — two releases at the same moment never take each other for a waiter
 * (migration 1130).
 * Needs a session connection (not a transaction pooler): DIRECT_DATABASE_URL, else the app URL.
 */
import pg from 'pg';
import { AppError } from '@shared/errors';
import { hot, prepareStatements } from '../db/prepared';
import type { Logger } from '../util/logger';

export interface IntakeLimiter {
  /** Runs one model call holding a slot, after any shared pause. */
  gate<R>(call: () => Promise<R>): Promise<R>;
  /** `fetch` for the Anthropic client: records a 429's retry-after as the shared pause. */
  fetch: typeof fetch;
  /** Slots this process holds now (tests, bench). */
  held(): number;
  /** Resolves once the releases on their way (gate does not wait for them) have been answered. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export interface LimiterOptions {
  connectionString: string;
  /** BALCAO_MAX_EM_VOO. */
  cap: number;
  logger?: Logger;
  /** Longest wait for a slot or a pause before giving up (the job retries later). */
  maxWaitMs?: number;
  /** Pause when a 429 carries no retry-after. */
  defaultPauseMs?: number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** retry-after-ms / retry-after (seconds or HTTP date) → ms, or null. */
export function retryAfterMs(h: Headers, now = Date.now()): number | null {
  const ms = Number(h.get('retry-after-ms'));
  if (h.get('retry-after-ms') !== null && Number.isFinite(ms) && ms >= 0) return ms;
  const ra = h.get('retry-after');
  if (ra === null) return null;
  const s = Number(ra);
  if (Number.isFinite(s) && s >= 0) return s * 1000;
  const d = Date.parse(ra);
  return Number.isFinite(d) ? Math.max(0, d - now) : null;
}

export function createLimiter(opts: LimiterOptions): IntakeLimiter {
  const maxWaitMs = opts.maxWaitMs ?? 120_000;
  let client: pg.Client | null = null;
  let connecting: Promise<pg.Client> | null = null;
  let closed = false;
  const slots = new Set<number>();
  /** Slots freed here whose unlock has not been confirmed: still this session's, never reused. */
  const unlocking = new Set<number>();
  /** Unlocks on their way (gate does not wait for them). */
  const releasing = new Set<Promise<void>>();
  /** Acquire loops of this process waiting for a slot, and whether the session says so. */
  let waitingLoops = 0;
  let registered = false;
  let pausedUntil = 0;
  const waiters = new Set<() => void>();
  const track = (p: Promise<void>) => {
    const q = p.catch(() => undefined);
    releasing.add(q);
    void q.finally(() => releasing.delete(q));
  };
  const settled = async (): Promise<void> => {
    await Promise.allSettled([...releasing]);
  };
  const wakeAll = () => {
    for (const w of waiters) w();
    waiters.clear();
  };

  const session = (): Promise<pg.Client> => {
    if (client) return Promise.resolve(client);
    connecting ??= (async () => {
      const c = new pg.Client({
        connectionString: opts.connectionString,
        application_name: 'balcao-intake-limites',
        connectionTimeoutMillis: 5_000,
      });
      const drop = () => {
        // The session ended: PostgreSQL released its advisory locks (our slots) with it.
        if (client === c) client = null;
        slots.clear();
        unlocking.clear();
        registered = false;
        wakeAll();
      };
      c.on('error', (err) => {
        opts.logger?.warn({ err }, 'limites: conexão de sessão perdida');
        drop();
      });
      c.on('end', drop);
      c.on('notification', wakeAll);
      try {
        await c.connect();
        await c.query('LISTEN balcao_vagas');
      } catch (e) {
        c.end().catch(() => undefined);
        throw e;
      }
      // A session connection: its two statements per request are prepared once.
      client = prepareStatements(c);
      return c;
    })().finally(() => {
      connecting = null;
    });
    return connecting;
  };

  /** Waits until woken (slot freed) or `ms`, whichever first. */
  const waitWake = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(t);
        waiters.delete(done);
        resolve();
      };
      const t = setTimeout(done, ms);
      waiters.add(done);
    });

  /**
   * One look at the slots. Looks go one at a time: the slots this session holds are named when
   * the look is sent, and a look sent before the previous one's slot was recorded would take
   * that slot again (advisory locks are re-entrant within a session).
   */
  let looking: Promise<unknown> = Promise.resolve();
  const takeSlot = (c: pg.Client): Promise<number | null> => {
    const look = looking.then(async () => {
      const r = await c.query<{ v: number | null }>(
        hot(c, 'SELECT balcao_intake_vaga($1, $2::int[]) AS v', [
          opts.cap,
          [...slots, ...unlocking],
        ]),
      );
      const v = r.rows[0]?.v ?? null;
      if (v !== null && v >= 0) slots.add(v);
      return v;
    });
    looking = look.catch(() => undefined);
    return look;
  };

  const acquire = async (): Promise<number> => {
    const deadline = Date.now() + maxWaitMs;
    let waiting = false;
    try {
      for (;;) {
        if (closed) throw new AppError('cancelado', 'O worker está parando.');
        const local = pausedUntil - Date.now();
        if (local > 0) await sleep(Math.min(local, 5_000));
        const c = await session();
        const v = await takeSlot(c);
        if (v !== null && v >= 0) return v;
        if (Date.now() > deadline) {
          throw new AppError(
            'tempo_esgotado',
            'Nenhuma vaga para chamar o modelo no tempo limite; a mensagem volta para a fila.',
          );
        }
        if (v !== null) {
          pausedUntil = Math.max(pausedUntil, Date.now() + -v);
          await sleep(Math.min(-v, 5_000));
          continue;
        }
        // All slots busy. Say so to the other sessions (their releases then notify), then look
        // once more: a slot freed before we said so notified no one.
        if (!waiting) {
          waiting = true;
          waitingLoops++;
        }
        if (!registered) {
          registered = true;
          try {
            await c.query('SELECT balcao_intake_espera($1)', [opts.cap]);
          } catch (e) {
            registered = false;
            throw e;
          }
          continue;
        }
        // A release anywhere wakes us; a dead worker's slot is found by the timer.
        await waitWake(250);
      }
    } finally {
      if (waiting && --waitingLoops === 0 && registered) {
        registered = false;
        const c = client;
        if (c)
          track(c.query('SELECT balcao_intake_espera_fim($1)', [opts.cap]).then(() => undefined));
      }
    }
  };

  const release = async (slot: number): Promise<void> => {
    if (!slots.delete(slot)) return;
    const c = client;
    if (!c) return;
    unlocking.add(slot);
    try {
      await c.query(hot(c, 'SELECT balcao_intake_liberar($1)', [slot]));
      unlocking.delete(slot);
    } catch (err) {
      // Still held by the session as far as we know: named as ours until the session ends.
      opts.logger?.warn({ err }, 'limites: falha ao liberar a vaga');
    }
    // This process's own waiters are not told by the database (the lock is ours).
    if (waitingLoops > 0) wakeAll();
  };

  const pause = async (ms: number): Promise<void> => {
    pausedUntil = Math.max(pausedUntil, Date.now() + ms);
    try {
      const c = await session();
      await c.query({ text: 'SELECT balcao_intake_pausar($1)', values: [Math.ceil(ms)] });
      opts.logger?.info({ ms }, 'limites: 429 — todos os workers pausados');
    } catch (err) {
      opts.logger?.warn({ err }, 'limites: falha ao gravar a pausa');
    }
  };

  return {
    async gate(call) {
      const slot = await acquire();
      try {
        return await call();
      } finally {
        // Not awaited: the caller goes on while the unlock travels (it never throws; this
        // process's next request queues behind it on the same session; close() waits for it).
        track(release(slot));
      }
    },
    fetch: (async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
      const wait = pausedUntil - Date.now();
      if (wait > 0) await sleep(wait);
      const res = await fetch(input, init);
      if (res.status === 429) {
        await pause(retryAfterMs(res.headers) ?? opts.defaultPauseMs ?? 1_000);
      }
      return res;
    }) as typeof fetch,
    held: () => slots.size,
    settled,
    async close() {
      closed = true;
      wakeAll();
      await settled();
      const c = client;
      client = null;
      slots.clear();
      if (c) await c.end().catch(() => undefined);
    },
  };
}
