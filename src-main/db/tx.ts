import type pg from 'pg';
import { mapDbError } from './errors';

/**
 * Runs `fn` in one transaction on a pooled client: COMMIT when it returns, ROLLBACK when it
 * throws. Database errors leave as pt-BR AppErrors (never raw PostgreSQL text).
 */
export async function withTransaction<T>(
  pool: pg.Pool,
  fn: (c: pg.PoolClient) => Promise<T>,
): Promise<T> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (e) {
    throw mapDbError(e);
  }
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw mapDbError(e);
  } finally {
    client.release();
  }
}

/** A query on the pool with database errors mapped to pt-BR. */
export async function query<R extends pg.QueryResultRow>(
  db: pg.Pool | pg.PoolClient,
  text: string,
  values: unknown[] = [],
): Promise<R[]> {
  try {
    return (await db.query<R>({ text, values })).rows;
  } catch (e) {
    throw mapDbError(e);
  }
}
