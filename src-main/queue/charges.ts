import type { ChargesPage } from '@shared/contract/review';
import type pg from 'pg';
import { decodeCursor, encodeCursor } from './cursor';
import { CHARGE_COLS, toCharge, type ChargeRow } from './rows';
import { query } from '../db/tx';

/** Created charges, newest first, keyset-paginated on (criada_em, id). */
export async function listCharges(
  pool: pg.Pool,
  input: { merchantId?: number | undefined; cursor?: string | null | undefined; limit: number },
): Promise<ChargesPage> {
  const values: unknown[] = [];
  const p = (v: unknown) => `$${values.push(v)}`;
  const where = ['TRUE'];
  if (input.merchantId) where.push(`c.merchant_id = ${p(input.merchantId)}`);
  if (input.cursor) {
    const [at, id] = decodeCursor(input.cursor, 'cobrancas', ['t', 'n']);
    where.push(`(c.criada_em, c.id) < (${p(at)}::timestamptz, ${p(id)}::bigint)`);
  }
  const rows = await query<ChargeRow>(
    pool,
    `SELECT ${CHARGE_COLS} FROM cobrancas c JOIN merchants m ON m.id = c.merchant_id
      WHERE ${where.join(' AND ')} ORDER BY c.criada_em DESC, c.id DESC LIMIT ${p(input.limit + 1)}`,
    values,
  );
  const page = rows.slice(0, input.limit);
  const last = page[page.length - 1];
  return {
    items: page.map(toCharge),
    nextCursor:
      rows.length > input.limit && last
        ? encodeCursor('cobrancas', [last.criada_em_k, last.id])
        : null,
  };
}
