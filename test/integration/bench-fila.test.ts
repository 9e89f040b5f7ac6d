/**
 * `balcao bench-fila` at a small size (#39.1): real workers feed the queue (a part of it is already there), five agents with their
 * own logins work it through PgBouncer (when the Debian package is installed, as in CI) and read
 * the live queue from the change log. The invariants are asserted, not the timings: no item held
 * by two agents at once, every action in the audit exactly once, every item accounted for and in
 * the state its last action left it, every live event at every other desktop, and the desktops'
 * connections on the primary bounded by the pooler. The database is checked again here.
 */
import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { FilaBenchResult } from '../../src-main/bench/fila';
import { PGBOUNCER_BIN } from '../../src-main/bench/pgbouncer';
import { APP_ROLE } from '../../src-main/db/roles';
import { urlForDatabase, urlForRole } from '../../src-main/db/urls';
import { TEST_ROLE_PASSWORD } from '../support/db';
import { runCli } from '../support/cli';
import { queryOnce as sql } from '../support/pg-server';

const server = inject('pgServerUrl');
const banco = `balcao_bench_fila_t_${randomBytes(4).toString('hex')}`;

afterAll(() => sql(server, `DROP DATABASE IF EXISTS ${banco} WITH (FORCE)`));

describe('balcao bench-fila', () => {
  it('5 agents on a live queue fed by real workers: 0 double claims, 0 lost or doubled actions, every item accounted for', async () => {
    const ITENS = 300;
    const r = await runCli(
      [
        'bench-fila',
        '--agentes',
        '5',
        '--itens',
        String(ITENS),
        '--segundos',
        '8',
        '--pensar-min-ms',
        '100',
        '--pensar-max-ms',
        '400',
        '--pelos-workers',
        '200',
        '--latencia-ms',
        '5',
        '--conexoes-pooler',
        '8',
        '--banco',
        banco,
        '--prazo-s',
        '240',
        '--json',
      ],
      {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATABASE_URL: server,
        // As a deployment gives it (the embedded test server asks the roles for passwords).
        APP_DATABASE_URL: urlForRole(urlForDatabase(server, banco), APP_ROLE, TEST_ROLE_PASSWORD),
        BALCAO_TIME_ZONE: 'America/Sao_Paulo',
        BALCAO_LOG_LEVEL: 'silent',
      },
    );
    expect(r.err).toBe('');
    const j = JSON.parse(r.out) as FilaBenchResult;
    // On failure, the whole report: which of the books did not close.
    expect(r.code, r.out).toBe(0);
    expect(j.ok).toBe(true);
    // 100 items already in the queue, 200 fed by the workers during the run.
    expect(j.itens_pre_carregados).toBe(100);
    expect(j.entrada).toMatchObject({ mensagens: 200, concluidas: 200 });
    expect(j.itens_na_fila).toBe(ITENS);
    expect(j.acoes.confirmadas).toBeGreaterThan(0);
    expect(j.acoes.erros).toBe(0);
    expect(j).toMatchObject({
      assuncoes_duplas: 0,
      acoes_perdidas: 0,
      acoes_duplicadas: 0,
      itens_em_estado_errado: 0,
      itens_sem_conta: 0,
      ao_vivo_nao_recebidas: 0,
      ao_vivo: 'mudancas',
    });
    expect(j.ao_vivo_ms.n).toBeGreaterThan(0);
    // No desktop held a LISTEN session; through PgBouncer, its bound holds.
    expect(j.conexoes.por_aplicacao['balcao-fila-ao-vivo']).toBeUndefined();
    expect(j.pooler.pgbouncer).toBe(existsSync(PGBOUNCER_BIN));
    if (j.pooler.pgbouncer) {
      expect(j.pooler.max_conexoes).toBe(8);
      expect(j.conexoes.pico_desktops).toBeLessThanOrEqual(8);
    }

    // The database, independently of the bench's books.
    const db = urlForDatabase(server, banco);
    const {
      rows: [estados],
    } = await sql<{ resolvidas: number; descartadas: number; cobrancas: number }>(
      db,
      `SELECT count(*) FILTER (WHERE fila_estado = 'resolvida')::int AS resolvidas,
              count(*) FILTER (WHERE fila_estado = 'descartada')::int AS descartadas,
              (SELECT count(*)::int FROM cobrancas) AS cobrancas
         FROM extracoes`,
    );
    expect(estados).toEqual({
      resolvidas: j.acoes.confirmadas,
      descartadas: j.acoes.descartadas,
      cobrancas: j.acoes.confirmadas,
    });
    const {
      rows: [audit],
    } = await sql<{ criadas: number; logins: number }>(
      db,
      `SELECT count(*) FILTER (WHERE acao = 'cobranca_criada')::int AS criadas,
              count(DISTINCT login) FILTER (WHERE acao = 'assumiu')::int AS logins
         FROM auditoria`,
    );
    expect(audit!.criadas).toBe(j.acoes.confirmadas);
    expect(audit!.logins).toBeGreaterThan(1);
    // The run's logins are gone from the server.
    const logins = (
      await sql<{ login: string }>(
        db,
        `SELECT DISTINCT login FROM auditoria WHERE acao = 'assumiu'`,
      )
    ).rows.map((x) => x.login);
    const {
      rows: [left],
    } = await sql<{ n: number }>(
      server,
      `SELECT count(*)::int AS n FROM pg_roles WHERE rolname = ANY($1::text[])`,
      [logins],
    );
    expect(left!.n).toBe(0);
  }, 300_000);
});
