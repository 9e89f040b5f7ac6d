/**
 * Runs a compiled sales query. `executeSalesQuery` is THE executor of the product: analytics
 * pool, read-only tenant-scoped transaction with a statement timeout, tenant view.
 * `executeSalesQueryBaseTable` runs the same query on `transacoes` ("textbook" path) through the
 * owner connection, also read-only; it exists to cross-check and benchmark other paths.
 */
import type pg from 'pg';
import type { ConsultaVendas, LinhaVenda } from '@shared/sales-dsl';
import { mapDbError } from '../db/errors';
import type { LeituraFrescor } from '../db/analytics';
import { withTenantReadOnly } from '../db/tenant';
import { compileSalesQuery } from './compile';
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

/**
 * The product path: analytics role, tenant views, read-only transaction, timeout. Reads the exact
 * rollups when they serve the configured zone, the tenant view over transacoes otherwise.
 */
export const executeSalesQuery: SalesExecutor = async (pool, q, ctx) => {
  const sql = compileSalesQuery(q, {
    merchantId: ctx.merchantId,
    timeZone: ctx.timeZone,
    source: rollupsServeZone(ctx.timeZone) ? 'rollups' : 'view',
  });
  return withTenantReadOnly(
    pool,
    {
      merchantId: ctx.merchantId,
      timeoutMs: ctx.timeoutMs,
      ...(ctx.onFrescor ? { onFrescor: ctx.onFrescor } : {}),
    },
    async (c) => toLinhas((await c.query<Row>(sql)).rows),
  );
};

/**
 * The tenant view over transacoes (`vendas_aprovadas`), whatever the zone: the product's fallback
 * when the rollups do not serve the configured zone; exported to check and benchmark it.
 */
export const executeSalesQueryTenantView: SalesExecutor = async (pool, q, ctx) => {
  const sql = compileSalesQuery(q, {
    merchantId: ctx.merchantId,
    timeZone: ctx.timeZone,
    source: 'view',
  });
  return withTenantReadOnly(
    pool,
    {
      merchantId: ctx.merchantId,
      timeoutMs: ctx.timeoutMs,
      ...(ctx.onFrescor ? { onFrescor: ctx.onFrescor } : {}),
    },
    async (c) => toLinhas((await c.query<Row>(sql)).rows),
  );
};

/** The textbook path on the base table (owner/admin pool): same rows, no view, no tenant GUC. */
export const executeSalesQueryBaseTable: SalesExecutor = async (pool, q, ctx) => {
  const sql = compileSalesQuery(q, {
    merchantId: ctx.merchantId,
    timeZone: ctx.timeZone,
    source: 'base',
  });
  const timeout = Math.max(1, Math.min(Math.trunc(ctx.timeoutMs), 600_000));
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (e) {
    throw mapDbError(e);
  }
  let broken: Error | undefined;
  try {
    await client.query('BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY');
    // A clamped integer, not input.
    await client.query(`SET LOCAL statement_timeout = ${timeout}`);
    return toLinhas((await client.query<Row>(sql)).rows);
  } catch (e) {
    throw mapDbError(e);
  } finally {
    await client.query('ROLLBACK').catch((e: unknown) => {
      broken = e instanceof Error ? e : new Error(String(e));
    });
    client.release(broken);
  }
};
