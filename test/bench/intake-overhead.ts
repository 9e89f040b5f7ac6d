/**
 * Benchmark: Balcão's own time per intake message, one message at a time (issue #17: < 5 ms).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
 *     npx tsx --tsconfig tsconfig.json test/bench/intake-overhead.ts [mensagens=200]
 *
 * `balcao bench-intake` measures the same split under load (many jobs, the cap binding); this
 * isolates it: a marked benchmark database (balcao_bench_intake_custo, recreated), the bench's
 * fake Messages API answering at once, and `processMessage` run sequentially with the real
 * limiter, SDK and final transaction. Prints, per message: own time (job time − time inside the
 * model call), the database round trips it made, and the round-trip time of `SELECT 1` measured
 * in the same run — on a busy shared machine own time ≈ round trips × RTT.
 */
import pg from 'pg';
import { startFakeApi } from '../../src-main/bench/fake-messages-api';
import { freshDatabase } from '../../src-main/bench/intake';
import { benchMessages } from '../../src-main/bench/intake-messages';
import { percentile } from '../../src-main/bench/run';
import { systemClock } from '../../src-main/clock';
import { createPool } from '../../src-main/db/pool';
import { shouldPrepare } from '../../src-main/db/prepared';
import { APP_ROLE } from '../../src-main/db/roles';
import { urlForRole } from '../../src-main/db/urls';
import { enqueueMessages } from '../../src-main/intake/enqueue';
import { startBoss } from '../../src-main/intake/jobs';
import { createLimiter } from '../../src-main/intake/limiter';
import { processMessage } from '../../src-main/intake/process';
import { createClaudeClient } from '../../src-main/llm/client';
import { extractionChargeRules } from '../../src-main/queue/rules';
import { createMemorySettings } from '../../src-main/settings/memory';
import { localDate } from '../../src-shared/time';

const N = Number(process.argv[2] ?? 200);
const server = process.env.DATABASE_URL;
if (!server) throw new Error('defina DATABASE_URL (superusuário)');
const admin = await freshDatabase(server, 'balcao_bench_intake_custo');
const url = urlForRole(admin, APP_ROLE);
const { msgs, charges } = benchMessages(N, localDate(new Date(), 'America/Sao_Paulo'));
const api = await startFakeApi({
  charges,
  latenciaMs: 0,
  jitterMs: 0,
  taxa429: 0,
  taxa5xx: 0,
  retryAfterS: 1,
  seed: 1,
});
// As `balcao worker` connects here (directly: its hot statements prepared; BALCAO_DB_PREPARAR=0
// measures them unprepared).
const pool = createPool(url, {
  max: 8,
  prepare: shouldPrepare({
    dbPrepare: process.env.BALCAO_DB_PREPARAR === '0' ? false : undefined,
    appDatabaseUrl: url,
    directDatabaseUrl: undefined,
  }),
});
const boss = await startBoss(pool);
const out = await enqueueMessages({ pool, boss }, msgs);
await boss.stop({ graceful: false, close: false, wait: true });
const settings = createMemorySettings(
  { timeZone: 'America/Sao_Paulo', anthropicBaseUrl: api.url },
  { ANTHROPIC_API_KEY: 'sk-ant-bench-000000000000000000000000' },
);
const limiter = createLimiter({ connectionString: url, cap: 8 });
const client = createClaudeClient(settings, { fetch: limiter.fetch });

// Count round trips: every query of every pg client in this process (pool and limiter).
let trips = 0;
const original = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  trips++;
  return (original as (...a: unknown[]) => unknown).apply(this, args);
} as typeof original;

const rtt: number[] = [];
for (let i = 0; i < 50; i++) {
  const t = performance.now();
  await pool.query('SELECT 1');
  rtt.push(performance.now() - t);
}
const own: number[] = [];
const roundTrips: number[] = [];
for (const o of out) {
  let inModel = 0;
  const gate = <R>(call: () => Promise<R>) =>
    limiter.gate(async () => {
      const s = performance.now();
      try {
        return await call();
      } finally {
        inModel += performance.now() - s;
      }
    });
  trips = 0;
  const t = performance.now();
  await processMessage(
    { pool, settings, clock: systemClock, rules: extractionChargeRules, client, gate },
    o.id!,
  );
  own.push(performance.now() - t - inModel);
  roundTrips.push(trips);
}
const sorted = (a: number[]) => [...a].sort((x, y) => x - y);
const f = (n: number) => n.toFixed(2);
const o2 = sorted(own);
const r2 = sorted(rtt);
const t2 = sorted(roundTrips);
console.log(
  JSON.stringify({
    mensagens: N,
    proprio_ms: {
      p50: f(percentile(o2, 50)),
      p95: f(percentile(o2, 95)),
      media: f(own.reduce((a, b) => a + b, 0) / N),
    },
    idas_ao_banco: { p50: percentile(t2, 50), max: t2[t2.length - 1] },
    rtt_select1_ms: { p50: f(percentile(r2, 50)), p95: f(percentile(r2, 95)) },
  }),
);
await limiter.close();
await pool.end();
await api.close();
