import type pg from 'pg';
import { DateTime } from 'luxon';
import { AppError } from '@shared/errors';
import { localDate } from '@shared/time';
import { merchantName } from '../db/seed';

/** Full benchmark size: issue 8. */
import { BENCH_FULL_ROWS } from './constants';
export { BENCH_FULL_ROWS };
export const BENCH_FULL_MERCHANTS = 5_000;
/** Bump when the generated data changes shape: a stored database with another version is rebuilt. */
export const GENERATOR_VERSION = 4;

/** Zipf exponent: at 20M rows over 5,000 merchants the biggest holds ≈ 2M approved sales in the last 12 months. */
export const ZIPF_EXPONENT = 1.09;

export interface BenchParams {
  rows: number;
  merchants: number;
  /** Review-queue rows (extracoes). */
  extracoes: number;
  seed: number;
  zone: string;
}

/** What a generated database holds: stored on the database, compared for reuse. */
export interface BenchMeta extends BenchParams {
  version: number;
  /** Instant the data ends at (the "now" of the generation). */
  agora: string;
  /** Local date of `agora`: the `hoje` every benchmark query is asked with. */
  hoje: string;
}

/** Parameters for `rows` transactions: merchants and queue size scale down with the row count. */
export function benchParams(rows: number, zone: string, seed = 20260301): BenchParams {
  const scale = rows / BENCH_FULL_ROWS;
  return {
    rows,
    merchants: Math.max(
      3,
      Math.min(BENCH_FULL_MERCHANTS, Math.round(BENCH_FULL_MERCHANTS * scale)),
    ),
    extracoes: Math.max(200, Math.min(1_000_000, Math.round(rows / 20))),
    seed,
    zone,
  };
}

export function sameParams(a: BenchParams, b: BenchMeta): boolean {
  return (
    b.version === GENERATOR_VERSION &&
    a.rows === b.rows &&
    a.merchants === b.merchants &&
    a.extracoes === b.extracoes &&
    a.seed === b.seed &&
    a.zone === b.zone
  );
}

/** Cumulative lower bounds (starting at 0) of normalised weights, for SQL width_bucket. */
export function cumulative(weights: readonly number[]): number[] {
  const total = weights.reduce((s, w) => s + w, 0);
  const out: number[] = [];
  let acc = 0;
  for (const w of weights) {
    out.push(acc / total);
    acc += w;
  }
  return out;
}

/** Integer counts proportional to weights summing exactly to n (largest remainder). */
export function apportion(weights: readonly number[], n: number): number[] {
  const total = weights.reduce((s, w) => s + w, 0);
  const exact = weights.map((w) => (w / total) * n);
  const counts = exact.map(Math.floor);
  let left = n - counts.reduce((s, c) => s + c, 0);
  const order = exact.map((e, i) => [e - Math.floor(e), i] as const).sort((x, y) => y[0] - x[0]);
  for (const [, i] of order) {
    if (left <= 0) break;
    counts[i] = (counts[i] ?? 0) + 1;
    left--;
  }
  return counts;
}

/** Monday..Sunday weights. */
const WEEKDAY_WEIGHT = [0.85, 0.9, 0.95, 1.0, 1.25, 1.4, 0.65];
/** Local hour-of-day weights. */
const HOUR_WEIGHT = [
  0.02, 0.01, 0.01, 0.01, 0.01, 0.02, 0.1, 0.35, 0.7, 0.9, 1.0, 1.2, 1.5, 1.3, 1.0, 0.95, 1.0, 1.2,
  1.45, 1.5, 1.2, 0.8, 0.4, 0.1,
];

interface Day {
  dia: string;
  n: number;
}

/** The 18 months of local days up to `hoje`, each with its number of transactions. */
export function dayPlan(hoje: string, zone: string, rows: number): Day[] {
  const first = DateTime.fromISO(hoje, { zone }).minus({ months: 18 });
  const days: string[] = [];
  const weights: number[] = [];
  const total = Math.round(DateTime.fromISO(hoje, { zone }).diff(first, 'days').days) + 1;
  for (let i = 0; i < total; i++) {
    const dt = first.plus({ days: i });
    days.push(dt.toISODate() ?? '');
    const trend = 0.8 + 0.4 * (i / total);
    const december = dt.month === 12 ? 1.35 : 1;
    weights.push((WEEKDAY_WEIGHT[dt.weekday - 1] ?? 1) * trend * december);
  }
  const counts = apportion(weights, rows);
  return days.map((dia, i) => ({ dia, n: counts[i] ?? 0 }));
}

/**
 * One set-based statement per chunk of days: rows come out in day order (like an append-only
 * production table, merchants interleaved), every column drawn in SQL from random().
 *   $1 days, $2 rows per day, $3 merchant thresholds (Zipf), $4 hour thresholds, $5 zone, $6 now.
 */
const INSERT_TRANSACOES = `
INSERT INTO transacoes (merchant_id, status, modalidade, bandeira, parcelas,
                        valor_bruto_centavos, valor_liquido_centavos, aprovada_em)
SELECT t.merchant_id, t.status, t.modalidade, t.bandeira, t.parcelas, t.bruto,
       t.bruto - round(t.bruto * CASE t.modalidade
                                   WHEN 'debito' THEN 0.0149
                                   WHEN 'credito_avista' THEN 0.0299
                                   WHEN 'credito_parcelado' THEN 0.0349 + 0.011 * (t.parcelas - 1)
                                   ELSE 0.0099 END)::bigint,
       CASE WHEN t.em > $6::timestamptz THEN t.em - interval '7 days' ELSE t.em END
FROM (
  SELECT s.merchant_id, s.modalidade,
         (ARRAY['aprovada','negada','estornada','chargeback'])[width_bucket(s.u5, ARRAY[0, 0.92, 0.97, 0.992]::float8[])] AS status,
         CASE WHEN s.modalidade = 'pix' THEN NULL
              ELSE (ARRAY['visa','mastercard','elo','amex','hipercard'])[width_bucket(s.u3, ARRAY[0, 0.40, 0.76, 0.90, 0.95]::float8[])] END AS bandeira,
         CASE WHEN s.modalidade = 'credito_parcelado' THEN 2 + floor(s.u4 * s.u4 * 11)::int ELSE 1 END AS parcelas,
         greatest(100, round((3000 + (s.merchant_id * 7919) % 15000)
                             * CASE WHEN s.modalidade = 'credito_parcelado' THEN 3 ELSE 1 END
                             * exp(0.8 * sqrt(-2 * ln(1 - s.u6)) * cos(2 * pi() * s.u7))))::bigint AS bruto,
         ((s.dia + make_interval(hours => width_bucket(s.u8, $4::float8[]) - 1, secs => floor(s.u9 * 3600)))
            AT TIME ZONE $5::text) AS em
  FROM (
    SELECT d.dia,
           width_bucket(random(), $3::float8[])::bigint AS merchant_id,
           (ARRAY['debito','credito_avista','credito_parcelado','pix'])[width_bucket(random(), ARRAY[0, 0.30, 0.54, 0.68]::float8[])] AS modalidade,
           random() AS u3, random() AS u4, random() AS u5, random() AS u6, random() AS u7,
           random() AS u8, random() AS u9
      FROM unnest($1::date[], $2::int[]) AS d(dia, n)
      CROSS JOIN LATERAL generate_series(1, d.n) AS g(i)
    OFFSET 0
  ) s
) t`;

/** $1 count, $2 merchant thresholds, $3 first instant, $4 last instant. Created in time order. */
const INSERT_EXTRACOES = `
INSERT INTO extracoes (merchant_id, texto, status, dados, tentativas, modelo, hoje, fila_estado,
                       descarte_motivo, criada_em, atualizada_em)
SELECT s.merchant_id,
       'manda um link de ' || (10 + s.merchant_id % 490) || ' reais pro cliente ' || s.i || ' no pix',
       (ARRAY['completo','incompleto','falhou'])[width_bucket(s.u1, ARRAY[0, 0.6, 0.9]::float8[])],
       '{}'::jsonb, 1 + floor(s.u2 * 3)::int, 'claude-sonnet-4-5', s.em::date,
       s.fila, CASE WHEN s.fila = 'descartada' THEN 'teste' END, s.em, s.em
FROM (
  SELECT g.i, width_bucket(random(), $2::float8[])::bigint AS merchant_id,
         random() AS u1, random() AS u2,
         (ARRAY['aberta','concluida','resolvida','descartada'])[width_bucket(random(), ARRAY[0, 0.7, 0.9, 0.97]::float8[])] AS fila,
         $3::timestamptz + ($4::timestamptz - $3::timestamptz) * (g.i::float8 / $1::int) AS em
    FROM generate_series(1, $1::int) AS g(i)
  OFFSET 0
) s`;

export interface GenerateProgress {
  (etapa: string, done?: number, total?: number): void;
}

/** Parameters stored on the database by a completed generation (null: none or unfinished). */
export async function readMeta(pool: pg.Pool): Promise<BenchMeta | null> {
  const r = await pool.query<{ c: string | null }>(
    'SELECT shobj_description(oid, $1) AS c FROM pg_database WHERE datname = current_database()',
    ['pg_database'],
  );
  const c = r.rows[0]?.c;
  if (!c) return null;
  try {
    const parsed = JSON.parse(c) as (Partial<BenchMeta> & { balcao_bench?: boolean }) | null;
    if (!parsed || typeof parsed.version !== 'number') return null; // a bare creation mark
    const { balcao_bench: _mark, ...meta } = parsed;
    return meta as BenchMeta;
  } catch {
    return null;
  }
}

/** The comment that marks a database as created by `balcao bench` (with or without its meta). */
export const BENCH_MARK = { balcao_bench: true } as const;

/**
 * Was this database created by `balcao bench`? Its comment carries the mark, or (databases made
 * before the mark existed) a finished generation's parameters.
 */
export function isBenchMarked(comment: string | null | undefined): boolean {
  if (!comment) return false;
  try {
    const c = JSON.parse(comment) as Record<string, unknown> | null;
    if (!c || typeof c !== 'object') return false;
    return c.balcao_bench === true || (typeof c.version === 'number' && typeof c.rows === 'number');
  } catch {
    return false;
  }
}

async function writeMeta(client: pg.PoolClient, meta: BenchMeta | null): Promise<void> {
  const db = await client.query<{ d: string }>('SELECT current_database() AS d');
  const name = client.escapeIdentifier(db.rows[0]?.d ?? '');
  const text = client.escapeLiteral(JSON.stringify({ ...BENCH_MARK, ...meta }));
  await client.query(`COMMENT ON DATABASE ${name} IS ${text}`);
}

/**
 * Makes the benchmark data present in the (migrated) database behind `pool`: reuses it when a
 * previous run generated the same parameters; otherwise the database must be empty. Set-based SQL
 * (generate_series) on two connections; the rollups are rebuilt once at the end.
 */
export async function ensureBenchData(
  pool: pg.Pool,
  params: BenchParams,
  opts: { now: Date; force?: boolean; onProgress?: GenerateProgress },
): Promise<{ meta: BenchMeta; reused: boolean }> {
  const existing = await readMeta(pool);
  if (existing && !opts.force && sameParams(params, existing)) {
    // Back to the generated state: an earlier run's write sections (rolled back or deleted
    // afterwards) left dead rows above the rollups' watermark that every read would otherwise
    // step over until autovacuum gets to them.
    await pool.query('VACUUM (ANALYZE) transacoes, vendas_ajustes');
    return { meta: existing, reused: true };
  }
  const progress = opts.onProgress ?? (() => undefined);
  const hoje = localDate(opts.now, params.zone);
  const meta: BenchMeta = {
    ...params,
    version: GENERATOR_VERSION,
    agora: opts.now.toISOString(),
    hoje,
  };
  const main = await pool.connect();
  try {
    await writeMeta(main, null);
    await main.query(`SET maintenance_work_mem = '1GB'`);
    await main.query(`SET work_mem = '256MB'`);
    const used = await main.query<{ tem: boolean }>(
      'SELECT EXISTS (SELECT 1 FROM merchants) OR EXISTS (SELECT 1 FROM extracoes) AS tem',
    );
    if (used.rows[0]?.tem) {
      throw new AppError(
        'conflito',
        'O banco de benchmark já tem dados de outra geração; recrie-o (a CLI faz isso sozinha).',
      );
    }
    const ids = Array.from({ length: params.merchants }, (_, i) => i + 1);
    await main.query({
      text: 'INSERT INTO merchants (id, nome) SELECT * FROM unnest($1::bigint[], $2::text[])',
      values: [ids, ids.map((i) => merchantName(i - 1))],
    });
    // Bulk load without per-row work: FK and rollup triggers off (rollups rebuilt below), the
    // textbook index rebuilt after the load (same definition, read back from the catalog).
    // Secondary indexes of the two big tables (not constraints), recreated after the load.
    const idx = await main.query<{ indexname: string; indexdef: string }>(
      `SELECT i.indexname, i.indexdef FROM pg_indexes i
        WHERE i.schemaname = 'public' AND i.tablename IN ('transacoes', 'extracoes')
          AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
    );
    for (const i of idx.rows) await main.query(`DROP INDEX ${main.escapeIdentifier(i.indexname)}`);
    await main.query('ALTER TABLE transacoes DISABLE TRIGGER ALL');
    await main.query('ALTER TABLE extracoes DISABLE TRIGGER ALL');

    const merchantThr = cumulative(ids.map((i) => 1 / Math.pow(i, ZIPF_EXPONENT)));
    const hourThr = cumulative(HOUR_WEIGHT);
    const plan = dayPlan(hoje, params.zone, params.rows);
    const chunkRows = Math.max(50_000, Math.ceil(params.rows / 40));
    const chunks: Day[][] = [];
    let cur: Day[] = [];
    let curRows = 0;
    for (const d of plan) {
      cur.push(d);
      curRows += d.n;
      if (curRows >= chunkRows) {
        chunks.push(cur);
        cur = [];
        curRows = 0;
      }
    }
    if (cur.length) chunks.push(cur);

    let done = 0;
    let next = 0;
    const worker = async () => {
      const c = await pool.connect();
      try {
        await c.query('SET synchronous_commit = off');
        for (;;) {
          const k = next++;
          const chunk = chunks[k];
          if (!chunk) return;
          // Deterministic per chunk, whichever connection runs it.
          await c.query('SELECT setseed($1)', [(((params.seed + k * 7919) % 1999) - 999) / 1000]);
          await c.query(INSERT_TRANSACOES, [
            chunk.map((d) => d.dia),
            chunk.map((d) => d.n),
            merchantThr,
            hourThr,
            params.zone,
            meta.agora,
          ]);
          done += chunk.reduce((s, d) => s + d.n, 0);
          progress('transacoes', done, params.rows);
        }
      } finally {
        c.release();
      }
    };
    await Promise.all([worker(), worker()]);

    progress('extracoes');
    await main.query('SELECT setseed($1)', [((params.seed % 1999) - 999) / 1000]);
    const firstDay = plan[0]?.dia ?? hoje;
    await main.query(INSERT_EXTRACOES, [
      params.extracoes,
      merchantThr,
      DateTime.fromISO(firstDay, { zone: params.zone }).toISO(),
      meta.agora,
    ]);
    await main.query('ALTER TABLE extracoes ENABLE TRIGGER ALL');
    await main.query('ALTER TABLE transacoes ENABLE TRIGGER ALL');

    progress('indices');
    for (const i of idx.rows) await main.query(i.indexdef);
    progress('rollups');
    await main.query('SELECT balcao_rollups_reconstruir()');
    // The queue's counters (0740): the bulk load ran with triggers off.
    await main.query('SELECT balcao_fila_recontar()');
    progress('vacuum');
    await main.query(
      'VACUUM (ANALYZE) transacoes, extracoes, merchants, vendas_diarias, vendas_horarias, vendas_mes_hora, vendas_dia_modalidade, vendas_mensais, vendas_dia_totais, fila_contagens',
    );
    await writeMeta(main, meta);
    return { meta, reused: false };
  } finally {
    main.release();
  }
}
