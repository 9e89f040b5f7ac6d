/**
 * Benchmark: what the review-queue counters (0740) and per-day report counters (0741) cost the
 * agents' writes. Single-row autocommit UPDATEs of `extracoes` as the queue makes them — a claim
 * or lease renewal (no counted column changes: the triggers append nothing) and a confirm (the
 * item changes state: two delta rows per trigger) — timed with the counting triggers enabled and
 * disabled, interleaved, on a marked scratch database (balcao_bench_fila_custo, recreated).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
 *     npx tsx --tsconfig tsconfig.json test/bench/queue-counters-cost.ts [repetições=400]
 */
import pg from 'pg';
import { freshDatabase } from '../../src-main/bench/intake';
import { percentile } from '../../src-main/bench/run';

const REPS = Number(process.argv[2] ?? 400);
const server = process.env.DATABASE_URL;
if (!server) throw new Error('defina DATABASE_URL (superusuário)');
const url = await freshDatabase(server, 'balcao_bench_fila_custo');
const c = new pg.Client({ connectionString: url });
await c.connect();
await c.query(`INSERT INTO extracoes (merchant_id, texto, status, tentativas, uso, custo_estimado_usd,
                 modelo, hoje, criada_em)
               SELECT 1 + i % 20, 'texto ' || i, (ARRAY['completo','incompleto','falhou'])[1 + i % 3],
                      1 + i % 3, '{"input_tokens":1500,"output_tokens":90}', 0.0113, 'm', '2026-12-01',
                      now() - i * interval '30 seconds'
                 FROM generate_series(1, 20000) i`);
await c.query('VACUUM ANALYZE extracoes');
// Without the WAL flush at each commit (the same on both sides): the triggers' own work shows.
if (process.env.SYNC_OFF === '1') await c.query('SET synchronous_commit = off');
const TRIGGERS = ['extracoes_contar_upd', 'extracoes_relatorio_upd'];
const setTriggers = async (on: boolean) => {
  for (const t of TRIGGERS) {
    await c.query(`ALTER TABLE extracoes ${on ? 'ENABLE' : 'DISABLE'} TRIGGER ${t}`);
  }
};
const time = async (sql: string, id: number) => {
  const t = performance.now();
  await c.query(sql, [id]);
  return performance.now() - t;
};
const CLAIM = `UPDATE extracoes SET lease_token = gen_random_uuid(), lease_operador = 'ana',
                 lease_expira_em = now() + interval '1 minute' WHERE id = $1`;
const CONFIRM = `UPDATE extracoes SET fila_estado = CASE fila_estado WHEN 'aberta' THEN 'resolvida' ELSE 'aberta' END,
                   lease_token = NULL, lease_operador = NULL, lease_expira_em = NULL WHERE id = $1`;
const r: Record<string, number[]> = {
  claim_on: [],
  claim_off: [],
  confirm_on: [],
  confirm_off: [],
};
for (let round = 0; round < 4; round++) {
  for (const on of [true, false]) {
    await setTriggers(on);
    for (let i = 0; i < REPS / 4; i++) {
      const id = 1 + ((round * 7919 + i * 104729) % 20000);
      r[on ? 'claim_on' : 'claim_off']!.push(await time(CLAIM, id));
      r[on ? 'confirm_on' : 'confirm_off']!.push(await time(CONFIRM, id));
    }
  }
}
await setTriggers(true);
const out: Record<string, { p50: string; p95: string }> = {};
for (const [k, v] of Object.entries(r)) {
  const s = [...v].sort((a, b) => a - b);
  out[k] = { p50: percentile(s, 50).toFixed(3), p95: percentile(s, 95).toFixed(3) };
}
console.log(JSON.stringify(out));
await c.end();
