/**
 * Runs a compiled sales query. `executeSalesQuery` is THE executor of the product: analytics
 * pool, read-only tenant-scoped transaction with a statement timeout, the rollups or the tenant
 * view as the path chooser decides (path.ts).
 * `executeSalesQueryBaseTable` runs the same query on `transacoes` ("textbook" path) through the
 * owner connection, also read-only; it exists to cross-check and benchmark other paths.
 */
import type pg from 'pg';
import type { ConsultaVendas, LinhaVenda } from '@shared/sales-dsl';
import type { LeituraFrescor } from '../db/analytics';
import { hotOn } from '../db/prepared';
import { withReadOnly, withTenantReadOnly } from '../db/tenant';
import { compileSalesQuery, type SalesSource } from './compile';
import {
  choosePath,
  needsVolume,
  volumeHorizon,
  type MerchantVolume,
  type SalesPath,
} from './path';
import { rollupsServeZone } from './rollup-sql';

export interface ExecuteContext {
  merchantId: number;
  timeZone: string;
  /** statement_timeout, ms. */
  timeoutMs: number;
  /** Receives the endpoint's freshness (a hot standby's lag), read with the tenant set-up. */
  onFrescor?: (l: LeituraFrescor) => void;
  /** Receives the path the (first) query took, once answered (the product path; benchmarks). */
  onPath?: (path: SalesPath) => void;
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
  /** The merchant's busiest month, when the statement was asked for it (bigint: text). */
  maior_mes?: string | number | null;
}

/**
 * What the product path knows of each merchant's volume, per database server and database (the
 * pools of one database share it; a replica's is apart): learned in an answer's own statement,
 * reused by the next ones (path.ts).
 */
const volumes = new Map<string, Map<number, MerchantVolume>>();
const volumesByPool = new WeakMap<pg.Pool, Map<number, MerchantVolume>>();

/** `host:port/database` of a pool, or '' when its options do not tell. */
function databaseOf(pool: pg.Pool): string {
  const o = (pool as { options?: Partial<pg.PoolConfig> }).options ?? {};
  if (o.connectionString) {
    try {
      const u = new URL(o.connectionString);
      return `${u.hostname}:${u.port}${u.pathname}${u.searchParams.get('host') ?? ''}`;
    } catch {
      return '';
    }
  }
  return o.host || o.database ? `${o.host ?? ''}:${o.port ?? ''}/${o.database ?? ''}` : '';
}

/**
 * The volumes of a pool's database. Looked up once per pool and kept with it: this runs before
 * every answer, and parsing the pool's URL each time cost more than the path choice saves on a
 * small question (#40.8: ~20 µs of the ~50 µs by which the base-table path trailed the textbook).
 */
function volumesOf(pool: pg.Pool): Map<number, MerchantVolume> {
  let m = volumesByPool.get(pool);
  if (m) return m;
  const key = databaseOf(pool);
  m = (key ? volumes.get(key) : undefined) ?? new Map<number, MerchantVolume>();
  if (key) volumes.set(key, m);
  volumesByPool.set(pool, m);
  return m;
}

/**
 * The path already chosen for a question, per known volume (a new volume — read again — starts
 * afresh): the same question asked again costs a map lookup instead of the period's plan
 * (~20 µs cold, more than the base table saves on a small question).
 */
const choicesByVolume = new WeakMap<MerchantVolume, Map<string, SalesPath>>();

function pathFor(q: ConsultaVendas, known: MerchantVolume | undefined): SalesPath {
  if (!known) return choosePath(q, known);
  let memo = choicesByVolume.get(known);
  if (!memo) choicesByVolume.set(known, (memo = new Map()));
  const key = `${q.metrica}|${q.agrupar_por}|${q.modalidades.join(',')}|${q.data_inicio}|${q.data_fim}`;
  let path = memo.get(key);
  if (!path) {
    path = choosePath(q, known);
    if (memo.size < 256) memo.set(key, path);
  }
  return path;
}

/** The product's choice: per query, the path; for the first, whether to read the volume. */
interface Choice {
  paths: SalesPath[];
  volume?: [string, string];
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
  source: SalesSource | 'escolha',
) {
  // The product path chooses per query, from what it knows of the merchant: no statement and no
  // round trip of its own (path.ts).
  let choice: Choice | undefined;
  const known = source === 'escolha' ? volumesOf(pool).get(ctx.merchantId) : undefined;
  if (source === 'escolha') {
    const first = qs[0];
    choice = {
      paths: qs.map((q) => pathFor(q, known)),
      ...(first && needsVolume(first, known) ? { volume: volumeHorizon(first) } : {}),
    };
  }
  const sourceOf = (i: number): SalesSource =>
    choice ? (choice.paths[i] === 'base' ? 'view' : 'rollups') : (source as SalesSource);
  // All sent at once: the transaction is pipelined (db/tenant.ts), so the opening and every
  // query go out together and the answer costs one round trip, however many queries it has.
  const query = async (c: pg.PoolClient) => {
    const sqls = qs.map((q, i) =>
      compileSalesQuery(q, {
        merchantId: ctx.merchantId,
        timeZone: ctx.timeZone,
        source: sourceOf(i),
        ...(i === 0 && choice?.volume ? { volume: choice.volume } : {}),
      }),
    );
    // Named on a pool that prepares (db/prepared.ts): parsed and planned once per connection.
    const settled = await Promise.allSettled(
      sqls.map((sql) => c.query<Row>(hotOn(pool, c, sql.text, sql.values))),
    );
    const out = settled.map((r) => {
      if (r.status === 'rejected') throw r.reason;
      return r.value.rows;
    });
    if (choice) learn(pool, ctx.merchantId, choice, known, out[0]?.[0]);
    ctx.onPath?.(choice?.paths[0] ?? (source === 'rollups' ? 'rollups' : 'base'));
    return out.map(toLinhas);
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

/**
 * After an answer of the product path: the volume its statement read (an answer with no row —
 * no sale in a grouping without a calendar — tells nothing: the next answer asks again), or one
 * more use of the known one.
 */
function learn(
  pool: pg.Pool,
  merchantId: number,
  choice: Choice,
  known: MerchantVolume | undefined,
  row: Row | undefined,
) {
  if (choice.volume) {
    if (row?.maior_mes !== undefined && row.maior_mes !== null) {
      volumesOf(pool).set(merchantId, {
        maiorMes: Number(row.maior_mes),
        horizonte: choice.volume,
        usos: 0,
      });
    }
  } else if (known) known.usos++;
}

const one = async (p: Promise<LinhaVenda[][]>) => (await p)[0] ?? [];

/**
 * The product's source: the chooser (rollups or the tenant view, per question) where the rollups
 * serve the configured zone, the tenant view over transacoes otherwise.
 */
const productSource = (ctx: ExecuteContext): SalesSource | 'escolha' =>
  rollupsServeZone(ctx.timeZone) ? 'escolha' : 'view';

/**
 * The product path: analytics role, tenant views, read-only transaction, timeout. Where the exact
 * rollups serve the configured zone, each question reads them or the tenant view over
 * transacoes, whichever reads less for that merchant and period (path.ts); the tenant view
 * otherwise.
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

/**
 * The rollups always, whatever the chooser would take (analytics role, tenant functions): to check
 * and benchmark that path on its own. Only in the rollups' zone.
 */
export const executeSalesQueryRollups: SalesExecutor = (pool, q, ctx) =>
  one(run(pool, [q], ctx, 'rollups'));

/** The textbook path on the base table (owner/admin pool): same rows, no view, no tenant GUC. */
export const executeSalesQueryBaseTable: SalesExecutor = (pool, q, ctx) =>
  one(run(pool, [q], ctx, 'base'));
