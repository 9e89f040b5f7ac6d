import pg from 'pg';

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

export interface PoolOptions {
  max?: number;
  applicationName?: string;
  /** Per-connection statement timeout in ms (0 = none). */
  statementTimeoutMs?: number;
  /** Connect timeout, ms (default 5 s). */
  connectTimeoutMs?: number;
  /**
   * Client-side read deadline per query, ms (a hung server); the pool destroys the connection.
   * Only for pools of plain queries (no cursors).
   */
  queryTimeoutMs?: number;
}

export function createPool(connectionString: string, opts: PoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max: opts.max ?? 5,
    application_name: opts.applicationName ?? 'balcao',
    connectionTimeoutMillis: opts.connectTimeoutMs ?? 5_000,
    idleTimeoutMillis: 30_000,
    ...(opts.statementTimeoutMs ? { statement_timeout: opts.statementTimeoutMs } : {}),
    ...(opts.queryTimeoutMs ? { query_timeout: opts.queryTimeoutMs } : {}),
  });
  // An idle client error (server restart) must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  return pool;
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
