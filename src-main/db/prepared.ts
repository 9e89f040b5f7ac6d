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
