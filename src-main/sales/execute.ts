/**
 * Runs a compiled sales query. `executeSalesQuery` is THE executor of the product: analytics
 * pool, read-only tenant-scoped transaction with a statement timeout, tenant view.
 * `executeSalesQueryBaseTable` runs the same query on `transacoes` ("textbook" path) through the
 * owner connection, also read-only; it exists to cross-check and benchmark other paths.
 */
import type pg from 'pg';
import type { ConsultaVendas, LinhaVenda } from '@shared/sales-dsl';
import type { LeituraFrescor } from '../db/analytics';
import { hotOn } from '../db/prepared';
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

/** Any way of answering a resolved query for a merchant (`answerSalesDsl`/`askSales` take one). */
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

/**
 * The one way compiled sales queries run: read-only, timed out, tenant-scoped unless `base` —
 * all of `qs` in ONE transaction (a grouped answer and its period total see the same snapshot).
 */
function run(
  pool: pg.Pool,
  qs: readonly ConsultaVendas[],
  ctx: ExecuteContext,
  source: SalesSource,
) {
  // All sent at once: the transaction is pipelined (db/tenant.ts), so the opening and every
  // query go out together and the answer costs one round trip, however many queries it has.
  const query = async (c: pg.PoolClient) => {
    const sqls = qs.map((q) =>
      compileSalesQuery(q, { merchantId: ctx.merchantId, timeZone: ctx.timeZone, source }),
    );
    // Named on a pool that prepares (db/prepared.ts): parsed and planned once per connection.
    const settled = await Promise.allSettled(
      sqls.map((sql) => c.query<Row>(hotOn(pool, c, sql.text, sql.values))),
    );
    return settled.map((r) => {
      if (r.status === 'rejected') throw r.reason;
      return toLinhas(r.value.rows);
    });
  };
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

const one = async (p: Promise<LinhaVenda[][]>) => (await p)[0] ?? [];
const productSource = (ctx: ExecuteContext): SalesSource =>
  rollupsServeZone(ctx.timeZone) ? 'rollups' : 'view';

/**
 * The product path: analytics role, tenant views, read-only transaction, timeout. Reads the exact
 * rollups when they serve the configured zone, the tenant view over transacoes otherwise.
 */
export const executeSalesQuery: SalesExecutor = (pool, q, ctx) =>
  one(run(pool, [q], ctx, productSource(ctx)));

/** Several queries answered together (one answer's unit: an answer and its period total). */
export type SalesBatchExecutor = (
  pool: pg.Pool,
  qs: readonly ConsultaVendas[],
  ctx: ExecuteContext,
) => Promise<LinhaVenda[][]>;

/** The product path for several queries: one tenant transaction for all of them. */
export const executeSalesQueries: SalesBatchExecutor = (pool, qs, ctx) =>
  run(pool, qs, ctx, productSource(ctx));

/** A single-query executor (a test's or a benchmark's) used for a batch: one call per query. */
export function batchOf(exec: SalesExecutor): SalesBatchExecutor {
  return async (pool, qs, ctx) => {
    const out: LinhaVenda[][] = [];
    for (const q of qs) out.push(await exec(pool, q, ctx));
    return out;
  };
}

/**
 * The tenant view over transacoes (`vendas_aprovadas`), whatever the zone: the product's fallback
 * when the rollups do not serve the configured zone; exported to check and benchmark it.
 */
export const executeSalesQueryTenantView: SalesExecutor = (pool, q, ctx) =>
  one(run(pool, [q], ctx, 'view'));

/** The textbook path on the base table (owner/admin pool): same rows, no view, no tenant GUC. */
export const executeSalesQueryBaseTable: SalesExecutor = (pool, q, ctx) =>
  one(run(pool, [q], ctx, 'base'));
