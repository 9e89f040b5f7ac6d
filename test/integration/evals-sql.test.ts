/**
 * The free-SQL eval suite on real PostgreSQL: its fixed data, every reference query under the
 * product's guard and tenant, and the verdicts on hand-made model answers served by the fake
 * Messages API over real HTTP (the real SDK and tool loop).
 */
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createEvalSqlDatabase,
  executarCasoSql,
  projectRoot,
  readCases,
  suiteSql,
} from '../../src-main/evals';
import type { EvalSqlDatabase } from '../../src-main/evals/sql-data';
import type { CasoSql } from '../../src-main/evals/sql';
import { urlForDatabase } from '../../src-main/db/urls';
import { runFreeSql } from '../../src-main/sales/free-sql/run';
import { createMemorySettings } from '../../src-main/settings/memory';
import { createTestDatabase, type TestDatabase } from '../support/db';
import {
  startFakeAnthropic,
  statusReply,
  toolUseReply,
  type FakeAnthropic,
} from '../support/fake-anthropic';

let db: TestDatabase;
let evalDb: EvalSqlDatabase;
let fake: FakeAnthropic;

beforeAll(async () => {
  [db, fake] = await Promise.all([createTestDatabase(), startFakeAnthropic()]);
  evalDb = await createEvalSqlDatabase(db.adminUrl, db.analyticsUrl);
}, 120_000);
afterAll(async () => {
  await evalDb?.drop();
  await Promise.all([db.drop(), fake.close()]);
});
beforeEach(() => fake.reset());

const settings = createMemorySettings(
  { timeZone: 'America/Sao_Paulo', maxAttempts: 3, model: 'claude-sonnet-4-6' },
  {},
);
const ctx = () => ({
  client: new Anthropic({ apiKey: 'teste', baseURL: fake.url, maxRetries: 0, timeout: 5000 }),
  settings,
  config: settings.get(),
  sqlDb: { analytics: evalDb.analytics, merchantId: evalDb.merchantId },
});
const casos = readCases(suiteSql, join(projectRoot(), suiteSql.arquivo)).map((c) => c.caso);
const run = (sql: string) =>
  runFreeSql(
    evalDb.analytics,
    { timeoutMs: 5000, timeZone: 'America/Sao_Paulo' },
    { merchantId: evalDb.merchantId, sql, origem: 'cli' },
  );

describe('evals/sql.jsonl', () => {
  it('has at least 20 cases covering what the DSL cannot express', () => {
    expect(casos.length).toBeGreaterThanOrEqual(20);
    const txt = casos.map((c) => c.pergunta.toLowerCase());
    for (const s of [
      'maior venda',
      'número de parcelas',
      'primeira venda de cada dia',
      'não vendi nada',
      'semana a semana',
    ]) {
      expect(
        txt.some((t) => t.includes(s)),
        s,
      ).toBe(true);
    }
  });

  it('every reference query passes the guard and answers from the fixed data', async () => {
    for (const c of casos) {
      const r = await run(c.sql_referencia);
      expect(r.linhas.length, c.pergunta).toBeGreaterThan(0);
      expect(r.truncado, c.pergunta).toBe(false);
    }
  });

  it('the fixed data holds another merchant whose sales never reach the answers', async () => {
    const admin = new pg.Client({ connectionString: urlForDatabase(db.adminUrl, evalDb.name) });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ merchant_id: string; n: number; max: string }>(
        `SELECT merchant_id, count(*)::int AS n, max(valor_bruto_centavos)::text AS max
           FROM transacoes WHERE status = 'aprovada' GROUP BY 1 ORDER BY 1`,
      );
      expect(rows.map((r) => Number(r.merchant_id))).toEqual([1, 2]);
      const r = await run('SELECT count(*) AS n, max(valor_bruto_centavos) AS m FROM vendas_ia');
      // Positional rows: [n, m].
      const [linha] = r.linhas as unknown as unknown[][];
      expect(Number(linha![0])).toBe(rows[0]!.n);
      expect(String(linha![1])).toBe(rows[0]!.max);
      expect(rows[1]!.n).not.toBe(rows[0]!.n);
    } finally {
      await admin.end();
    }
  });
});

describe('verdicts on hand-made model answers', () => {
  const caso: CasoSql = {
    pergunta: 'quantas vendas eu fiz por número de parcelas em março?',
    hoje: '2026-04-02',
    sql_referencia:
      "SELECT parcelas, count(*) AS quantidade FROM vendas_ia WHERE aprovada_em >= '2026-03-01' AND aprovada_em < '2026-04-01' GROUP BY parcelas",
  };
  const respond = (...sqls: string[]) => {
    let i = 0;
    fake.handle(() => toolUseReply('escrever_sql', { sql: sqls[Math.min(i++, sqls.length - 1)] }));
  };

  it('equal: equivalent SQL of a different shape', async () => {
    respond(
      "SELECT count(*) AS vendas, parcelas AS n FROM vendas_ia WHERE aprovada_em::date BETWEEN '2026-03-01' AND '2026-03-31' GROUP BY 2 ORDER BY 2 DESC",
    );
    const r = await executarCasoSql(caso, ctx());
    expect(r.veredito).toBe('igual');
    expect(r.comparacao.ok).toBe(true);
    expect(fake.requests).toHaveLength(1);
  });

  it('different: an off-by-one date (one day of April counted)', async () => {
    respond(
      "SELECT parcelas, count(*) AS quantidade FROM vendas_ia WHERE aprovada_em::date BETWEEN '2026-03-01' AND '2026-04-01' GROUP BY parcelas",
    );
    const r = await executarCasoSql(caso, ctx());
    expect(r.veredito).toBe('diferente');
    expect(r.comparacao.ok).toBe(false);
    expect(String(r.comparacao.diferencas[0]!.obtido)).toMatch(/Linha \d+ \(após ordenar\)/);
  });

  it('refused by the guard: the clock functions on every attempt', async () => {
    respond(
      "SELECT parcelas, count(*) FROM vendas_ia WHERE aprovada_em > now() - '30 days'::interval GROUP BY 1",
    );
    const r = await executarCasoSql(caso, ctx());
    expect(r.veredito).toBe('recusada');
    expect(r.entradas).toHaveLength(3);
    expect(fake.requests).toHaveLength(3);
  });

  it('error: the model SQL fails when it runs', async () => {
    respond('SELECT parcelas, count(*) / 0 AS quantidade FROM vendas_ia GROUP BY parcelas');
    const r = await executarCasoSql(caso, ctx());
    expect(r.veredito).toBe('erro');
    expect(r.erro).toMatch(/^a consulta do modelo falhou: /);
  });

  it('error: the API fails (not counted as a model mistake)', async () => {
    fake.handle(() => statusReply(400, { message: 'requisição inválida' }));
    const r = await executarCasoSql(caso, ctx());
    expect(r.veredito).toBe('erro');
    expect(r.comparacao.ok).toBe(false);
  });
});

describe('balcao eval --suite sql (CLI)', () => {
  it('creates the fixed data, replays and prints the verdicts', async () => {
    const { main } = await import('../../src-main/cli/main');
    const { readRecordings, recordingsFile, replayInput } = await import('../../src-main/evals');
    const gravacoes = readRecordings(recordingsFile(projectRoot(), 'sql'));
    fake.handle((req) => toolUseReply('escrever_sql', replayInput(gravacoes, req.body)));
    let out = '';
    const code = await main(
      ['eval', '--suite', 'sql', '--json'],
      { out: (t) => void (out += t), err: () => undefined, isTTY: false },
      {
        ANTHROPIC_API_KEY: 'replay',
        ANTHROPIC_BASE_URL: fake.url,
        ANTHROPIC_MODEL: 'claude-sonnet-4-6',
        DATABASE_URL: db.adminUrl,
        APP_DATABASE_URL: db.appUrl,
        ANALYTICS_DATABASE_URL: db.analyticsUrl,
        BALCAO_LOG_LEVEL: 'silent',
      },
    );
    expect(code).toBe(0);
    const j = JSON.parse(out) as {
      suites: { suite: string; total: number; vereditos: Record<string, number> }[];
    };
    expect(j.suites[0]).toMatchObject({
      suite: 'sql',
      total: casos.length,
      vereditos: { igual: casos.length, diferente: 0, recusada: 0, erro: 0 },
    });
  }, 120_000);
});

describe('the suite database', () => {
  it('is dropped by drop(), leaving nothing behind', async () => {
    const extra = await createEvalSqlDatabase(db.adminUrl, db.analyticsUrl);
    const admin = new pg.Client({ connectionString: db.adminUrl });
    await admin.connect();
    try {
      const exists = async () =>
        (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [extra.name])).rowCount;
      expect(await exists()).toBe(1);
      await extra.drop();
      expect(await exists()).toBe(0);
    } finally {
      await admin.end();
    }
  }, 120_000);
});
