import pg from 'pg';
import { prepareStatements } from './prepared';

// bigint columns (sums of centavos, ids) come back as strings by default; every value we
// handle fits in a JS safe integer (checked where it matters), so parse them as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => {
  const n = Number(v);
  if (!Number.isSafeInteger(n)) throw new RangeError(`bigint fora do intervalo seguro: ${v}`);
  return n;
});
// numeric (e.g. estimated cost) as number.
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));
// `date` stays a plain YYYY-MM-DD string: no time zone shifts.
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;

/**
 * Bounded waits of one pool. They are applied per transaction with SET LOCAL (withTransaction),
 * never as startup parameters: PgBouncer in transaction mode rejects those. Migration 0500 sets
 * role-level defaults as a backstop for statements outside a transaction. 0 = no limit.
 */
export interface DbTimeouts {
  /** statement_timeout, ms. */
  statementMs: number;
  /** lock_timeout, ms: a row held by another agent ends the wait in bounded time. */
  lockMs: number;
  /** idle_in_transaction_session_timeout, ms. */
  idleInTransactionMs: number;
  /** How long to wait for a pooled connection (pool.connect), ms. */
  connectMs: number;
}

export const DEFAULT_DB_TIMEOUTS: DbTimeouts = {
  statementMs: 15_000,
  lockMs: 3_000,
  idleInTransactionMs: 30_000,
  connectMs: 5_000,
};

export interface PoolOptions {
  max?: number;
  applicationName?: string;
  /** Per-connection statement timeout in ms (0 = none). */
  statementTimeoutMs?: number;
  /** Bounded waits (defaults: DEFAULT_DB_TIMEOUTS). */
  timeouts?: Partial<DbTimeouts>;
  /** Where a lost connection is reported (never thrown: it only marks the client). */
  onConnectionError?: (err: Error) => void;
  /**
   * Client-side read deadline per query, ms (a hung server); the pool destroys the connection.
   * Only for pools of plain queries (no cursors).
   */
  queryTimeoutMs?: number;
  /** The hot statements run through `hot()` are prepared (db/prepared.ts): session connections only. */
  prepare?: boolean;
}

interface PoolState {
  timeouts: DbTimeouts;
  /** Write transactions may use at most this many connections: the rest stay for reads. */
  writers: Semaphore;
}

const states = new WeakMap<pg.Pool, PoolState>();
const lostClients = new WeakMap<object, Error>();

/**
 * The error a pooled client emitted when its connection died (server restart, failover,
 * pg_terminate_backend, network drop), or undefined while it is healthy.
 */
export function connectionLostOn(client: object): Error | undefined {
  return lostClients.get(client);
}

/**
 * Makes a pool fault-tolerant: every client it creates keeps an 'error' listener for its whole
 * life (checked out or idle). node-pg emits 'error' on a checked-out client when its backend
 * dies; without a listener Node exits. The listener only marks the client as lost, so the
 * operation using it fails alone and `release(err)` destroys it.
 */
export function guardPool(
  pool: pg.Pool,
  opts: {
    timeouts?: Partial<DbTimeouts>;
    max?: number;
    onConnectionError?: (e: Error) => void;
  } = {},
): pg.Pool {
  if (states.has(pool)) return pool;
  const timeouts = { ...DEFAULT_DB_TIMEOUTS, ...opts.timeouts };
  const max = opts.max ?? pool.options.max ?? 10;
  states.set(pool, { timeouts, writers: new Semaphore(Math.max(1, max - 2)) });
  pool.on('connect', (client) => {
    client.on('error', (err: Error) => {
      if (!lostClients.has(client)) lostClients.set(client, err);
      opts.onConnectionError?.(err);
    });
  });
  // An idle client error (server restart) must not crash the process; the next query reconnects.
  pool.on('error', (err) => opts.onConnectionError?.(err));
  return pool;
}

/** The pool's bounded waits (defaults for a pool not made by createPool/guardPool). */
export function timeoutsOf(pool: pg.Pool): DbTimeouts {
  return states.get(pool)?.timeouts ?? DEFAULT_DB_TIMEOUTS;
}

/** The pool's writer slots (a pool not made here gets its own, created on first use). */
export function writersOf(pool: pg.Pool): Semaphore {
  let s = states.get(pool);
  if (!s) {
    guardPool(pool);
    s = states.get(pool) as PoolState;
  }
  return s.writers;
}

export function createPool(connectionString: string, opts: PoolOptions = {}): pg.Pool {
  const max = opts.max ?? 5;
  const timeouts = { ...DEFAULT_DB_TIMEOUTS, ...opts.timeouts };
  const pool = new pg.Pool({
    connectionString,
    max,
    application_name: opts.applicationName ?? 'balcao',
    connectionTimeoutMillis: timeouts.connectMs,
    idleTimeoutMillis: 30_000,
    ...(opts.statementTimeoutMs ? { statement_timeout: opts.statementTimeoutMs } : {}),
    ...(opts.queryTimeoutMs ? { query_timeout: opts.queryTimeoutMs } : {}),
  });
  if (opts.prepare) prepareStatements(pool);
  return guardPool(pool, {
    timeouts,
    max,
    ...(opts.onConnectionError ? { onConnectionError: opts.onConnectionError } : {}),
  });
}

/** A counting semaphore with a bounded wait. */
export class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(readonly size: number) {}

  /** Resolves with a release function, or rejects with `onTimeout()` after `timeoutMs`. */
  acquire(timeoutMs: number, onTimeout: () => Error): Promise<() => void> {
    const release = () => {
      let done = false;
      return () => {
        if (done) return;
        done = true;
        this.active--;
        const next = this.waiting.shift();
        if (next) next();
      };
    };
    if (this.active < this.size) {
      this.active++;
      return Promise.resolve(release());
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        clearTimeout(timer);
        this.active++;
        resolve(release());
      };
      const timer =
        timeoutMs > 0
          ? setTimeout(() => {
              const i = this.waiting.indexOf(grant);
              if (i >= 0) this.waiting.splice(i, 1);
              reject(onTimeout());
            }, timeoutMs)
          : undefined;
      this.waiting.push(grant);
    });
  }
}

/** The three connections the app holds. */
export interface Databases {
  /** Owner/admin connection: migrations, demo data. */
  admin: pg.Pool;
  /** App role: review queue reads and writes. */
  app: pg.Pool;
  /** Read-only analytics role, tenant-scoped transactions only (ANALYTICS_DATABASE_URL: maybe a replica). */
  analytics: pg.Pool;
  /**
   * App role on the analytics endpoint: merchant search and lookup read where the sales
   * questions read (the replica). Absent = `app`.
   */
  appRead?: pg.Pool;
  /** The primary's analytics and app-read pools, when BALCAO_ANALYTICS_FALLBACK=primary. */
  fallback?: { analytics: pg.Pool; appRead: pg.Pool };
}

export async function closeDatabases(dbs: Databases): Promise<void> {
  const pools = new Set<pg.Pool>([dbs.admin, dbs.app, dbs.analytics]);
  if (dbs.appRead) pools.add(dbs.appRead);
  if (dbs.fallback) pools.add(dbs.fallback.analytics).add(dbs.fallback.appRead);
  await Promise.allSettled([...pools].map((p) => p.end()));
}
