/**
 * #11 part 6: every question, DSL query and free-SQL attempt is logged, sanitized when it must
 * be; a log write retried after a lost connection is neither lost nor doubled (row key).
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src-main/cli/main';
import type { CliIO } from '../../src-main/cli/io';
import { createPool } from '../../src-main/db/pool';
import { logSalesQuery, type SalesLogEntry } from '../../src-main/sales/log';
import { createFreeQueryLog, runFreeSql } from '../../src-main/sales/free-sql/run';
import { silentLogger } from '../../src-main/util/logger';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { ensureMerchants } from '../support/queue-fixtures';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await ensureMerchants(db.admin, { 1: 'Padaria Central' });
});
afterAll(() => db.drop());

async function count(table: string, where = 'true', values: unknown[] = []): Promise<number> {
  const r = await db.admin.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${table} WHERE ${where}`,
    values,
  );
  return r.rows[0]!.n;
}

const entry = (pergunta: string, dsl: unknown): SalesLogEntry => ({
  merchantId: 1,
  operador: 'ana',
  origem: 'dsl',
  pergunta,
  dsl,
  consulta: null,
  resultado: 'invalida',
  erro: null,
  linhas: null,
  tentativas: 0,
  modelo: null,
  uso: null,
  duracaoMs: 3,
  duracaoSqlMs: null,
});

/** A pool whose first query reaches the server (and commits) but "loses" the reply. */
function losesFirstReply(pool: pg.Pool): Pick<pg.Pool, 'query'> & { calls: number } {
  const p = {
    calls: 0,
    async query(q: pg.QueryConfig) {
      p.calls++;
      const r = await pool.query(q);
      if (p.calls === 1) throw new Error('Connection terminated unexpectedly');
      return r;
    },
  };
  return p as unknown as Pick<pg.Pool, 'query'> & { calls: number };
}

describe('DSL queries and questions holding NUL or lone surrogates are logged (sanitized)', () => {
  it('a DSL whose strings hold \\u0000 and a lone surrogate gets its row', async () => {
    const marker = `nul-${Date.now()}`;
    await logSalesQuery(
      db.app,
      entry(`${marker} qual\u0000 loja \ud800?`, { pergunta_esclarecimento: 'a\u0000b\udc00' }),
      silentLogger,
    );
    const r = await db.admin.query<{ pergunta: string; dsl: unknown }>(
      'SELECT pergunta, dsl FROM consultas_vendas WHERE pergunta LIKE $1',
      [`${marker}%`],
    );
    expect(r.rows).toEqual([
      {
        pergunta: `${marker} qual\ufffd loja \ufffd?`,
        dsl: { pergunta_esclarecimento: 'a\ufffdb\ufffd' },
      },
    ]);
  });

  it('balcao ask --dsl with a NUL in the DSL is answered and logged', async () => {
    const marker = `cli-nul-${Date.now()}`;
    let out = '';
    const io: CliIO = { out: (t) => void (out += t), err: () => undefined, isTTY: false };
    const code = await main(
      ['ask', marker, '--merchant', '1', '--dsl', '{"metrica":"total_bruto","periodo":"x\\u0000"}'],
      io,
      {
        DATABASE_URL: db.adminUrl,
        APP_DATABASE_URL: db.appUrl,
        ANALYTICS_DATABASE_URL: db.analyticsUrl,
        BALCAO_LOG_LEVEL: 'silent',
      },
    );
    expect(code).not.toBe(0);
    expect(await count('consultas_vendas', 'pergunta = $1', [marker])).toBe(1);
  });

  it('a refused free-SQL attempt holding a NUL is logged (sanitized)', async () => {
    const log = createFreeQueryLog(db.app, silentLogger);
    const sql = `SELECT 1 /* refused-${Date.now()} */; DROP TABLE merchants\u0000`;
    await expect(
      runFreeSql(
        db.analytics,
        { timeoutMs: 2000, timeZone: 'America/Sao_Paulo' },
        {
          merchantId: 1,
          origem: 'cli',
          sql,
          pergunta: 'apaga\u0000 tudo',
        },
        log,
      ),
    ).rejects.toMatchObject({ message: expect.stringMatching(/recusada/) });
    const r = await db.admin.query<{ sql: string; veredito: string; pergunta: string }>(
      'SELECT sql, veredito, pergunta FROM consultas_livres WHERE sql = $1',
      [sql.replace('\u0000', '\ufffd')],
    );
    expect(r.rows).toEqual([
      { sql: sql.replace('\u0000', '\ufffd'), veredito: 'recusada', pergunta: 'apaga\ufffd tudo' },
    ]);
  });
});

describe('a log write retried after a lost connection', () => {
  it('consultas_vendas: the committed first try and the retry make exactly one row', async () => {
    const marker = `retry-${Date.now()}`;
    const flaky = losesFirstReply(db.app);
    await logSalesQuery(flaky as unknown as pg.Pool, entry(marker, null), silentLogger);
    expect(flaky.calls).toBe(2);
    expect(await count('consultas_vendas', 'pergunta = $1', [marker])).toBe(1);
  });

  it('consultas_livres: same, exactly one row', async () => {
    const sql = `SELECT 1 /* retry-${Date.now()} */`;
    const flaky = losesFirstReply(db.app);
    await createFreeQueryLog(flaky as unknown as pg.Pool, silentLogger).record({
      merchantId: 1,
      origem: 'cli',
      pergunta: null,
      sql,
      veredito: 'aceita',
      codigo: null,
      motivo: null,
      linhas: 1,
      truncado: false,
      duracaoMs: 1,
    });
    expect(flaky.calls).toBe(2);
    expect(await count('consultas_livres', 'sql = $1', [sql])).toBe(1);
  });

  it('a pool whose connections were all killed still writes the row (not lost)', async () => {
    const pool = createPool(db.appUrl, { max: 2 });
    try {
      await Promise.all([pool.query('SELECT pg_sleep(0.02)'), pool.query('SELECT 1')]);
      await db.admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE usename = 'balcao_app' AND datname = current_database() AND pid <> pg_backend_pid()`,
      );
      const marker = `killed-${Date.now()}`;
      await logSalesQuery(pool, entry(marker, { metrica: 'total_bruto' }), silentLogger);
      expect(await count('consultas_vendas', 'pergunta = $1', [marker])).toBe(1);
    } finally {
      await pool.end();
    }
  });
});
