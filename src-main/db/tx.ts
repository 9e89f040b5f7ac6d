import type pg from 'pg';
import { AppError } from '@shared/errors';
import { isConnectionLost, mapDbError, rawDbError, type DbPhase } from './errors';
import { connectionLostOn, timeoutsOf, writersOf, type DbTimeouts } from './pool';

export interface TxOptions {
  /**
   * Retry once on a fresh connection when the connection is lost BEFORE the COMMIT was sent
   * (nothing was saved, so running `fn` again cannot apply anything twice). For reads and
   * claims; writes whose COMMIT was in flight are never retried.
   */
  retry?: boolean;
  /** Read-only transaction: does not take a writer slot, and its failures say nothing was changed. */
  readOnly?: boolean;
}

/** BEGIN plus the pool's bounded waits, in one round trip (our own integers, not input). */
export function beginSql(t: DbTimeouts, readOnly = false): string {
  const ms = (v: number) => Math.max(0, Math.min(Math.trunc(v), 3_600_000));
  return [
    readOnly ? 'BEGIN READ ONLY' : 'BEGIN',
    `SET LOCAL statement_timeout = ${ms(t.statementMs)}`,
    `SET LOCAL lock_timeout = ${ms(t.lockMs)}`,
    `SET LOCAL idle_in_transaction_session_timeout = ${ms(t.idleInTransactionMs)}`,
  ].join('; ');
}

/** Gives a client back: destroyed (never reused) when it failed at the connection level. */
export function releaseClient(client: pg.PoolClient, err?: unknown): void {
  const lost = connectionLostOn(client);
  const destroy = lost ?? (err !== undefined && isConnectionLost(err) ? err : undefined);
  try {
    client.release(
      destroy instanceof Error ? destroy : destroy ? new Error(String(destroy)) : undefined,
    );
  } catch {
    // release twice throws in pg-pool; the client is already gone.
  }
}

class Attempt {
  phase: DbPhase = 'conexao';
}

/**
 * Runs `fn` in one transaction on a pooled client: COMMIT when it returns, ROLLBACK when it
 * throws. The transaction runs with the pool's statement, lock and idle-in-transaction timeouts
 * (SET LOCAL, so it works through PgBouncer). Write transactions share at most `max - 2` of the
 * pool's connections, so lock waits never starve reads. A connection lost mid-way fails this
 * operation alone (the client is destroyed) with a pt-BR error saying whether anything was
 * saved; with `retry`, a loss before COMMIT is retried once on a fresh connection. Database
 * errors leave as pt-BR AppErrors (never raw PostgreSQL text).
 */
export async function withTransaction<T>(
  pool: pg.Pool,
  fn: (c: pg.PoolClient) => Promise<T>,
  opts: TxOptions = {},
): Promise<T> {
  const t = timeoutsOf(pool);
  let releaseSlot: (() => void) | undefined;
  if (!opts.readOnly) {
    releaseSlot = await writersOf(pool).acquire(
      t.connectMs,
      () =>
        new AppError(
          'banco_indisponivel',
          'O banco está ocupado com outras gravações (todas as conexões em uso); nada foi salvo. Tente de novo em instantes.',
        ),
    );
  }
  try {
    // A pooled connection can be dead before we use it: its backend was terminated (restart,
    // failover, pg_terminate_backend) while it sat idle, and the notice had not reached us yet.
    // A loss at BEGIN ran nothing of `fn`, so it is retried on another connection whatever
    // `retry` says; each stale connection is destroyed as it fails, so at most `max` of them
    // can be met before a fresh one.
    let stale = 0;
    let retried = false;
    for (;;) {
      try {
        return await attempt(pool, fn, t, opts);
      } catch (e) {
        if (e instanceof StaleConnection && stale++ < (pool.options.max ?? 10)) continue;
        if (opts.retry && !retried && e instanceof RetryableLoss) {
          retried = true;
          continue;
        }
        throw e;
      }
    }
  } catch (e) {
    if (e instanceof RetryableLoss) throw e.mapped;
    throw e;
  } finally {
    releaseSlot?.();
  }
}

/** A connection lost before COMMIT: safe to run again. */
class RetryableLoss extends Error {
  constructor(readonly mapped: AppError) {
    super(mapped.message);
  }
}

/** A connection that was already dead when BEGIN was sent: nothing of `fn` ran. */
class StaleConnection extends RetryableLoss {}

async function attempt<T>(
  pool: pg.Pool,
  fn: (c: pg.PoolClient) => Promise<T>,
  t: DbTimeouts,
  opts: TxOptions,
): Promise<T> {
  const st = new Attempt();
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (e) {
    throw mapDbError(e, { phase: 'conexao' });
  }
  const work: DbPhase = opts.readOnly ? 'leitura' : 'escrita';
  let failure: unknown;
  try {
    st.phase = 'conexao';
    await client.query(beginSql(t, opts.readOnly));
    st.phase = work;
    const result = await fn(client);
    const lostBeforeCommit = connectionLostOn(client);
    if (lostBeforeCommit) throw lostBeforeCommit;
    st.phase = 'commit';
    await client.query('COMMIT');
    return result;
  } catch (e) {
    failure = e;
    const lost = connectionLostOn(client) ?? (isConnectionLost(e) ? e : undefined);
    if (!lost) {
      try {
        await client.query('ROLLBACK');
      } catch (rollbackError) {
        failure = rollbackError;
      }
    }
    // An AppError thrown by `fn` (a business refusal) wins unless the connection died under it.
    if (e instanceof AppError && !lost) throw e;
    if (lost) {
      const phase = st.phase === 'commit' && !opts.readOnly ? 'commit' : work;
      const mapped = mapDbError(rawDbError(lost === e ? e : lost), { phase });
      if (st.phase === 'conexao') throw new StaleConnection(mapped);
      if (phase !== 'commit') throw new RetryableLoss(mapped);
      throw mapped;
    }
    throw mapDbError(e, { phase: st.phase === 'commit' ? 'commit' : work });
  } finally {
    releaseClient(client, failure);
  }
}

/**
 * A query on the pool (or a client) with database errors mapped to pt-BR. On a pool, a lost
 * connection is retried once on a fresh one for reads (a SELECT) and when `retry` says the
 * statement is idempotent.
 */
export async function query<R extends pg.QueryResultRow>(
  db: pg.Pool | pg.PoolClient,
  text: string,
  values: unknown[] = [],
  opts: { retry?: boolean } = {},
): Promise<R[]> {
  try {
    return (await db.query<R>({ text, values })).rows;
  } catch (e) {
    const isPool = 'totalCount' in db;
    const retry = opts.retry ?? /^\s*SELECT\b/i.test(text);
    if (retry && isPool && isConnectionLost(e)) {
      try {
        return (await db.query<R>({ text, values })).rows;
      } catch (e2) {
        throw mapDbError(e2, { phase: 'leitura' });
      }
    }
    throw mapDbError(e);
  }
}
