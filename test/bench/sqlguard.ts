/**
 * Benchmark of the free-SQL guard, on whatever data DATABASE_URL holds (e.g. after
 * `npx balcao db seed-demo`; migrated, analytics role with a password or trust auth).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/balcao npx tsx --tsconfig tsconfig.json \
 *     test/bench/sqlguard.ts [merchant=1] [repeticoes=25]
 *
 * Prints: layer 1 (parse + allowlist walk) per query over the hostile corpus, in µs; then the
 * whole guard (layer 1 + executor: read-only tenant transaction, cursor, reset and check) per
 * query shape in ms (p50/p95), next to the same SQL on a bare analytics transaction.
 */
import { readFileSync } from 'node:fs';
import { createPool } from '../../src-main/db/pool';
import { ANALYTICS_ROLE } from '../../src-main/db/roles';
import { urlForRole } from '../../src-main/db/urls';
import { checkSql, checkSqlSync, loadGuard } from '../../src-main/sqlguard/guard';
import { runFreeSql } from '../../src-main/sales/free-sql/run';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('defina DATABASE_URL');
const merchantId = Number(process.argv[2] ?? 1);
const reps = Number(process.argv[3] ?? 25);

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}

async function main() {
  await loadGuard();
  const corpus = readFileSync(new URL('../fixtures/hostile-sql.jsonl', import.meta.url), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { sql: string }).sql);
  const times: number[] = [];
  for (let r = 0; r < 20; r++) {
    for (const sql of corpus) {
      const t0 = performance.now();
      checkSqlSync(sql);
      times.push((performance.now() - t0) * 1000);
    }
  }
  console.log(
    `camada 1 (${corpus.length} consultas × 20): p50 ${pct(times, 50).toFixed(0)} µs, p95 ${pct(times, 95).toFixed(0)} µs, máx ${pct(times, 100).toFixed(0)} µs`,
  );

  const analytics = createPool(
    process.env.ANALYTICS_DATABASE_URL ?? urlForRole(url as string, ANALYTICS_ROLE),
    { max: 1 },
  );
  const shapes: [string, string][] = [
    ['total', 'select count(*) as n, sum(valor_bruto_centavos) as total_centavos from vendas_ia'],
    [
      'por mês',
      `select date_trunc('month', aprovada_em) as mes, sum(valor_liquido_centavos) as liquido_centavos
         from vendas_ia group by 1 order by 1`,
    ],
    [
      'maior venda por bandeira',
      'select bandeira, max(valor_bruto_centavos) as maior_centavos from vendas_ia group by 1',
    ],
    ['500 linhas', 'select * from vendas_ia order by aprovada_em desc limit 500'],
  ];
  for (const [name, sql] of shapes) {
    if (!(await checkSql(sql)).ok) throw new Error(`recusada: ${name}`);
    const guarded: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < reps; i++) {
      let t0 = performance.now();
      await runFreeSql(analytics, { timeoutMs: 3_000 }, { merchantId, sql, origem: 'app' });
      guarded.push(performance.now() - t0);
      const c = await analytics.connect();
      t0 = performance.now();
      await c.query('BEGIN READ ONLY');
      await c.query({ text: 'SELECT balcao_definir_lojista($1)', values: [merchantId] });
      await c.query({ text: sql, rowMode: 'array' });
      await c.query('ROLLBACK');
      bare.push(performance.now() - t0);
      c.release();
    }
    console.log(
      `${name.padEnd(26)} guarda p50 ${pct(guarded, 50).toFixed(1)} ms p95 ${pct(guarded, 95).toFixed(1)} ms | transação simples p50 ${pct(bare, 50).toFixed(1)} ms p95 ${pct(bare, 95).toFixed(1)} ms`,
    );
  }
  await analytics.end();
}

void main();
