/**
 * What Balcão's maintenance of the sales rollups costs the payments writers of transacoes
 * (issue #15's two workloads), with the maintenance on (the background fold running at the app's
 * interval) and off (no fold), interleaved:
 * - `autocommit_50_lojistas`: N connections, single-row autocommit INSERTs over 50 merchants;
 * - `transacao_20ms_1_lojista`: N connections, one merchant, each INSERT in a transaction that
 *   stays open 20 ms (as a card authorization does).
 * Each run starts with nothing left unfolded (folded before the clock starts), so a run with the
 * maintenance on pays for folding exactly its own writes, and right after a CHECKPOINT; after one
 * untimed warm-up run, the runs go off, on, on, off, … (drift cancels). Throughput, mean/p95
 * latency, how often a writer was seen waiting on a lock (pg_stat_activity sampled every 10 ms),
 * and the fold's own time. The rows written stay until the caller removes them (`removerEscritas`).
 */
import pg from 'pg';
import { consolidarTudo, startVendasConsolidador } from '../sales/consolidate';
import type { BenchPools } from './types';

export interface WriterRun {
  escritas: number;
  tps: number;
  media_ms: number;
  p95_ms: number;
  /** Samples (every 10 ms) in which some writer waited on a lock. */
  amostras_com_espera_lock: number;
  /**
   * Those samples by the lock waited on (pg_stat_activity.wait_event): `transactionid`/`tuple`
   * are writers waiting on each other's rows; `extend` is the table growing under fast inserts.
   */
  esperas_por_evento: Record<string, number>;
  amostras: number;
  /** Sales above the fold's watermark when the clock started (0: the steady state). */
  pendentes_no_inicio: number;
  /**
   * Time the background fold spent during the run (ticks that ended between the writers' start
   * and the fold's stop, sales and queue folds together), ms; 0 with the maintenance off. Its share of the run's wall time
   * is what the maintenance can take from the writers at most on one core.
   */
  manutencao_ms: number;
  manutencao_dobras: number;
  /** manutencao_ms as a percentage of the run's wall time (mean over the rounds). */
  manutencao_pct: number;
}

export interface WriterLoad {
  nome: 'autocommit_50_lojistas' | 'transacao_20ms_1_lojista';
  sem_manutencao: WriterRun;
  com_manutencao: WriterRun;
  /** tps with maintenance / tps without (means over the rounds). */
  razao: number;
  /** The same ratio per round (adjacent off/on runs): the spread is the machine's noise. */
  razoes_por_rodada: number[];
}

export interface WritersOptions {
  adminUrl: string;
  /** Pool the fold runs on (the app role, as in the app). */
  foldPool: pg.Pool;
  /** Merchant of the one-merchant workload (the biggest). */
  lojista: number;
  /** Merchants of the 50-merchant workload. */
  lojistas: number[];
  segundos: number;
  /** The benchmark data's "now": sales are written in the hour before it. */
  agora: string;
  conexoes?: number;
  /** Interleaved off/on rounds per workload (the mean is reported). */
  rodadas?: number;
  intervaloMs?: number;
}

export const WRITER_APP = 'balcao-bench-escrita';

const INSERT = {
  name: 'balcao_bench_escrita',
  text: `INSERT INTO transacoes (merchant_id, status, modalidade, bandeira, valor_bruto_centavos,
           valor_liquido_centavos, aprovada_em)
         VALUES ($1, $2, $3, $4, $5, $6, $7::timestamptz - ($8::int % 3600) * interval '1 second')`,
};
const MODS = ['debito', 'credito_avista', 'credito_parcelado', 'pix'] as const;
const BANDS = ['visa', 'mastercard', 'elo'] as const;

function insertValues(merchant: number, i: number, agora: string): unknown[] {
  const mod = MODS[i % MODS.length] ?? 'debito';
  const bruto = 500 + ((i * 7919) % 40_000);
  return [
    merchant,
    i % 13 === 0 ? 'negada' : 'aprovada',
    mod,
    mod === 'pix' ? null : (BANDS[i % BANDS.length] ?? 'visa'),
    bruto,
    bruto - Math.floor(bruto / 40),
    agora,
    i,
  ];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const r2 = (n: number) => Math.round(n * 100) / 100;

/** Writers running until `stop()`; used alone (`runWriters`) and under the read benchmark. */
export async function startWriters(
  adminUrl: string,
  kind: WriterLoad['nome'],
  merchants: number[],
  conexoes: number,
  /** Sales are approved in the hour before this instant (the benchmark data's "now"). */
  agora: string,
): Promise<{ stop(): Promise<{ escritas: number; lat: number[] }> }> {
  const clients = await Promise.all(
    Array.from({ length: conexoes }, async () => {
      const c = new pg.Client({ connectionString: adminUrl, application_name: WRITER_APP });
      c.on('error', () => undefined);
      await c.connect();
      return c;
    }),
  );
  let running = true;
  const lat: number[] = [];
  let seq = 0;
  let failure: unknown;
  const loops = clients.map(async (c, k) => {
    try {
      while (running) {
        const i = seq++;
        const m = merchants[(i + k) % merchants.length] ?? 1;
        const t0 = performance.now();
        if (kind === 'autocommit_50_lojistas') {
          await c.query({ ...INSERT, values: insertValues(m, i, agora) });
        } else {
          await c.query('BEGIN');
          await c.query({ ...INSERT, values: insertValues(m, i, agora) });
          await sleep(20);
          await c.query('COMMIT');
        }
        lat.push(performance.now() - t0);
      }
    } catch (e) {
      // One writer failing stops them all; stop() reports it.
      failure ??= e;
      running = false;
    }
  });
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
      await Promise.allSettled(clients.map((c) => c.end()));
      if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
      return { escritas: lat.length, lat };
    },
  };
}

async function runOnce(
  o: WritersOptions,
  kind: WriterLoad['nome'],
  manutencao: boolean,
): Promise<WriterRun> {
  const merchants = kind === 'autocommit_50_lojistas' ? o.lojistas : [o.lojista];
  // Every run starts from the steady state (nothing left unfolded, untimed): a run with the
  // maintenance on pays for folding its own writes, not for the backlog a run without it left.
  await consolidarTudo(o.foldPool);
  const monitor = new pg.Client({ connectionString: o.adminUrl });
  await monitor.connect();
  // …and right after a checkpoint, so no run pays for another's dirty pages or full-page writes.
  await monitor.query('CHECKPOINT').catch(() => undefined);
  let foldMs = 0;
  let folds = 0;
  let counting = false;
  const fold = manutencao
    ? startVendasConsolidador(o.foldPool, {
        intervalMs: o.intervaloMs ?? 1_000,
        onTick: ({ ms }) => {
          if (!counting) return;
          foldMs += ms;
          folds++;
        },
      })
    : undefined;
  let amostras = 0;
  let espera = 0;
  const porEvento: Record<string, number> = {};
  try {
    const pend = await monitor.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM transacoes
        WHERE id > (SELECT marca FROM vendas_consolidacao)`,
    );
    const w = await startWriters(o.adminUrl, kind, merchants, o.conexoes ?? 8, o.agora);
    counting = true;
    const t0 = performance.now();
    const end = t0 + o.segundos * 1000;
    while (performance.now() < end) {
      const r = await monitor.query<{ evento: string }>(
        `SELECT DISTINCT coalesce(wait_event, '?') AS evento FROM pg_stat_activity
          WHERE application_name = $1 AND wait_event_type = 'Lock'`,
        [WRITER_APP],
      );
      amostras++;
      if (r.rows.length > 0) espera++;
      for (const { evento } of r.rows) porEvento[evento] = (porEvento[evento] ?? 0) + 1;
      await sleep(10);
    }
    const { escritas, lat } = await w.stop();
    const s = (performance.now() - t0) / 1000;
    await fold?.stop(); // a tick that started while the writers ran counts whole
    counting = false;
    lat.sort((a, b) => a - b);
    const p95 = lat[Math.min(lat.length - 1, Math.ceil(0.95 * lat.length) - 1)] ?? 0;
    return {
      escritas,
      tps: r2(escritas / s),
      media_ms: r2(lat.reduce((a, b) => a + b, 0) / Math.max(1, lat.length)),
      p95_ms: r2(p95),
      amostras_com_espera_lock: espera,
      esperas_por_evento: porEvento,
      amostras,
      pendentes_no_inicio: pend.rows[0]?.n ?? 0,
      manutencao_ms: r2(foldMs),
      manutencao_dobras: folds,
      manutencao_pct: r2((foldMs / (s * 1000)) * 100),
    };
  } finally {
    await fold?.stop();
    await monitor.end();
  }
}

function mean(runs: WriterRun[]): WriterRun {
  const n = Math.max(1, runs.length);
  const sum = (f: (r: WriterRun) => number) => runs.reduce((a, r) => a + f(r), 0);
  return {
    escritas: sum((r) => r.escritas),
    tps: r2(sum((r) => r.tps) / n),
    media_ms: r2(sum((r) => r.media_ms) / n),
    p95_ms: r2(Math.max(...runs.map((r) => r.p95_ms))),
    amostras_com_espera_lock: sum((r) => r.amostras_com_espera_lock),
    esperas_por_evento: runs.reduce<Record<string, number>>((acc, r) => {
      for (const [k, v] of Object.entries(r.esperas_por_evento)) acc[k] = (acc[k] ?? 0) + v;
      return acc;
    }, {}),
    amostras: sum((r) => r.amostras),
    pendentes_no_inicio: sum((r) => r.pendentes_no_inicio),
    manutencao_ms: r2(sum((r) => r.manutencao_ms)),
    manutencao_dobras: sum((r) => r.manutencao_dobras),
    manutencao_pct: r2(sum((r) => r.manutencao_pct) / n),
  };
}

/** Both workloads, maintenance off and on, interleaved (ABBA). */
export async function runWriters(o: WritersOptions): Promise<WriterLoad[]> {
  const out: WriterLoad[] = [];
  for (const nome of ['autocommit_50_lojistas', 'transacao_20ms_1_lojista'] as const) {
    const off: WriterRun[] = [];
    const on: WriterRun[] = [];
    // One untimed warm-up run with the maintenance on: the rollup pages the fold updates are
    // cold after the read benchmark's base-table scans, and reading them from disk under the
    // writers' WAL flushes is a first-minutes cost, not the steady state's.
    await runOnce(o, nome, true);
    // ABBA order (off, on, on, off, …): a machine drifting over the runs (cache, WAL, a neighbour)
    // weighs on both sides alike instead of on whichever runs second.
    for (let i = 0; i < (o.rodadas ?? 4); i++) {
      for (const manutencao of i % 2 === 0 ? [false, true] : [true, false]) {
        (manutencao ? on : off).push(await runOnce(o, nome, manutencao));
      }
    }
    const a = mean(off);
    const b = mean(on);
    out.push({
      nome,
      sem_manutencao: a,
      com_manutencao: b,
      razao: r2(b.tps / Math.max(a.tps, 0.001)),
      razoes_por_rodada: on.map((x, i) => r2(x.tps / Math.max(off[i]?.tps ?? 0, 0.001))),
    });
  }
  return out;
}

/**
 * Back to the generated data: deletes the sales with id > `acimaDe` (a logged DELETE, folded like
 * any other change), folds, and vacuums the log the fold just emptied — its dead pages go now, not
 * at the server's next autovacuum (off on some benchmark machines), so no later step scans them.
 */
export async function removerEscritas(pools: BenchPools, acimaDe: number): Promise<void> {
  await pools.admin.query('DELETE FROM transacoes WHERE id > $1', [acimaDe]);
  await consolidarTudo(pools.app);
  await pools.admin.query('VACUUM vendas_ajustes');
}
