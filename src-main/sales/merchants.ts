import type { MerchantSummary } from '@shared/contract/sales';
import type pg from 'pg';
import { AppError } from '@shared/errors';
import { readAnalytics, type AnalyticsDeps } from '../db/analytics';
import { mapDbError } from '../db/errors';
import type { SalesDeps } from './deps';
import { errorText, questionLog, type QuestionLogBase } from './log';

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

/**
 * The Vendas page's merchant picker: searched where the sales questions read (the replica when
 * configured), with the same fallback.
 */
export async function searchSalesMerchants(
  deps: AnalyticsDeps,
  query: string,
  limit: number,
): Promise<MerchantSummary[]> {
  return (await readAnalytics(deps, (pools) => searchMerchants(pools.appRead, query, limit))).value;
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

/**
 * Fails with a pt-BR error when the merchant does not exist. Given the sales deps, it reads
 * where the sales questions read (the replica when configured). The panel checks once, when a
 * window chooses its merchant; the CLI when it starts a question.
 */
export async function requireMerchant(
  db: pg.Pool | AnalyticsDeps,
  merchantId: number,
): Promise<{ id: number; nome: string }> {
  if (!Number.isSafeInteger(merchantId) || merchantId <= 0) {
    throw new AppError('entrada_invalida', 'Código de lojista inválido.');
  }
  const m =
    'dbs' in db
      ? (await readAnalytics(db, (pools) => findMerchant(pools.appRead, merchantId))).value
      : await findMerchant(db, merchantId);
  if (!m) throw new AppError('nao_encontrado', `Lojista ${merchantId} não encontrado.`);
  return m;
}

/**
 * The merchant check at the start of a question or DSL query that did not come with a chosen
 * merchant. When it fails for any reason but an unknown merchant (a lost connection, a timeout),
 * the attempt is logged all the same: no question is missing from the log. (An unknown merchant
 * cannot be logged: the log row references the merchant.)
 */
export async function requireMerchantLogged(
  deps: SalesDeps,
  entry: QuestionLogBase,
  startedAt: number,
): Promise<void> {
  try {
    await requireMerchant(deps, entry.merchantId);
  } catch (e) {
    if (!(
      e instanceof AppError &&
      (e.code === 'nao_encontrado' || e.code === 'entrada_invalida')
    )) {
      await questionLog(deps, entry, startedAt).record('erro', { erro: errorText(e) });
    }
    throw e;
  }
}
