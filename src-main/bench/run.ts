/**
 * The benchmark run: for each merchant (biggest, median, tiny) and each query of the mix, warm
 * up once, then N repetitions of
 *   (a) the textbook design — Balcão's same path with the SQL over the base table (tenant view
 *       `vendas_aprovadas` over transacoes, served by the index (merchant_id, status,
 *       aprovada_em)), and
 *   (b) Balcão's actual path — validate the DSL, resolve the period, compile, tenant read-only
 *       transaction on the analytics role, execute (exact rollups, or the tenant view where the
 *       path chooser finds it reads less: #40.8), format the answer,
 * timed end to end (outside the model), each unit started once the analytics pool is quiet (no
 * connection still in the reset that follows an answer: see `quiesce`); p50/p95 per query, the
 * ratio (a)/(b) at p95, and whether (a) and (b) returned identical rows and answer text. Plus the
 * review queue's keyset page.
 */
import { contagem } from '@shared/plural';
import type pg from 'pg';
import { AppError } from '@shared/errors';
import { validateConsulta, type ConsultaVendas } from '@shared/sales-dsl';
import { addDays } from '@shared/time';
import { createMemorySettings } from '../settings/memory';
import { silentLogger } from '../util/logger';
import { systemClock } from '../clock';
import { runConsulta, type SalesDeps, type SalesPath } from '../sales';
import { withTenantReadOnly } from '../db/tenant';
import { compileSalesQuery } from '../sales/compile';
import { executeSalesQueryTenantView } from '../sales/execute';
import { rollupsServeZone } from '../sales/rollup-sql';
import type { BenchMeta } from './generate';
import { queryMix } from './mix';
import { measureQueue, type QueueResult } from './queue';
import { measureWriteCost, type WriteCost } from './write-cost';
import { consolidarTudo } from '../sales/consolidate';
import { readsUnderWrites, type ReadsUnderWrites } from './reads-under-writes';
import { percentile, quiesce, type BenchMerchant, type BenchPools } from './types';

export { percentile, type BenchMerchant, type BenchPools } from './types';
import { removerEscritas, runWriters, type WriterLoad } from './writers';

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
  /** The path Balcão's answers took (#40.8): the rollups or the base table (tenant view). */
  caminho: SalesPath;
  /** (a)/(b) at p50. */
  ratio_p50: number;
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
    /** Queries whose (a)/(b) at p95 is below 1.0 (Balcão slower than the textbook). */
    abaixo_de_1x_p95: number;
    /**
     * Of those, by path. On the base table Balcão's statements are the textbook's own (same SQL,
     * same plan): a ratio below 1.0 there is the machine's noise, which `controle_aa` measures.
     */
    abaixo_de_1x_p95_por_caminho: Record<SalesPath, number>;
    /**
     * The A/A control: for every query answered on the base table, the textbook timed against
     * itself in the same rotation (a third series). How many of those identical pairs read below
     * 1.0 at p95, and the lowest such ratio: the noise any tie shows on this machine.
     */
    controle_aa: { consultas: number; abaixo_de_1x_p95: number; ratio_p95_min: number | null };
    /** How many queries took each path. */
    caminhos: Record<SalesPath, number>;
    /** Lowest (a)/(b) at p95 over the year-long queries of the biggest merchant. */
    maior_anual_ratio_p95_min: number;
    /**
     * What bounds that ratio on this machine: an empty tenant transaction (the opening and
     * `SELECT 1`: one round trip, no rollup read) timed like (b), each right after the textbook
     * query of the biggest merchant's year-long query whose textbook p95 is lowest. `razao_teto_p95`
     * = that textbook p95 / the empty transaction's p95: the ratio an answer costing nothing
     * would show. Absent when no year-long query of the biggest merchant ran.
     */
    piso?: {
      consulta: string;
      livro_texto_p95_ms: number;
      transacao_vazia_p50_ms: number;
      transacao_vazia_p95_ms: number;
      razao_teto_p95: number;
    };
  };
  fila: QueueResult;
  /**
   * What Balcão's maintenance costs the payments writers: single rolled-back writes with the
   * triggers off/on, and (unless skipped) issue #15's two workloads with the fold off/on plus the
   * reads while they run and right after (`cargas`, `leituras`).
   */
  escrita: WriteCost & { cargas?: WriterLoad[]; leituras?: ReadsUnderWrites };
  /**
   * Server-side execution of (b)'s SQL per query (EXPLAIN ANALYZE, best of 3, same tenant
   * transaction): the database's share of the path, apart from round trips and machine load.
   */
  servidor: { name: string; balcao_execucao_ms: number }[];
}

export interface BenchOptions {
  reps: number;
  /** Statement timeout of Balcão's path (the product setting). */
  timeoutMs: number;
  /** Statement timeout of the textbook path (it needs seconds on the biggest merchant). */
  baseTimeoutMs?: number;
  /** Seconds per writer run (0: no writer workloads); needs `adminUrl`. */
  escritaS?: number;
  /** Rounds of each writer workload (ABBA, see writers.ts); default 4. */
  escritaRodadas?: number;
  /** Owner URL of the benchmark database (writer connections). */
  adminUrl?: string;
  onProgress?: (done: number, total: number, name: string) => void;
  /** Each phase as it starts (pt-BR), so a long run is never silent (#41.9). */
  onPhase?: (text: string) => void;
}

/** `--so-balcao`: Balcão's path alone (no textbook query between its repetitions). */
export interface BalcaoOnlyResult {
  linhas: number;
  hoje: string;
  repeticoes: number;
  queries: { name: string; merchant: number; balcao_p50_ms: number; balcao_p95_ms: number }[];
  balcao_p95_max_ms: number;
}

/** The sales services of a bench run: its pools, the system clock, no log. */
const benchDeps = (pools: BenchPools) => ({ dbs: pools, clock: systemClock, logger: silentLogger });

/** The settings of a bench run: the data's zone and the statement timeout of that path. */
const benchSettings = (meta: BenchMeta, queryTimeoutMs: number) =>
  createMemorySettings({ timeZone: meta.zone, queryTimeoutMs }, {});

/**
 * Balcão's path alone for every query of the mix and the three merchants: the same timed unit as
 * runBench's (b), without the multi-second textbook queries (parallel workers, 2M-row scans)
 * running between its repetitions.
 */
export async function runBalcaoOnly(
  pools: BenchPools,
  meta: BenchMeta,
  opts: BenchOptions,
): Promise<BalcaoOnlyResult> {
  const deps: SalesDeps = { ...benchDeps(pools), settings: benchSettings(meta, opts.timeoutMs) };
  await consolidarTudo(pools.app); // the steady state: nothing left unfolded
  const merchants = await pickMerchants(pools.admin, meta.hoje);
  const queries: BalcaoOnlyResult['queries'] = [];
  for (const m of merchants) {
    for (const q of queryMix(meta.hoje)) {
      const xs: number[] = [];
      for (let i = 0; i <= opts.reps; i++) {
        await quiesce(pools.analytics); // the previous repetition's reset, outside the timing
        const t0 = performance.now();
        const v = validateConsulta(q.dsl, meta.hoje);
        if (!v.ok || v.value.tipo !== 'consulta')
          throw new AppError('interno', 'consulta inválida');
        await runConsulta(deps, m.id, v.value.consulta);
        if (i > 0) xs.push(performance.now() - t0); // i = 0 warms up
      }
      xs.sort((a, b) => a - b);
      queries.push({
        name: `${m.papel}·${q.name}`,
        merchant: m.id,
        balcao_p50_ms: round2(percentile(xs, 50)),
        balcao_p95_ms: round2(percentile(xs, 95)),
      });
    }
  }
  return {
    linhas: meta.rows,
    hoje: meta.hoje,
    repeticoes: opts.reps,
    queries,
    balcao_p95_max_ms: Math.max(...queries.map((q) => q.balcao_p95_ms)),
  };
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
  const common = benchDeps(pools);
  // The path each of Balcão's answers took (the last timed one is reported per query).
  let caminho: SalesPath = 'rollups';
  const balcao: SalesDeps = {
    ...common,
    settings: benchSettings(meta, opts.timeoutMs),
    onPath: (p) => {
      caminho = p;
    },
  };
  const textbook: SalesDeps = {
    ...common,
    settings: benchSettings(meta, opts.baseTimeoutMs ?? 600_000),
    executor: executeSalesQueryTenantView,
  };

  /** One timed run: validate + resolve, then the answer (compile, tenant tx, execute, format). */
  const once = async (deps: SalesDeps, merchant: number, dsl: unknown) => {
    // The other path's connection reset (sent after its answer) ends before this unit starts.
    await quiesce(pools.analytics);
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

  /** Best-of-3 server-side execution of (b)'s SQL: EXPLAIN ANALYZE without per-node timing. */
  const serverMs = async (merchant: number, dsl: unknown, path: SalesPath) => {
    await quiesce(pools.analytics);
    const v = validateConsulta(dsl, meta.hoje);
    if (!v.ok || v.value.tipo !== 'consulta') return Number.NaN;
    // The SQL of the path the product executor took (executeSalesQuery).
    const sql = compileSalesQuery(v.value.consulta, {
      merchantId: merchant,
      timeZone: meta.zone,
      source: path === 'rollups' && rollupsServeZone(meta.zone) ? 'rollups' : 'view',
    });
    return withTenantReadOnly(
      pools.analytics,
      { merchantId: merchant, timeoutMs: opts.timeoutMs },
      async (c) => {
        let best = Number.POSITIVE_INFINITY;
        for (let i = 0; i < 3; i++) {
          const r = await c.query<{ 'QUERY PLAN': { 'Execution Time': number }[] }>({
            text: `EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) ${sql.text}`,
            values: sql.values,
          });
          const t = r.rows[0]?.['QUERY PLAN'][0]?.['Execution Time'];
          if (t !== undefined) best = Math.min(best, t);
        }
        return best;
      },
    );
  };

  const phase = opts.onPhase ?? (() => undefined);
  phase('consolidando os rollups');
  await consolidarTudo(pools.app); // the steady state: nothing left unfolded
  phase('escolhendo os lojistas');
  const merchants = await pickMerchants(pools.admin, meta.hoje);
  const mix = queryMix(meta.hoje);
  const total = merchants.length * mix.length;
  phase(
    `consultas: ${total} × ${contagem(opts.reps, 'repetição', 'repetições')}, nos dois caminhos`,
  );
  const queries: BenchQueryResult[] = [];
  const controle: { name: string; ratio_p95: number }[] = [];
  const servidor: { name: string; balcao_execucao_ms: number }[] = [];
  let done = 0;
  for (const m of merchants) {
    for (const q of mix) {
      // Warm-up of both paths, also the equality check.
      const a0 = await once(textbook, m.id, q.dsl);
      const b0 = await once(balcao, m.id, q.dsl);
      const equal =
        JSON.stringify(a0.linhas) === JSON.stringify(b0.linhas) && a0.resposta === b0.resposta;
      const tomado: SalesPath = caminho as SalesPath; // set by onPath in the warm-up above
      // On the base table Balcão sends the textbook's own statements: its ratio there can only be
      // noise, so those queries also time the textbook against itself (the A/A control).
      const control = tomado === 'base';
      const as: number[] = [];
      const bs: number[] = [];
      const cs: number[] = [];
      for (let i = 0; i < opts.reps; i++) {
        // Interleaved, so the paths see the same machine conditions, and in a rotating order: the
        // unit that runs second in a pair pays a few percent (an A/A run shows it), and a fixed
        // order would charge it to the same path every time.
        const units: [number[], SalesDeps][] = [
          [as, textbook],
          [bs, balcao],
          ...(control ? ([[cs, textbook]] as [number[], SalesDeps][]) : []),
        ];
        const k = i % units.length;
        const order = [...units.slice(k), ...units.slice(0, k)];
        for (const [xs, deps] of i % 2 ? order.reverse() : order) {
          xs.push((await once(deps, m.id, q.dsl)).ms);
        }
      }
      as.sort((x, y) => x - y);
      bs.sort((x, y) => x - y);
      cs.sort((x, y) => x - y);
      const base95 = percentile(as, 95);
      const balcao95 = percentile(bs, 95);
      if (control) {
        controle.push({
          name: `${m.papel}·${q.name}`,
          ratio_p95: round2(base95 / Math.max(percentile(cs, 95), 0.001)),
        });
      }
      servidor.push({
        name: `${m.papel}·${q.name}`,
        balcao_execucao_ms: round2(await serverMs(m.id, q.dsl, tomado)),
      });
      queries.push({
        name: `${m.papel}·${q.name}`,
        merchant: m.id,
        base_p50_ms: round2(percentile(as, 50)),
        base_p95_ms: round2(base95),
        balcao_p50_ms: round2(percentile(bs, 50)),
        balcao_p95_ms: round2(balcao95),
        ratio_p95: round2(base95 / Math.max(balcao95, 0.001)),
        equal,
        caminho: tomado,
        ratio_p50: round2(percentile(as, 50) / Math.max(percentile(bs, 50), 0.001)),
      });
      opts.onProgress?.(++done, total, `${m.papel}·${q.name}`);
    }
  }
  const biggest = merchants[0]?.id;
  const anuais = new Set(mix.filter((q) => q.anual).map((q) => q.name));
  const yearBiggest = queries.filter(
    (r) => r.merchant === biggest && anuais.has(r.name.split('·').slice(1).join('·')),
  );
  // The year-long query whose textbook p95 is lowest binds the ratio; measure the floor under it.
  const binding = [...yearBiggest].sort((x, y) => x.base_p95_ms - y.base_p95_ms)[0];
  const bindingDsl = mix.find((q) => `maior·${q.name}` === binding?.name)?.dsl;
  let piso: BenchResult['resumo']['piso'];
  if (binding && bindingDsl !== undefined) {
    phase('medindo o piso (transação vazia)');
    const as: number[] = [];
    const es: number[] = [];
    for (let i = 0; i <= opts.reps; i++) {
      const a = await once(textbook, binding.merchant, bindingDsl);
      await quiesce(pools.analytics);
      const t0 = performance.now();
      await withTenantReadOnly(
        pools.analytics,
        { merchantId: binding.merchant, timeoutMs: opts.timeoutMs },
        (c) => c.query('SELECT 1'),
      );
      if (i > 0) {
        // i = 0 warms up
        as.push(a.ms);
        es.push(performance.now() - t0);
      }
    }
    as.sort((x, y) => x - y);
    es.sort((x, y) => x - y);
    const base95 = percentile(as, 95);
    const vazia95 = percentile(es, 95);
    piso = {
      consulta: binding.name,
      livro_texto_p95_ms: round2(base95),
      transacao_vazia_p50_ms: round2(percentile(es, 50)),
      transacao_vazia_p95_ms: round2(vazia95),
      razao_teto_p95: round2(base95 / Math.max(vazia95, 0.001)),
    };
  }
  phase('fila de revisão: contagens e páginas');
  const fila = await measureQueue(pools.app, opts.reps, meta.zone);
  phase('custo de escrita dos rollups');
  const escrita = await measureWriteCost(pools.admin, {
    rows: meta.rows,
    merchants: meta.merchants,
  });
  let cargas: WriterLoad[] | undefined;
  let leituras: ReadsUnderWrites | undefined;
  if (opts.escritaS && opts.adminUrl) {
    const before = await pools.admin.query<{ m: number | null }>(
      'SELECT max(id) AS m FROM transacoes',
    );
    phase(
      `escritores concorrentes: ${contagem(opts.escritaRodadas ?? 4, 'rodada', 'rodadas')} de ${opts.escritaS} s por carga`,
    );
    cargas = await runWriters({
      adminUrl: opts.adminUrl,
      foldPool: pools.app,
      lojista: merchants[0]?.id ?? 1,
      lojistas: Array.from({ length: Math.min(50, meta.merchants) }, (_, i) => i + 1),
      segundos: opts.escritaS,
      rodadas: opts.escritaRodadas,
      agora: meta.agora,
    });
    phase('removendo as escritas de teste');
    await removerEscritas(pools, before.rows[0]?.m ?? 0);
    phase('leituras durante e depois das escritas');
    leituras = await readsUnderWrites(pools, opts.adminUrl, meta, merchants, {
      reps: opts.reps,
      timeoutMs: opts.timeoutMs,
    });
  }
  return {
    linhas: meta.rows,
    lojistas: meta.merchants,
    hoje: meta.hoje,
    fuso: meta.zone,
    repeticoes: opts.reps,
    merchants,
    queries,
    resumo: {
      // Including the reads while the writers ran and right after them.
      todas_iguais:
        queries.every((r) => r.equal) &&
        fila.contagens_iguais &&
        (leituras ? leituras.iguais_durante && leituras.iguais_depois : true),
      balcao_p95_max_ms: Math.max(...queries.map((r) => r.balcao_p95_ms)),
      abaixo_de_1x_p95: queries.filter((r) => r.ratio_p95 < 1).length,
      abaixo_de_1x_p95_por_caminho: {
        rollups: queries.filter((r) => r.caminho === 'rollups' && r.ratio_p95 < 1).length,
        base: queries.filter((r) => r.caminho === 'base' && r.ratio_p95 < 1).length,
      },
      controle_aa: {
        consultas: controle.length,
        abaixo_de_1x_p95: controle.filter((r) => r.ratio_p95 < 1).length,
        ratio_p95_min: controle.length ? Math.min(...controle.map((r) => r.ratio_p95)) : null,
      },
      caminhos: {
        rollups: queries.filter((r) => r.caminho === 'rollups').length,
        base: queries.filter((r) => r.caminho === 'base').length,
      },
      maior_anual_ratio_p95_min: Math.min(...yearBiggest.map((r) => r.ratio_p95)),
      ...(piso ? { piso } : {}),
    },
    fila,
    escrita: { ...escrita, ...(cargas ? { cargas } : {}), ...(leituras ? { leituras } : {}) },
    servidor,
  };
}
