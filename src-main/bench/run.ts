/**
 * The benchmark run: for each merchant (biggest, median, tiny) and each query of the mix, warm
 * up once, then N repetitions of
 *   (a) the textbook design — Balcão's same path with the SQL over the base table (tenant view
 *       `vendas_aprovadas` over transacoes, served by the index (merchant_id, status,
 *       aprovada_em)), and
 *   (b) Balcão's actual path — validate the DSL, resolve the period, compile, tenant read-only
 *       transaction on the analytics role, execute (exact rollups), format the answer,
 * timed end to end (outside the model); p50/p95 per query, the ratio (a)/(b) at p95, and whether
 * (a) and (b) returned identical rows and answer text. Plus the review queue's keyset page.
 */
import type pg from 'pg';
import { AppError } from '@shared/errors';
import { validateConsulta, type ConsultaVendas } from '@shared/sales-dsl';
import { addDays } from '@shared/time';
import { createMemorySettings } from '../settings/memory';
import { silentLogger } from '../util/logger';
import { systemClock } from '../clock';
import { runConsulta, type SalesEngineDeps } from '../sales/engine';
import { executeSalesQueryTenantView } from '../sales/execute';
import type { BenchMeta } from './generate';
import { queryMix } from './mix';
import { measureQueue, type QueueResult } from './queue';
import { measureWriteCost, type WriteCost } from './write-cost';

export interface BenchPools {
  admin: pg.Pool;
  app: pg.Pool;
  analytics: pg.Pool;
}

/** One query of the mix for one merchant: the fields, exactly. */
export interface BenchQueryResult {
  name: string;
  merchant: number;
  base_p50_ms: number;
  base_p95_ms: number;
  balcao_p50_ms: number;
  balcao_p95_ms: number;
  ratio_p95: number;
  equal: boolean;
}

export interface BenchMerchant {
  id: number;
  papel: 'maior' | 'mediano' | 'pequeno';
  vendas_aprovadas_12_meses: number;
}

export interface BenchResult {
  linhas: number;
  lojistas: number;
  hoje: string;
  fuso: string;
  repeticoes: number;
  merchants: BenchMerchant[];
  queries: BenchQueryResult[];
  resumo: {
    todas_iguais: boolean;
    balcao_p95_max_ms: number;
    /** Lowest (a)/(b) at p95 over the year-long queries of the biggest merchant. */
    maior_anual_ratio_p95_min: number;
  };
  fila: QueueResult;
  /** What the rollup triggers cost writers (rolled-back writes). */
  escrita: WriteCost;
}

export interface BenchOptions {
  reps: number;
  /** Statement timeout of Balcão's path (the product setting). */
  timeoutMs: number;
  /** Statement timeout of the textbook path (it needs seconds on the biggest merchant). */
  baseTimeoutMs?: number;
  onProgress?: (done: number, total: number, name: string) => void;
}

/** Nearest-rank percentile of sorted samples. */
export function percentile(sorted: readonly number[], p: number): number {
  if (!sorted.length) return 0;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] ?? 0;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Biggest, median and tiny merchants by approved sales in the last 12 months. */
export async function pickMerchants(admin: pg.Pool, hoje: string): Promise<BenchMerchant[]> {
  const r = await admin.query<{ merchant_id: number; n: number }>(
    `SELECT merchant_id, sum(quantidade)::bigint AS n FROM vendas_diarias
      WHERE dia > $1::date AND dia <= $2::date GROUP BY 1 HAVING sum(quantidade) > 0
      ORDER BY 2 DESC, 1`,
    [addDays(hoje, -365), hoje],
  );
  const rows = r.rows;
  const first = rows[0];
  const mid = rows[Math.floor(rows.length / 2)];
  const last = rows[rows.length - 1];
  if (!first || !mid || !last) {
    throw new AppError('nao_encontrado', 'O banco de benchmark não tem vendas aprovadas.');
  }
  return [
    { id: first.merchant_id, papel: 'maior', vendas_aprovadas_12_meses: first.n },
    { id: mid.merchant_id, papel: 'mediano', vendas_aprovadas_12_meses: mid.n },
    { id: last.merchant_id, papel: 'pequeno', vendas_aprovadas_12_meses: last.n },
  ];
}

export async function runBench(
  pools: BenchPools,
  meta: BenchMeta,
  opts: BenchOptions,
): Promise<BenchResult> {
  const settings = createMemorySettings(
    { timeZone: meta.zone, queryTimeoutMs: opts.timeoutMs },
    {},
  );
  const baseSettings = createMemorySettings(
    { timeZone: meta.zone, queryTimeoutMs: opts.baseTimeoutMs ?? 600_000 },
    {},
  );
  const common = { dbs: pools, clock: systemClock, logger: silentLogger };
  const balcao: SalesEngineDeps = { ...common, settings };
  const textbook: SalesEngineDeps = {
    ...common,
    settings: baseSettings,
    executor: executeSalesQueryTenantView,
  };

  /** One timed run: validate + resolve, then the engine (compile, tenant tx, execute, format). */
  const once = async (deps: SalesEngineDeps, merchant: number, dsl: unknown) => {
    const t0 = performance.now();
    const v = validateConsulta(dsl, meta.hoje);
    if (!v.ok || v.value.tipo !== 'consulta') {
      throw new AppError('interno', `consulta do benchmark inválida: ${JSON.stringify(dsl)}`);
    }
    const consulta: ConsultaVendas = v.value.consulta;
    const r = await runConsulta(deps, merchant, consulta);
    const ms = performance.now() - t0;
    if (r.resultado.tipo !== 'resposta') throw new AppError('interno', 'resposta inesperada');
    return { ms, linhas: r.linhas, resposta: r.resultado.resposta };
  };

  const merchants = await pickMerchants(pools.admin, meta.hoje);
  const mix = queryMix(meta.hoje);
  const total = merchants.length * mix.length;
  const queries: BenchQueryResult[] = [];
  let done = 0;
  for (const m of merchants) {
    for (const q of mix) {
      // Warm-up of both paths, also the equality check.
      const a0 = await once(textbook, m.id, q.dsl);
      const b0 = await once(balcao, m.id, q.dsl);
      const equal =
        JSON.stringify(a0.linhas) === JSON.stringify(b0.linhas) && a0.resposta === b0.resposta;
      const as: number[] = [];
      const bs: number[] = [];
      for (let i = 0; i < opts.reps; i++) {
        // Interleaved, so both paths see the same machine conditions.
        as.push((await once(textbook, m.id, q.dsl)).ms);
        bs.push((await once(balcao, m.id, q.dsl)).ms);
      }
      as.sort((x, y) => x - y);
      bs.sort((x, y) => x - y);
      const base95 = percentile(as, 95);
      const balcao95 = percentile(bs, 95);
      queries.push({
        name: `${m.papel}·${q.name}`,
        merchant: m.id,
        base_p50_ms: round2(percentile(as, 50)),
        base_p95_ms: round2(base95),
        balcao_p50_ms: round2(percentile(bs, 50)),
        balcao_p95_ms: round2(balcao95),
        ratio_p95: round2(base95 / Math.max(balcao95, 0.001)),
        equal,
      });
      opts.onProgress?.(++done, total, `${m.papel}·${q.name}`);
    }
  }
  const fila = await measureQueue(pools.app, opts.reps);
  const escrita = await measureWriteCost(pools.admin, {
    rows: meta.rows,
    merchants: meta.merchants,
  });
  const biggest = merchants[0]?.id;
  const anuais = new Set(mix.filter((q) => q.anual).map((q) => q.name));
  const yearBiggest = queries.filter(
    (r) => r.merchant === biggest && anuais.has(r.name.split('·').slice(1).join('·')),
  );
  return {
    linhas: meta.rows,
    lojistas: meta.merchants,
    hoje: meta.hoje,
    fuso: meta.zone,
    repeticoes: opts.reps,
    merchants,
    queries,
    resumo: {
      todas_iguais: queries.every((r) => r.equal),
      balcao_p95_max_ms: Math.max(...queries.map((r) => r.balcao_p95_ms)),
      maior_anual_ratio_p95_min: Math.min(...yearBiggest.map((r) => r.ratio_p95)),
    },
    fila,
    escrita,
  };
}
