/**
 * Runs a compiled sales query. `executeSalesQuery` is THE executor of the product: analytics
 * pool, read-only tenant-scoped transaction with a statement timeout, tenant view.
 * `executeSalesQueryBaseTable` runs the same query on `transacoes` ("textbook" path) through the
 * owner connection, also read-only; it exists to cross-check and benchmark other paths.
 */
import type pg from 'pg';
import type { ConsultaVendas, LinhaVenda } from '@shared/sales-dsl';
import type { LeituraFrescor } from '../db/analytics';
import { withReadOnly, withTenantReadOnly } from '../db/tenant';
import { compileSalesQuery, type SalesSource } from './compile';
import { rollupsServeZone } from './rollup-sql';

export interface ExecuteContext {
  merchantId: number;
  timeZone: string;
  /** statement_timeout, ms. */
  timeoutMs: number;
  /** Receives the endpoint's freshness (a hot standby's lag), read with the tenant set-up. */
  onFrescor?: (l: LeituraFrescor) => void;
}

/** Any way of answering a resolved query for a merchant (the engine takes one). */
export type SalesExecutor = (
  pool: pg.Pool,
  q: ConsultaVendas,
  ctx: ExecuteContext,
) => Promise<LinhaVenda[]>;

interface Row {
  grupo: string | null;
  valor: number | null;
}

function toLinhas(rows: Row[]): LinhaVenda[] {
  return rows.map((r) => ({ grupo: r.grupo, valor: r.valor }));
}

/** The one way a compiled sales query runs: read-only, timed out, tenant-scoped unless `base`. */
function run(pool: pg.Pool, q: ConsultaVendas, ctx: ExecuteContext, source: SalesSource) {
  const sql = compileSalesQuery(q, { merchantId: ctx.merchantId, timeZone: ctx.timeZone, source });
  const query = async (c: pg.PoolClient) => toLinhas((await c.query<Row>(sql)).rows);
  return source === 'base'
    ? withReadOnly(pool, { timeoutMs: ctx.timeoutMs }, query)
    : withTenantReadOnly(
        pool,
        {
          merchantId: ctx.merchantId,
          timeoutMs: ctx.timeoutMs,
          ...(ctx.onFrescor ? { onFrescor: ctx.onFrescor } : {}),
        },
        query,
      );
}

/**
 * The product path: analytics role, tenant views, read-only transaction, timeout. Reads the exact
 * rollups when they serve the configured zone, the tenant view over transacoes otherwise.
 */
export const executeSalesQuery: SalesExecutor = (pool, q, ctx) =>
  run(pool, q, ctx, rollupsServeZone(ctx.timeZone) ? 'rollups' : 'view');

/**
 * The tenant view over transacoes (`vendas_aprovadas`), whatever the zone: the product's fallback
 * when the rollups do not serve the configured zone; exported to check and benchmark it.
 */
export const executeSalesQueryTenantView: SalesExecutor = (pool, q, ctx) =>
  run(pool, q, ctx, 'view');

/** The textbook path on the base table (owner/admin pool): same rows, no view, no tenant GUC. */
export const executeSalesQueryBaseTable: SalesExecutor = (pool, q, ctx) =>
  run(pool, q, ctx, 'base');
