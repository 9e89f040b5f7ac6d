/**
 * `balcao bench-cobrancas` end to end at a tiny size (#36): a marked benchmark database, the bench
 * PSP over HTTPS + mutual TLS with a latency per call, the product's own worker and API Pix
 * client. The JSON's numbers are checked, and the database and the PSP's books again here:
 * every charge registrada once, one PUT per charge, the token amortised, no duplicate.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { CobrancasBenchResult } from '../../src-main/bench/cobrancas';
import { APP_ROLE } from '../../src-main/db/roles';
import { urlForDatabase, urlForRole } from '../../src-main/db/urls';
import { runCli } from '../support/cli';
import { TEST_ROLE_PASSWORD } from '../support/db';
import { queryOnce as sql } from '../support/pg-server';

const server = inject('pgServerUrl');
const banco = `balcao_bench_cobrancas_t_${randomBytes(4).toString('hex')}`;
const foreign = `nao_bench_cobrancas_${randomBytes(4).toString('hex')}`;

beforeAll(() => sql(server, `CREATE DATABASE ${foreign}`));
afterAll(async () => {
  await sql(server, `DROP DATABASE IF EXISTS ${banco} WITH (FORCE)`);
  await sql(server, `DROP DATABASE IF EXISTS ${foreign} WITH (FORCE)`);
});

function run(args: string[]) {
  return runCli(args, {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATABASE_URL: server,
    APP_DATABASE_URL: urlForRole(urlForDatabase(server, banco), APP_ROLE, TEST_ROLE_PASSWORD),
    BALCAO_TIME_ZONE: 'America/Sao_Paulo',
    BALCAO_LOG_LEVEL: 'silent',
  });
}

describe('balcao bench-cobrancas', () => {
  it('every confirmed charge is registrada with one PUT, the token amortised, 0 duplicates', async () => {
    const N = 24;
    const r = await run([
      'bench-cobrancas',
      '--cobrancas',
      String(N),
      '--latencia-ms',
      '5',
      '--concorrencia',
      '4',
      '--agentes',
      '3',
      '--banco',
      banco,
      '--prazo-s',
      '120',
      '--json',
    ]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as CobrancasBenchResult;
    expect(j).toMatchObject({
      cobrancas: N,
      registradas: N,
      duplicadas: 0,
      ok: true,
      latencia_psp_ms: 5,
      chamadas: { put: N, get: 0, conflito_409: 0, outras: 0 },
      puts_por_cobranca: 1,
    });
    expect(j.chamadas.token).toBeGreaterThanOrEqual(1);
    expect(j.chamadas.token).toBeLessThan(N / 4);
    expect(j.chamadas_por_cobranca).toBeCloseTo(1 + j.chamadas.token / N, 3);
    expect(j.confirmar_ate_registrada_ms.p50).toBeGreaterThan(0);
    expect(j.confirmar_ate_registrada_ms.p95).toBeGreaterThanOrEqual(
      j.confirmar_ate_registrada_ms.p50,
    );
    expect(j.vazao_cobrancas_s).toBeGreaterThan(0);

    // The database agrees: N charges, each with one dispatch row registrada with its copia-e-cola.
    const db = await sql<{ cobrancas: number; registradas: number; txids: number }>(
      urlForDatabase(server, banco),
      `SELECT (SELECT count(*)::int FROM cobrancas) AS cobrancas,
              count(*) FILTER (WHERE estado = 'registrada' AND copia_e_cola IS NOT NULL)::int AS registradas,
              count(DISTINCT txid)::int AS txids
         FROM cobrancas_envios`,
    );
    expect(db.rows[0]).toEqual({ cobrancas: N, registradas: N, txids: N });
    const mark = await sql<{ c: string }>(
      server,
      `SELECT shobj_description(oid, 'pg_database') AS c FROM pg_database WHERE datname = '${banco}'`,
    );
    expect(JSON.parse(mark.rows[0]!.c)).toMatchObject({ balcao_bench: true });
  }, 180_000);

  it('refuses a database it did not create and leaves it alone', async () => {
    const r = await run(['bench-cobrancas', '--cobrancas', '5', '--banco', foreign, '--json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out).erro).toMatch(/não foi criado pelo benchmark/);
    const still = await sql<{ n: number }>(
      server,
      `SELECT count(*)::int AS n FROM pg_database WHERE datname = '${foreign}'`,
    );
    expect(still.rows[0]!.n).toBe(1);
  });
});
