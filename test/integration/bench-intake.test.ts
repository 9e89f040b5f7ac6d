/**
 * `balcao bench-intake --matar` end to end at a tiny size: a marked benchmark database, the fake
 * Messages API over HTTP (latency, 429 with retry-after, 5xx), two real `balcao worker`
 * processes, one of them `kill -9`ed mid-run and restarted. The JSON's invariants are checked,
 * and the database is checked again here independently of the bench's own books.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { IntakeBenchResult } from '../../src-main/bench/intake-report';
import { APP_ROLE } from '../../src-main/db/roles';
import { urlForDatabase, urlForRole } from '../../src-main/db/urls';
import { runCli } from '../support/cli';
import { TEST_ROLE_PASSWORD } from '../support/db';
import { queryOnce as sql } from '../support/pg-server';

const server = inject('pgServerUrl');
const banco = `balcao_bench_intake_t_${randomBytes(4).toString('hex')}`;
const foreign = `nao_bench_intake_${randomBytes(4).toString('hex')}`;

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

describe('balcao bench-intake', () => {
  it('kill -9 of a worker mid-run: 0 duplicates, 0 lost, no stored attempt paid again', async () => {
    const N = 30;
    const r = await run([
      'bench-intake',
      '--mensagens',
      String(N),
      '--workers',
      '2',
      '--concorrencia',
      '4',
      '--em-voo',
      '4',
      '--latencia-ms',
      '150',
      '--jitter-ms',
      '50',
      '--taxa-429',
      '0.04',
      '--taxa-5xx',
      '0.06',
      '--job-expira-s',
      '5',
      '--prazo-s',
      '150',
      '--matar',
      '--banco',
      banco,
      '--json',
    ]);
    expect(r.err).toBe('');
    const j = JSON.parse(r.out) as IntakeBenchResult;
    expect(r.code).toBe(0);
    expect(j.ok).toBe(true);
    expect(j.mensagens).toBe(N);
    expect(j.duplicadas).toBe(0);
    expect(j.perdidas).toBe(0);
    // Each merchant's messages concluded in arrival order, kill -9 included.
    expect(j.fora_de_ordem).toBe(0);
    expect(j.repetidas_apos_gravar).toBe(0);
    // A second payment for one attempt only ever comes from an answer that never got stored
    // (delivered to the worker in the instant before it died): never from the resume logic.
    expect(j.pagas_duas_vezes).toBe(j.respostas_nao_gravadas);
    expect(j.resultados).toEqual(j.resultados_esperados);
    expect(j.pico_em_voo).toBeLessThanOrEqual(4);
    expect(j.chamadas_api_por_mensagem).toBeGreaterThanOrEqual(j.tentativas_pagas_por_mensagem);
    expect(j.tentativas_pagas_por_mensagem).toBeGreaterThan(1); // corrections and failures retry
    expect(j.vazao_msg_s).toBeGreaterThan(0);
    expect(j.latencia_ms.p95).toBeGreaterThanOrEqual(j.latencia_ms.p50);
    expect(j.sobrecarga_ms.jobs_medidos).toBeGreaterThanOrEqual(N - 8);
    // The kill was real: the process is gone, and its jobs were handed out again.
    expect(j.kill).not.toBeNull();
    expect(() => process.kill(j.kill!.pid, 0)).toThrow();
    expect(j.kill!.concluidas_antes).toBeLessThan(N);
    expect(j.jobs_retomados).toBeGreaterThan(0);

    // The database, checked here on its own: one outcome per message, one charge per clean one.
    const db = urlForDatabase(server, banco);
    const m = await sql<{ estado: string; n: number }>(
      db,
      'SELECT estado, count(*)::int AS n FROM mensagens GROUP BY 1',
    );
    expect(m.rows).toEqual([{ estado: 'concluida', n: N }]);
    const e = await sql<{ extracoes: number; textos: number; cobrancas: number }>(
      db,
      `SELECT (SELECT count(*)::int FROM extracoes) AS extracoes,
              (SELECT count(DISTINCT texto)::int FROM extracoes) AS textos,
              (SELECT count(*)::int FROM cobrancas) AS cobrancas`,
    );
    expect(e.rows[0]).toEqual({
      extracoes: N,
      textos: N,
      cobrancas: j.resultados_esperados.cobranca_criada,
    });
    // Marked as a benchmark database (a later run may drop it; nothing else is ever dropped).
    const mark = await sql<{ c: string }>(
      server,
      `SELECT shobj_description(oid, 'pg_database') AS c FROM pg_database WHERE datname = '${banco}'`,
    );
    expect(JSON.parse(mark.rows[0]!.c)).toMatchObject({ balcao_bench: true });
  }, 240_000);

  it('refuses a database it did not create and leaves it alone', async () => {
    const r = await run(['bench-intake', '--mensagens', '5', '--banco', foreign, '--json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out).erro).toMatch(/não foi criado pelo benchmark/);
    const still = await sql<{ n: number }>(
      server,
      `SELECT count(*)::int AS n FROM pg_database WHERE datname = '${foreign}'`,
    );
    expect(still.rows[0]!.n).toBe(1);
  });
});
