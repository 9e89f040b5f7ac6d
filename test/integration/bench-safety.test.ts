/**
 * `balcao bench --banco <nome>` drops and recreates only databases it created itself (marked
 * in their comment); any other existing database is refused in pt-BR and left untouched.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { isBenchMarked } from '../../src-main/bench/generate';
import { urlForDatabase } from '../../src-main/db/urls';
import { runCli } from '../support/cli';
import { queryOnce } from '../support/pg-server';

const server = inject('pgServerUrl');
const foreign = `cli_nao_bench_${randomBytes(4).toString('hex')}`;

const sql = <T extends pg.QueryResultRow>(text: string, values: unknown[] = []) =>
  queryOnce<T>(server, text, values);

beforeAll(async () => {
  await sql(`CREATE DATABASE ${foreign}`);
  const c = new pg.Client({ connectionString: urlForDatabase(server, foreign) });
  await c.connect();
  await c.query('CREATE TABLE importante (x int); INSERT INTO importante VALUES (42)');
  await c.end();
});
afterAll(() => sql(`DROP DATABASE IF EXISTS ${foreign} WITH (FORCE)`));

function run(args: string[]) {
  return runCli(args, {
    DATABASE_URL: server,
    BALCAO_TIME_ZONE: 'America/Sao_Paulo',
    BALCAO_LOG_LEVEL: 'silent',
  });
}

describe('bench --banco safety', () => {
  it('refuses an existing database it did not create, even with --regenerar', async () => {
    for (const extra of [[], ['--regenerar']]) {
      const r = await run(['bench', '--rows', '6000', '--reps', '1', '--banco', foreign, ...extra]);
      expect(r.code).toBe(1);
      expect(r.err).toBe(
        `balcao: O banco "${foreign}" já existe e não foi criado pelo benchmark; o bench só apaga e recria bancos que ele mesmo criou. Escolha outro nome em --banco (ex.: balcao_bench_teste).`,
      );
    }
    const j = await run(['bench', '--rows', '6000', '--banco', foreign, '--json']);
    expect(j.code).toBe(1);
    expect(JSON.parse(j.out).erro).toMatch(/não foi criado pelo benchmark/);
    // Untouched.
    const c = new pg.Client({
      connectionString: urlForDatabase(server, foreign),
    });
    await c.connect();
    try {
      expect((await c.query('SELECT x FROM importante')).rows).toEqual([{ x: 42 }]);
    } finally {
      await c.end();
    }
  });

  it('the mark: set at creation, kept by the generation meta; foreign comments are not marks', () => {
    expect(isBenchMarked('{"balcao_bench":true}')).toBe(true);
    expect(isBenchMarked('{"balcao_bench":true,"version":3,"rows":6000}')).toBe(true);
    expect(isBenchMarked('{"version":3,"rows":6000,"merchants":2}')).toBe(true); // before the mark
    expect(isBenchMarked(null)).toBe(false);
    expect(isBenchMarked('banco de produção')).toBe(false);
    expect(isBenchMarked('{"version":"x"}')).toBe(false);
  });
});
