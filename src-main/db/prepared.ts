/**
 * Named (prepared) statements for the few fixed texts a worker runs for every message: parsed
 * and planned once per connection instead of on every run. Only where the connection is a
 * session one — a transaction pooler (PgBouncer before 1.21, or without max_prepared_statements)
 * would send the next run to a server connection that never saw the statement. Never for
 * texts that vary without bound (each name lives as long as its connection).
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';

const names = new Map<string, string>();

/** The statement's name: a digest of its text (the same text, the same name, in every process). */
export function statementName(text: string): string {
  let n = names.get(text);
  if (!n) {
    n = 'balcao_' + createHash('sha256').update(text).digest('hex').slice(0, 24);
    names.set(text, n);
  }
  return n;
}

const preparing = new WeakSet<object>();

/** Marks a pool (or a session client) as one whose hot statements are prepared. */
export function prepareStatements<T extends object>(db: T, on = true): T {
  if (on) preparing.add(db);
  else preparing.delete(db);
  return db;
}

/** The query for `db`: named after its text when `db` prepares statements. */
export function hot(db: object, text: string, values: unknown[]): pg.QueryConfig {
  return preparing.has(db) ? { name: statementName(text), text, values } : { text, values };
}

/** Whether `db` (a pool) prepares its hot statements. */
export function preparesStatements(db: object): boolean {
  return preparing.has(db);
}

/**
 * Most named statements one connection holds through `hotOn`: the compiled sales queries have a
 * bounded set of shapes (grouping, metric, filters, the month plan's parts), but a connection
 * lives as long as it is used, and each statement keeps its plan in the server's memory.
 */
export const MAX_PREPARED_PER_CONNECTION = 200;

const held = new WeakMap<object, Set<string>>();

/**
 * `hot` for a statement sent on `client` of `pool`: named (parsed and planned once per
 * connection) while the connection holds fewer than MAX_PREPARED_PER_CONNECTION of ours,
 * unnamed after that.
 */
export function hotOn(
  pool: object,
  client: object,
  text: string,
  values: unknown[],
): pg.QueryConfig {
  if (!preparing.has(pool)) return { text, values };
  const name = statementName(text);
  let names = held.get(client);
  if (!names) held.set(client, (names = new Set()));
  if (!names.has(name)) {
    if (names.size >= MAX_PREPARED_PER_CONNECTION) return { text, values };
    names.add(name);
  }
  return { name, text, values };
}

/** pg's per-connection record of the statements it has parsed (pg 8: `connection.*`). */
interface PgStatementCache {
  connection?: {
    parsedStatements?: Record<string, string>;
    submittedNamedStatements?: Record<string, string>;
  };
}

/**
 * After DEALLOCATE ALL on `client`: the server holds no named statement any more, so pg must not
 * skip the Parse of the next one. Returns false when pg's record could not be reached — then the
 * connection must not be reused.
 */
export function forgetPrepared(client: object): boolean {
  held.delete(client);
  const con = (client as PgStatementCache).connection;
  if (
    !con ||
    typeof con.parsedStatements !== 'object' ||
    typeof con.submittedNamedStatements !== 'object'
  ) {
    return false;
  }
  con.parsedStatements = {};
  con.submittedNamedStatements = {};
  return true;
}

/**
 * Whether a worker prepares: BALCAO_DB_PREPARAR when set; otherwise when its connection is a
 * session one — no DIRECT_DATABASE_URL beside it (then the app URL already serves the
 * session-level locks), or the same URL.
 */
export function shouldPrepare(s: {
  dbPrepare: boolean | undefined;
  appDatabaseUrl: string | undefined;
  directDatabaseUrl: string | undefined;
}): boolean {
  if (s.dbPrepare !== undefined) return s.dbPrepare;
  return s.directDatabaseUrl === undefined || s.directDatabaseUrl === s.appDatabaseUrl;
}

/**
 * Whether the analytics pool prepares the compiled sales queries: BALCAO_DB_PREPARAR when set;
 * otherwise only when the analytics connection is derived from the owner's DATABASE_URL (the
 * embedded default, or a service login that runs the migrations: a session connection). Off for
 * a separate ANALYTICS_DATABASE_URL (it may be a replica behind a transaction pooler) and on a
 * team server (`pessoal`), whose DATABASE_URL may itself be a PgBouncer in transaction mode.
 */
export function analyticsPrepares(
  s: { dbPrepare: boolean | undefined; analyticsDatabaseUrl: string | undefined },
  modo: 'servico' | 'pessoal' = 'servico',
): boolean {
  if (s.dbPrepare !== undefined) return s.dbPrepare;
  return modo === 'servico' && s.analyticsDatabaseUrl === undefined;
}
