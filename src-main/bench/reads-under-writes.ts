/**
 * Reads while the payments writers run, and right after them:
 * - `durante`: the 50-merchant autocommit workload writes sales approved in the data's last hour
 *   (so the answers change under the reader) while the background fold runs; every query of the
 *   mix for the three merchants is timed through Balcão's path (`runConsulta`), and checked for
 *   exactness in one exported snapshot: Balcão's SQL (analytics role, tenant views + unfolded
 *   rows) against the textbook SQL on transacoes (owner), same rows.
 * - `depois`: once the writers stop (fold not caught up yet), Balcão's path vs the textbook path,
 *   each in its own transaction: identical rows and answer text.
 * The rows written are removed afterwards (a DELETE, logged and folded like any other).
 */
import { AppError } from '@shared/errors';
import { validateConsulta, type ConsultaVendas } from '@shared/sales-dsl';
import { createMemorySettings } from '../settings/memory';
import { silentLogger } from '../util/logger';
import { systemClock } from '../clock';
import { runConsulta, type SalesDeps } from '../sales';
import { compileSalesQuery } from '../sales/compile';
import { executeSalesQueryTenantView } from '../sales/execute';
import { startVendasConsolidador } from '../sales/consolidate';
import type { BenchMeta } from './generate';
import { queryMix } from './mix';
import { quiesce, type BenchMerchant, type BenchPools } from './types';
import { removerEscritas, startWriters } from './writers';

export interface ReadsUnderWrites {
  carga: 'autocommit_50_lojistas';
  escritas_durante: number;
  consultas: number;
  /** Same snapshot, Balcão's SQL vs the base table, every query of the mix. */
  iguais_durante: boolean;
  /** Balcão's path timed end to end while the writers ran. */
  balcao_p50_max_ms: number;
  balcao_p95_max_ms: number;
  /** Right after the writers stopped: Balcão's path vs the textbook path. */
  iguais_depois: boolean;
  diferentes: string[];
}

const r2 = (n: number) => Math.round(n * 100) / 100;

function pct(sorted: number[], p: number): number {
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0
  );
}

function consulta(dsl: unknown, hoje: string): ConsultaVendas {
  const v = validateConsulta(dsl, hoje);
  if (!v.ok || v.value.tipo !== 'consulta') throw new AppError('interno', 'consulta inválida');
  return v.value.consulta;
}

/** Balcão's SQL and the textbook SQL in one snapshot (exported by the owner's transaction). */
async function equalInSnapshot(
  pools: BenchPools,
  merchant: number,
  q: ConsultaVendas,
  zone: string,
): Promise<boolean> {
  const owner = await pools.admin.connect();
  const reader = await pools.analytics.connect();
  try {
    await owner.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const snap = await owner.query<{ s: string }>('SELECT pg_export_snapshot() AS s');
    await reader.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await reader.query(`SET TRANSACTION SNAPSHOT ${reader.escapeLiteral(snap.rows[0]?.s ?? '')}`);
    await reader.query('SELECT balcao_definir_lojista($1)', [merchant]);
    const b = compileSalesQuery(q, { merchantId: merchant, timeZone: zone, source: 'rollups' });
    const a = compileSalesQuery(q, { merchantId: merchant, timeZone: zone, source: 'base' });
    const rb = await reader.query({ text: b.text, values: b.values });
    const ra = await owner.query({ text: a.text, values: a.values });
    return JSON.stringify(rb.rows) === JSON.stringify(ra.rows);
  } finally {
    await reader.query('ROLLBACK').catch(() => undefined);
    await owner.query('ROLLBACK').catch(() => undefined);
    reader.release();
    owner.release();
  }
}

export async function readsUnderWrites(
  pools: BenchPools,
  adminUrl: string,
  meta: BenchMeta,
  merchants: BenchMerchant[],
  opts: { reps: number; timeoutMs: number },
): Promise<ReadsUnderWrites> {
  const settings = createMemorySettings(
    { timeZone: meta.zone, queryTimeoutMs: opts.timeoutMs },
    {},
  );
  const common = { dbs: pools, clock: systemClock, logger: silentLogger };
  const balcao: SalesDeps = { ...common, settings };
  const textbook: SalesDeps = {
    ...common,
    settings: createMemorySettings({ timeZone: meta.zone, queryTimeoutMs: 600_000 }, {}),
    executor: executeSalesQueryTenantView,
  };
  const mix = queryMix(meta.hoje);
  const before = await pools.admin.query<{ m: number | null }>(
    'SELECT max(id) AS m FROM transacoes',
  );
  const maxBefore = before.rows[0]?.m ?? 0;
  const biggest = merchants[0]?.id ?? 1;
  const fifty = [
    biggest,
    ...Array.from({ length: 60 }, (_, i) => i + 1).filter((x) => x !== biggest),
  ]
    .filter((x) => x <= meta.merchants)
    .slice(0, 50);

  const fold = startVendasConsolidador(pools.app, { intervalMs: 1_000 });
  const writers = await startWriters(adminUrl, 'autocommit_50_lojistas', fifty, 8, meta.agora);
  const diferentes: string[] = [];
  let p50max = 0;
  let p95max = 0;
  let escritas: number;
  try {
    for (const m of merchants) {
      for (const item of mix) {
        const q = consulta(item.dsl, meta.hoje);
        const xs: number[] = [];
        for (let i = 0; i <= opts.reps; i++) {
          await quiesce(pools.analytics); // the previous repetition's reset, outside the timing
          const t0 = performance.now();
          await runConsulta(balcao, m.id, consulta(item.dsl, meta.hoje));
          if (i > 0) xs.push(performance.now() - t0);
        }
        xs.sort((a, b) => a - b);
        p50max = Math.max(p50max, pct(xs, 50));
        p95max = Math.max(p95max, pct(xs, 95));
        if (!(await equalInSnapshot(pools, m.id, q, meta.zone))) {
          diferentes.push(`durante·${m.papel}·${item.name}`);
        }
      }
    }
  } finally {
    escritas = (await writers.stop()).escritas;
  }
  let depoisOk = true;
  try {
    for (const m of merchants) {
      for (const item of mix) {
        const a = await runConsulta(textbook, m.id, consulta(item.dsl, meta.hoje));
        const b = await runConsulta(balcao, m.id, consulta(item.dsl, meta.hoje));
        const text = (r: typeof a) =>
          r.resultado.tipo === 'resposta' ? r.resultado.resposta : r.resultado.tipo;
        if (JSON.stringify(a.linhas) !== JSON.stringify(b.linhas) || text(a) !== text(b)) {
          depoisOk = false;
          diferentes.push(`depois·${m.papel}·${item.name}`);
        }
      }
    }
  } finally {
    await fold.stop();
    await removerEscritas(pools, maxBefore);
  }
  return {
    carga: 'autocommit_50_lojistas',
    escritas_durante: escritas,
    consultas: merchants.length * mix.length,
    iguais_durante: !diferentes.some((d) => d.startsWith('durante')),
    balcao_p50_max_ms: r2(p50max),
    balcao_p95_max_ms: r2(p95max),
    iguais_depois: depoisOk,
    diferentes,
  };
}
