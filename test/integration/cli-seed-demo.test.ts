/**
 * `balcao db seed-demo` after real use: an `ask` logs a question (append-only, refers to a
 * merchant), so a reload can no longer delete the merchants. It refuses in pt-BR naming the
 * flag that forces it — never a raw foreign-key error — and `--forcar` reloads keeping history.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, runCli } from '../support/cli';
import { createTestDatabase, type TestDatabase } from '../support/db';

let db: TestDatabase;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  db = await createTestDatabase();
  env = cliEnv(db, { BALCAO_TIME_ZONE: 'America/Sao_Paulo', BALCAO_OPERATOR: 'cli-teste' });
});
afterAll(() => db.drop());

const run = (args: string[]) => runCli(args, env);

const seed = (...extra: string[]) =>
  run(['db', 'seed-demo', '--merchants', '3', '--transactions', '600', ...extra]);

describe('balcao db seed-demo', () => {
  it('loads, reloads while there is no history, refuses after an ask, forces with --forcar', async () => {
    expect(await seed('--json')).toMatchObject({ code: 0, err: '' });
    // No history yet: a plain reload replaces everything.
    const again = await seed('--json');
    expect(again).toMatchObject({ code: 0, err: '' });
    expect(JSON.parse(again.out)).toMatchObject({ lojistas: 3, transacoes: 600 });

    const ask = await run([
      'ask',
      '--merchant',
      '1',
      '--hoje',
      '2026-03-16',
      '--dsl',
      '{"metrica":"total_bruto","periodo":"semana_passada"}',
      '--json',
    ]);
    expect(ask.code).toBe(0);
    const logged = await db.admin.query('SELECT count(*)::int AS n FROM consultas_vendas');
    expect(logged.rows[0].n).toBe(1);

    const refused = await seed();
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/^balcao: Este banco já tem histórico \(1 pergunta de vendas\)/);
    expect(refused.err).toContain('--forcar');
    expect(refused.err).not.toMatch(/fkey|foreign key|violates|Erro inesperado/i);
    const refusedJson = await seed('--json');
    expect(refusedJson.code).toBe(1);
    expect(JSON.parse(refusedJson.out).erro).toContain('--forcar');

    const forced = await seed('--forcar', '--json');
    expect(forced).toMatchObject({ code: 0, err: '' });
    expect(JSON.parse(forced.out)).toMatchObject({ lojistas: 3, transacoes: 600 });
    // History kept; sales reloaded.
    const after = await db.admin.query(
      `SELECT (SELECT count(*) FROM consultas_vendas)::int AS consultas,
              (SELECT count(*) FROM transacoes)::int AS transacoes`,
    );
    expect(after.rows[0]).toEqual({ consultas: 1, transacoes: 600 });
  });
});
