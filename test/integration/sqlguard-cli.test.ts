/** `balcao sql`: single query and --batch through one pooled connection (real PostgreSQL). */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, runCliLines } from '../support/cli';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { CANARIES, M1, M2, NORMAL_SQL, checksum, cliRows, seedCanaries } from '../support/sqlguard';

let db: TestDatabase;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  db = await createTestDatabase();
  await seedCanaries(db.admin);
  env = cliEnv(db, { BALCAO_TIME_ZONE: 'America/Sao_Paulo' });
});
afterAll(() => db.drop());

const run = (args: string[]) => runCliLines(args, env);

describe('balcao sql', () => {
  it('accepted: exit 0 and {"colunas": [...], "linhas": [[...]]}', async () => {
    const r = await run(['sql', '--merchant', '1', NORMAL_SQL, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual(cliRows(M1));
  });

  it('refused: exit 1 and {"erro": "<pt-BR>"}', async () => {
    const r = await run(['sql', '--merchant', '1', 'select * from transacoes', '--json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out)).toEqual({
      erro: 'consulta recusada: só é permitido ler a visão de vendas',
    });
    const s = await run([
      'sql',
      '--merchant',
      '1',
      `select set_config('balcao.merchant_id', '2', true), * from vendas_ia`,
      '--json',
    ]);
    expect(s.code).toBe(1);
    expect(JSON.parse(s.out).erro).toMatch(/^consulta recusada: /);
  });

  it('failed at run time: exit 1 with our message', async () => {
    const r = await run(['sql', '--merchant', '1', 'select 1 / 0 from vendas_ia', '--json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out)).toEqual({ erro: 'A consulta falhou: divisão por zero.' });
  });

  it('prints a readable table without --json', async () => {
    const r = await run([
      'sql',
      '--merchant',
      '1',
      'select modalidade, count(*) as n from vendas_ia group by 1 order by 1',
    ]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/modalidade\s+\| n/);
    expect(r.out).toMatch(/pix\s+\| 2/);
    expect(r.out).toMatch(/4 linha\(s\)\./);
  });

  it('--batch of accepted queries only exits 0', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'balcao-sql-')), 'ok.jsonl');
    writeFileSync(file, `${JSON.stringify({ merchant: 2, sql: NORMAL_SQL })}\n`);
    const r = await run(['sql', '--batch', file]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual(cliRows(M2));
  });

  it('an unknown merchant is refused (exit 1, pt-BR), not answered with zeros (#41.6)', async () => {
    const r = await run(['sql', '--merchant', '999', 'select count(*) from vendas_ia']);
    expect(r.code).toBe(1);
    expect(r.err).toBe('balcao: Lojista 999 não encontrado.');
    expect(r.out).toBe('');
    const dir = mkdtempSync(join(tmpdir(), 'balcao-sql-'));
    const file = join(dir, 'desconhecido.jsonl');
    writeFileSync(
      file,
      [
        { merchant: 999, sql: NORMAL_SQL },
        { merchant: 2, sql: NORMAL_SQL },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n'),
    );
    const b = await run(['sql', '--batch', file]);
    expect(b.code).toBe(1);
    expect(b.out.split('\n').map((l) => JSON.parse(l))).toEqual([
      { erro: 'linha 1: lojista 999 não encontrado.' },
      cliRows(M2),
    ]);
  });

  it('usage errors exit 2', async () => {
    expect((await run(['sql', 'select 1', '--json'])).code).toBe(2);
    expect((await run(['sql', '--merchant', 'abc', 'select 1'])).code).toBe(2);
    expect((await run(['sql', '--batch', '/nao/existe.jsonl'])).code).toBe(2);
  });

  it('--batch runs lines in order through one pooled connection; nothing leaks between them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'balcao-sql-'));
    const file = join(dir, 'lote.jsonl');
    const lines = [
      { merchant: 1, sql: NORMAL_SQL },
      { merchant: 1, sql: `select set_config('balcao.merchant_id', '2', false)` },
      { merchant: 1, sql: NORMAL_SQL },
      { merchant: 2, sql: NORMAL_SQL },
      { merchant: 1, sql: 'select * from vendas_ia where id = 770000001' },
      { merchant: 1, sql: 'select x from generate_series(1, 100000) g(x)' },
      { merchant: 1, sql: NORMAL_SQL },
    ];
    writeFileSync(
      file,
      `${lines.map((l) => JSON.stringify(l)).join('\n')}\nnão é json\n{"merchant": 0, "sql": "select 1"}\n`,
    );
    const before = await checksum(db.admin);
    const r = await run(['sql', '--batch', file, '--json']);
    expect(r.code).toBe(1); // some lines were refused; each printed its own result
    const got = r.out.split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(got).toHaveLength(9);
    expect(got[0]).toEqual(cliRows(M1));
    expect(got[1]?.erro).toMatch(/^consulta recusada: /);
    expect(got[2]).toEqual(cliRows(M1));
    expect(got[3]).toEqual(cliRows(M2));
    expect(got[4]).toEqual({
      colunas: [
        'id',
        'modalidade',
        'bandeira',
        'parcelas',
        'valor_bruto_centavos',
        'valor_liquido_centavos',
        'aprovada_em',
      ],
      linhas: [],
    });
    expect((got[5]?.linhas as unknown[]).length).toBe(500);
    expect(got[5]?.truncado).toBe(true);
    expect(got[6]).toEqual(cliRows(M1));
    expect(got[7]?.erro).toMatch(/^linha 8: /);
    expect(got[8]?.erro).toMatch(/^linha 9: /);
    for (const c of CANARIES) expect(JSON.stringify(got.slice(0, 3))).not.toContain(c);
    expect(await checksum(db.admin)).toBe(before);
    // Every query was logged, with its verdict.
    const log = await db.admin.query(
      `SELECT veredito, count(*)::int AS n FROM consultas_livres WHERE origem = 'cli' GROUP BY 1 ORDER BY 1`,
    );
    expect(log.rows).toEqual(
      expect.arrayContaining([expect.objectContaining({ veredito: 'aceita' })]),
    );
  });
});
