/**
 * `balcao bench-whatsapp` end to end at a small size (#37): a marked benchmark database, a real
 * `balcao serve` receiving Meta's signed deliveries (some played twice), real workers with the
 * fake model, our questions at the fake Graph API (checked against Meta's schema). Its
 * invariants are checked from the JSON and again from the database — every message stored
 * once, every question sent once — never its timings.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { WhatsAppBenchResult } from '../../src-main/bench/whatsapp';
import { APP_ROLE } from '../../src-main/db/roles';
import { urlForDatabase, urlForRole } from '../../src-main/db/urls';
import { runCli } from '../support/cli';
import { TEST_ROLE_PASSWORD } from '../support/db';
import { queryOnce as sql } from '../support/pg-server';

const server = inject('pgServerUrl');
const banco = `balcao_bench_whatsapp_t_${randomBytes(4).toString('hex')}`;
const foreign = `nao_bench_whatsapp_${randomBytes(4).toString('hex')}`;

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

describe('balcao bench-whatsapp', () => {
  it('every message is stored once before its ack and answered with one question', async () => {
    const N = 100;
    const r = await run([
      'bench-whatsapp',
      '--mensagens',
      String(N),
      '--paralelo',
      '8',
      '--latencia-modelo-ms',
      '20',
      '--latencia-graph-ms',
      '5',
      '--reenvios-pct',
      '10',
      '--banco',
      banco,
      '--prazo-s',
      '240',
      '--json',
    ]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as WhatsAppBenchResult;
    expect(j).toMatchObject({
      mensagens: N,
      guardadas: N,
      perguntas_entregues: N,
      guardadas_depois_do_ack: 0,
      duplicadas: 0,
      violacoes: 0,
      ok: true,
    });
    // Deliveries played again by "Meta" changed nothing.
    expect(j.reenvios).toBeGreaterThan(0);

    // The database agrees: one received row and one intake message per wamid; one question per
    // message, each sent once (its wamid from the fake), none failed.
    const db = await sql<{
      recebidas: number;
      mensagens: number;
      distintas: number;
      perguntas: number;
      enviadas: number;
      origens: number;
    }>(
      urlForDatabase(server, banco),
      `SELECT (SELECT count(*)::int FROM whatsapp_recebidas) AS recebidas,
              (SELECT count(*)::int FROM mensagens WHERE canal = 'whatsapp') AS mensagens,
              (SELECT count(DISTINCT mensagem_id)::int FROM mensagens WHERE canal = 'whatsapp') AS distintas,
              count(*)::int AS perguntas,
              count(*) FILTER (WHERE wamid IS NOT NULL AND estado <> 'falhou')::int AS enviadas,
              count(DISTINCT origem)::int AS origens
         FROM mensagens_saida WHERE canal = 'whatsapp' AND tipo = 'pergunta'`,
    );
    expect(db.rows[0]).toEqual({
      recebidas: N,
      mensagens: N,
      distintas: N,
      perguntas: N,
      enviadas: N,
      origens: N,
    });
    const mark = await sql<{ c: string }>(
      server,
      `SELECT shobj_description(oid, 'pg_database') AS c FROM pg_database WHERE datname = '${banco}'`,
    );
    expect(JSON.parse(mark.rows[0]!.c)).toMatchObject({ balcao_bench: true });
  }, 240_000);

  it('refuses a database it did not create and leaves it alone', async () => {
    const r = await run(['bench-whatsapp', '--mensagens', '5', '--banco', foreign, '--json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out).erro).toMatch(/não foi criado pelo benchmark/);
    const still = await sql<{ n: number }>(
      server,
      `SELECT count(*)::int AS n FROM pg_database WHERE datname = '${foreign}'`,
    );
    expect(still.rows[0]!.n).toBe(1);
  });
});
