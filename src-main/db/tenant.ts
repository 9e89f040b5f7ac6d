import type pg from 'pg';
import { AppError } from '@shared/errors';
import { mapDbError } from './errors';

export interface TenantTxOptions {
  merchantId: number;
  /** statement_timeout for this transaction, ms. */
  timeoutMs: number;
}

/**
 * Runs `fn` inside a read-only, tenant-scoped transaction on the analytics pool:
 * BEGIN READ ONLY, local statement timeout, tenant set by our code through
 * `balcao_definir_lojista` (validated integer, once per transaction), then ALWAYS rolled back.
 * The connection is reset (DISCARD ALL) before it returns to the pool; a connection whose
 * reset fails is destroyed instead of reused.
 */
export async function withTenantReadOnly<T>(
  pool: pg.Pool,
  opts: TenantTxOptions,
  fn: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  if (!Number.isSafeInteger(opts.merchantId) || opts.merchantId <= 0) {
    throw new AppError('entrada_invalida', 'Lojista inválido.');
  }
  const timeout = Math.max(1, Math.min(Math.trunc(opts.timeoutMs), 600_000));
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (e) {
    throw mapDbError(e);
  }
  let broken: Error | undefined;
  try {
    await client.query('BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY');
    // Not user input: a clamped integer. SET LOCAL does not take parameters.
    await client.query(`SET LOCAL statement_timeout = ${timeout}`);
    await client.query({ text: 'SELECT balcao_definir_lojista($1)', values: [opts.merchantId] });
    return await fn(client);
  } catch (e) {
    throw mapDbError(e);
  } finally {
    try {
      await client.query('ROLLBACK');
      await client.query('DISCARD ALL');
    } catch (e) {
      broken = e instanceof Error ? e : new Error(String(e));
    }
    client.release(broken);
  }
}
