/**
 * Benchmark (#16): sales questions on a streaming replica and through PgBouncer, against the
 * primary direct — p50/p95 side by side in one run — and the replica's lag under a write load.
 *
 *   npx tsx --tsconfig tsconfig.json test/bench/replica.ts [linhas=200000] [repeticoes=5] [segundos=10]
 *
 * Starts its own topology (test/support/replica-cluster.ts: PostgreSQL 15 primary, hot standby by
 * pg_basebackup -R, PgBouncer 1.18 in transaction pooling), loads the benchmark data on the
 * primary (src-main/bench/generate.ts), waits for the standby to catch up, then:
 *  1. every query of the benchmark mix (src-main/bench/mix.ts) for the biggest merchant, as a
 *     full sales question through the engine (merchant lookup, tenant transaction with the
 *     freshness read, answer, log row on the primary), round-robin over four routes:
 *     primary direct · replica direct · PgBouncer → primary · PgBouncer → replica;
 *  2. a writer commits small batches of sales on the primary for `segundos` while a reader on the
 *     standby notes when each batch becomes visible (commit → visible on the replica), and the
 *     lag the app itself reports (balcao_frescor().atraso_s) is sampled.
 * Prints one JSON object. Everything it started stops when it ends.
 */
import type pg from 'pg';
import { systemClock } from '../../src-main/clock';
import { benchParams, ensureBenchData } from '../../src-main/bench/generate';
import { queryMix } from '../../src-main/bench/mix';
import { percentile, pickMerchants } from '../../src-main/bench/run';
import { createPool, type Databases } from '../../src-main/db/pool';
import { answerSalesDsl, type SalesDeps } from '../../src-main/sales';
import { createMemorySettings } from '../../src-main/settings/memory';
import { silentLogger } from '../../src-main/util/logger';
import { startReplicaCluster } from '../support/replica-cluster';

const rows = Number(process.argv[2] ?? 200_000);
const reps = Number(process.argv[3] ?? 5);
const seconds = Number(process.argv[4] ?? 10);
const zone = 'America/Sao_Paulo';
const round = (n: number) => Math.round(n * 100) / 100;

function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  return {
    n: s.length,
    p50: round(percentile(s, 50)),
    p95: round(percentile(s, 95)),
    max: round(s[s.length - 1] ?? 0),
  };
}

const cluster = await startReplicaCluster();
const opened: pg.Pool[] = [];
const pool = (url: string, max = 4) => {
  const p = createPool(url, { max });
  opened.push(p);
  return p;
};
try {
  const admin = pool(cluster.primaryAdminUrl, 4);
  const t0 = performance.now();
  const { meta } = await ensureBenchData(admin, benchParams(rows, zone), { now: new Date() });
  await cluster.waitForCatchUp(600_000);
  const loadS = round((performance.now() - t0) / 1000);
  const [biggest] = await pickMerchants(admin, meta.hoje);
  if (!biggest) throw new Error('sem lojistas');
  const settings = createMemorySettings(
    { timeZone: zone, operator: 'bench-replica', queryTimeoutMs: 10_000, maxLagS: 60 },
    {},
  );
  const app = pool(cluster.primaryAppUrl);
  const routes: Record<string, Databases> = {
    primario_direto: { admin, app, analytics: pool(cluster.primaryAnalyticsUrl) },
    replica_direta: {
      admin,
      app,
      analytics: pool(cluster.standbyAnalyticsUrl),
      appRead: pool(cluster.standbyAppUrl, 2),
    },
    pgbouncer_primario: {
      admin,
      app: pool(cluster.bouncerPrimaryAppUrl),
      analytics: pool(cluster.bouncerPrimaryAnalyticsUrl),
    },
    pgbouncer_replica: {
      admin,
      app: pool(cluster.bouncerPrimaryAppUrl),
      analytics: pool(cluster.bouncerReplicaAnalyticsUrl),
      appRead: pool(
        cluster.bouncerReplicaAnalyticsUrl.replace('balcao_analytics', 'balcao_app'),
        2,
      ),
    },
  };
  const mix = queryMix(meta.hoje);
  const deps = (dbs: Databases): SalesDeps => ({
    dbs,
    settings,
    clock: systemClock,
    logger: silentLogger,
  });
  const samples: Record<string, number[]> = Object.fromEntries(
    Object.keys(routes).map((k) => [k, []]),
  );
  const answers = new Map<string, string>();
  let mismatches = 0;
  // Warm-up: one pass per route (connections, caches).
  for (const dbs of Object.values(routes)) {
    for (const m of mix) await answerSalesDsl(deps(dbs), { merchantId: biggest.id, dsl: m.dsl });
  }
  for (let r = 0; r < reps; r++) {
    for (const m of mix) {
      for (const [name, dbs] of Object.entries(routes)) {
        const t = performance.now();
        const a = await answerSalesDsl(deps(dbs), { merchantId: biggest.id, dsl: m.dsl });
        samples[name]?.push(performance.now() - t);
        if (a.tipo !== 'resposta') continue;
        const prev = answers.get(m.name);
        if (prev === undefined) answers.set(m.name, a.resposta);
        else if (prev !== a.resposta) mismatches++;
      }
    }
  }

  // Lag under a write load.
  const primary = pool(cluster.primaryAdminUrl, 1);
  const standby = pool(cluster.standbyAdminUrl, 1);
  const analyticsOnReplica = routes.replica_direta?.appRead as pg.Pool;
  const baseId =
    ((
      await primary.query<{ m: number }>('SELECT coalesce(max(id), 0)::bigint AS m FROM transacoes')
    ).rows[0]?.m ?? 0) + 1_000_000;
  const committed = new Map<number, number>();
  const visibleDelays: number[] = [];
  const reported: number[] = [];
  let stop = false;
  let written = 0;
  let batches = 0;
  const writer = (async () => {
    let id = baseId;
    while (!stop) {
      const first = id;
      id += 200;
      await primary.query(
        `INSERT INTO transacoes (id, merchant_id, status, modalidade, bandeira, parcelas,
           valor_bruto_centavos, valor_liquido_centavos, aprovada_em)
         SELECT g, $3, 'aprovada', 'pix', NULL, 1, 1000, 990, now()
           FROM generate_series($1::bigint, $2::bigint) g`,
        [first, id - 1, biggest.id],
      );
      committed.set(id - 1, performance.now());
      written += 200;
      batches++;
    }
  })();
  const reader = (async () => {
    let seen = baseId - 1;
    while (!stop) {
      const r = await standby.query<{ m: number | null }>(
        'SELECT max(id)::bigint AS m FROM transacoes WHERE id >= $1',
        [baseId],
      );
      const m = r.rows[0]?.m ?? null;
      const now = performance.now();
      if (m !== null && m > seen) {
        for (const [last, at] of committed) {
          if (last > seen && last <= m) visibleDelays.push(now - at);
          if (last <= m) committed.delete(last);
        }
        seen = m;
      }
      await new Promise((res) => setTimeout(res, 10));
    }
  })();
  const sampler = (async () => {
    while (!stop) {
      const r = await analyticsOnReplica.query<{ a: number | null }>(
        'SELECT atraso_s AS a FROM balcao_frescor()',
      );
      const a = r.rows[0]?.a;
      if (a !== null && a !== undefined) reported.push(Number(a) * 1000);
      await new Promise((res) => setTimeout(res, 100));
    }
  })();
  await new Promise((res) => setTimeout(res, seconds * 1000));
  stop = true;
  await Promise.all([writer, reader, sampler]);

  const result = {
    topologia:
      'PostgreSQL 15 primário + hot standby (streaming, pg_basebackup -R) + PgBouncer 1.18 (transaction pooling), 127.0.0.1',
    linhas: rows,
    carga_s: loadS,
    lojista: biggest,
    consultas_no_mix: mix.length,
    repeticoes: reps,
    respostas_divergentes: mismatches,
    pergunta_ms: Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, stats(v)])),
    carga_de_escrita: {
      segundos: seconds,
      transacoes_por_s: Math.round(written / seconds),
      lotes_por_s: Math.round(batches / seconds),
      commit_ate_visivel_na_replica_ms: stats(visibleDelays),
      atraso_informado_pelo_app_ms: stats(reported),
    },
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
} finally {
  await Promise.allSettled(opened.map((p) => p.end()));
  await cluster.stop();
}
