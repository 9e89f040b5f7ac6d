/**
 * Review-queue benchmark: 100k extractions (about half open), then the queue operations the UI
 * uses, timed through the real services (p50/p95 over repetitions, after a warm-up).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx test/bench/queue.ts [linhas]
 *
 * Creates a scratch database on that server, migrates it, fills it with set-based SQL, measures,
 * prints a table (and the plan of the default page) and drops the database.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { addDays } from '../../src-shared/time';
import { fixedClock } from '../../src-main/clock';
import { migrate } from '../../src-main/db/migrate';
import { createPool } from '../../src-main/db/pool';
import { APP_ROLE } from '../../src-main/db/roles';
import { urlForDatabase, urlForRole } from '../../src-main/db/urls';
import { extractionChargeRules } from '../../src-main/queue/rules';
import { createQueueService } from '../../src-main/queue/service';
import { createMemorySettings } from '../../src-main/settings/memory';

const ROWS = Number(process.argv[2] ?? 100_000);
const REPS = 30;

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? 0;
}

async function timed(fn: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  await fn();
  const out: number[] = [];
  for (let i = 0; i < REPS; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return { p50: pct(out, 50), p95: pct(out, 95) };
}

async function main() {
  const server = process.env.DATABASE_URL;
  if (!server)
    throw new Error('Defina DATABASE_URL (servidor PostgreSQL para o banco temporário).');
  const name = `balcao_bench_fila_${randomBytes(4).toString('hex')}`;
  const root = new pg.Client({ connectionString: urlForDatabase(server, 'postgres') });
  await root.connect();
  await root.query(`CREATE DATABASE ${name}`);
  const adminUrl = urlForDatabase(server, name);
  const admin = createPool(adminUrl, { max: 2 });
  let app: pg.Pool | undefined;
  try {
    await migrate(adminUrl);
    await root.query(`ALTER ROLE ${APP_ROLE} PASSWORD 'bench-fila'`);
    app = createPool(urlForRole(adminUrl, APP_ROLE, 'bench-fila'), { max: 4 });
    const t0 = performance.now();
    await admin.query(`INSERT INTO merchants (id, nome)
      SELECT i, 'Loja ' || i FROM generate_series(1, 200) i`);
    await admin.query({
      text: `INSERT INTO extracoes (merchant_id, texto, status, dados, erros, alertas, tentativas,
               modelo, uso, custo_estimado_usd, fila_estado, descarte_motivo, criada_em, atualizada_em)
             SELECT 1 + (i::bigint * 7919) % 200,
                    (ARRAY['manda um link de ', 'cobra ', 'faz um pix de ', 'boleto de '])[1 + i % 4]
                      || (50 + i % 950) || ' reais pro cliente ' || i
                      || (ARRAY[' no cartão em 3x', ' no pix', ' vence sexta', ''])[1 + (i / 4) % 4],
                    s.status,
                    jsonb_build_object('valor_centavos', 5000 + i % 90000, 'parcelas', 1 + i % 3,
                      'metodo', 'cartao', 'cliente_nome', 'Cliente ' || i,
                      'vencimento', '2026-12-10', 'descricao', null, 'faltando', '[]'::jsonb),
                    CASE WHEN s.status = 'falhou' THEN jsonb_build_array(jsonb_build_object(
                      'campo', 'parcelas', 'regra',
                      (ARRAY['parcelas_pix_boleto', 'vencimento_passado', 'valor_faixa'])[1 + i % 3],
                      'mensagem', 'regra quebrada')) ELSE '[]'::jsonb END,
                    CASE WHEN i % 17 = 0 THEN '[{"codigo":"valor_divergente","mensagem":"diverge","valores_no_texto":[15000]}]'::jsonb
                         ELSE '[]'::jsonb END,
                    CASE WHEN s.status = 'falhou' THEN 3 ELSE 1 END,
                    'claude-sonnet-4-5',
                    '{"input_tokens":1500,"output_tokens":100,"cache_read_input_tokens":0,"cache_creation_input_tokens":1400}',
                    0.0113,
                    CASE WHEN s.status <> 'completo' OR i % 17 = 0 THEN
                           (CASE WHEN i % 10 < 8 THEN 'aberta' WHEN i % 10 = 8 THEN 'resolvida' ELSE 'descartada' END)
                         ELSE 'concluida' END,
                    CASE WHEN (s.status <> 'completo' OR i % 17 = 0) AND i % 10 = 9 THEN 'teste' END,
                    now() - (i * interval '37 seconds'),
                    now()
               FROM generate_series(1, $1::int) i,
                    LATERAL (SELECT (ARRAY['completo', 'completo', 'incompleto', 'falhou'])[1 + (i * 31) % 4] AS status) s`,
      values: [ROWS],
    });
    await admin.query(
      `UPDATE extracoes SET descarte_motivo = 'teste' WHERE fila_estado = 'descartada'`,
    );
    // As autovacuum would have it: statistics and the visibility map (index-only counts).
    await admin.query('VACUUM ANALYZE');
    const fill = performance.now() - t0;
    const counts = await admin.query<{ fila_estado: string; n: number }>(
      'SELECT fila_estado, count(*)::int AS n FROM extracoes GROUP BY 1 ORDER BY 1',
    );

    const q = createQueueService({
      pool: app,
      clock: fixedClock(new Date()),
      settings: createMemorySettings({ operator: 'bench', timeZone: 'America/Sao_Paulo' }, {}),
      rules: extractionChargeRules,
      rerunner: null,
    });
    const today = q.today();
    const base = { limit: 50, view: 'aberta' as const, sort: 'recentes' as const };
    // A cursor deep in the queue (page 400 of 50).
    let deep: string | null = null;
    {
      let cursor: string | null = null;
      for (let i = 0; i < 400; i++) {
        const p = await q.list({ ...base, cursor });
        cursor = p.nextCursor;
        if (!cursor) break;
      }
      deep = cursor;
    }
    const openIds = (
      await admin.query<{ id: number }>(
        `SELECT id FROM extracoes WHERE fila_estado = 'aberta' ORDER BY id LIMIT ${REPS * 2 + 2}`,
      )
    ).rows.map((r) => r.id);
    let k = 0;
    const results: [string, { p50: number; p95: number }][] = [
      ['lista: 1ª página + contagens', await timed(() => q.list(base))],
      ['lista: página 400 (cursor)', await timed(() => q.list({ ...base, cursor: deep }))],
      ['lista: status falhou', await timed(() => q.list({ ...base, status: ['falhou'] }))],
      ['lista: lojista 42', await timed(() => q.list({ ...base, merchantId: 42 }))],
      [
        'lista: motivo vencimento_passado',
        await timed(() => q.list({ ...base, motivo: 'vencimento_passado' })),
      ],
      ['lista: mais de 24 h', await timed(() => q.list({ ...base, idadeMinHoras: 24 }))],
      [
        'lista: busca "cliente 4242"',
        await timed(() => q.list({ ...base, search: 'cliente 4242' })),
      ],
      ['lista: mais tentativas', await timed(() => q.list({ ...base, sort: 'tentativas' }))],
      ['lista: mais antigas', await timed(() => q.list({ ...base, sort: 'antigas' }))],
      ['opções de filtro', await timed(() => q.filterOptions({ view: 'aberta' }))],
      ['abrir item (detalhe)', await timed(() => q.get(openIds[0]!))],
      ['assumir item (claim)', await timed(() => q.claim(openIds[k++ % openIds.length]!))],
      [
        'relatório 7 dias',
        await timed(() => q.failureReport({ de: addDays(today, -6), ate: today })),
      ],
      [
        'relatório 30 dias',
        await timed(() => q.failureReport({ de: addDays(today, -29), ate: today })),
      ],
    ];
    const plan = await app.query(
      `EXPLAIN (ANALYZE, BUFFERS) SELECT e.id FROM extracoes e JOIN merchants m ON m.id = e.merchant_id
        WHERE e.fila_estado = 'aberta' ORDER BY e.criada_em DESC, e.id DESC LIMIT 51`,
    );
    console.log(
      `extracoes: ${ROWS} (${counts.rows.map((r) => `${r.fila_estado} ${r.n}`).join(', ')}); carga ${Math.round(fill)} ms`,
    );
    console.log('operação'.padEnd(36), 'p50 ms'.padStart(8), 'p95 ms'.padStart(8));
    for (const [label, r] of results) {
      console.log(label.padEnd(36), r.p50.toFixed(2).padStart(8), r.p95.toFixed(2).padStart(8));
    }
    console.log('\nplano da 1ª página:');
    for (const r of plan.rows as { 'QUERY PLAN': string }[]) console.log('  ' + r['QUERY PLAN']);
  } finally {
    await app?.end();
    await admin.end();
    await root.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await root.end();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
