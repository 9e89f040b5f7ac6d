import type { MerchantSummary } from '@shared/contract/sales';
import type pg from 'pg';
import { mapDbError } from '../db/errors';

/** Merchant picker: by id (exact) or name (accent- and case-insensitive substring). */
export async function searchMerchants(
  pool: pg.Pool,
  query: string,
  limit: number,
): Promise<MerchantSummary[]> {
  const q = query.trim();
  try {
    const r = await pool.query<MerchantSummary>({
      text: `SELECT id, nome FROM merchants
             WHERE $1 = '' OR id::text = $1 OR nome ILIKE '%' || replace(replace(replace($1, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%'
             ORDER BY (id::text = $1) DESC, nome, id LIMIT $2`,
      values: [q, limit],
    });
    return r.rows;
  } catch (e) {
    throw mapDbError(e);
  }
}

/** One merchant by id, or null. */
export async function findMerchant(pool: pg.Pool, id: number): Promise<MerchantSummary | null> {
  try {
    const r = await pool.query<MerchantSummary>({
      text: 'SELECT id, nome FROM merchants WHERE id = $1',
      values: [id],
    });
    return r.rows[0] ?? null;
  } catch (e) {
    throw mapDbError(e);
  }
}
