/**
 * #11 part 8: the fault matrix. For each operation — claim, renew, confirm, discard, rerun, list,
 * sales question, free SQL, extract batch — the backends serving it are killed at a random point
 * (pg_terminate_backend from an admin connection), many times. The process stays up; each
 * operation either completed or failed with a pt-BR error; re-running finishes the work exactly
 * once; invariants hold: each charge has exactly one audit entry, no extraction without its
 * attempts, no lost (or doubled) log rows.
 *
 * Seeded: BALCAO_FAULT_SEED=<n> reproduces a run (the seed and the matrix size are printed).
 * Two CLI commands at once on the embedded default and a CLI after `kill -9` of another are in
 * embedded-shared.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isAppError } from '../../src-shared/errors';
import { TOOL_CONSULTAR_VENDAS } from '../../src-shared/sales-dsl';
import { clockForLocalDate, fixedClock } from '../../src-main/clock';
import { createPool } from '../../src-main/db/pool';
import { createExtractionRerunner } from '../../src-main/queue/rerunner';
import { extractionChargeRules } from '../../src-main/queue/rules';
import { createQueueService } from '../../src-main/queue/service';
import { askSales } from '../../src-main/sales';
import { createMemorySettings } from '../../src-main/settings/memory';
import { createFreeQueryLog, runFreeSql } from '../../src-main/sales/free-sql/run';
import { silentLogger } from '../../src-main/util/logger';
import { cliEnv, runCliUntrimmed } from '../support/cli';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { startFakeAnthropic, toolUseReply, type FakeAnthropic } from '../support/fake-anthropic';
import { dados, ensureMerchants, insertExtraction } from '../support/queue-fixtures';

const SEED = Number(process.env.BALCAO_FAULT_SEED ?? 20261201);
const ROUNDS = 6;
const APP = 'matriz-app';
const ANALYTICS = 'matriz-analytics';

/** mulberry32: a small seeded generator, so a failing run can be replayed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = rng(SEED);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let db: TestDatabase;
let fake: FakeAnthropic;
let app: pg.Pool;
let analytics: pg.Pool;
const uncaught: unknown[] = [];
const onUncaught = (e: unknown) => uncaught.push(e);
type Stat = { op: string; ok: number; falhou: number; mortes: number };
/** One row per operation; a retried test (CI) replaces its row instead of adding one. */
const matrix: Stat[] = [];
function statFor(op: string): Stat {
  const stat = { op, ok: 0, falhou: 0, mortes: 0 };
  const at = matrix.findIndex((m) => m.op === op);
  if (at >= 0) matrix[at] = stat;
  else matrix.push(stat);
  return stat;
}

beforeAll(async () => {
  [db, fake] = await Promise.all([createTestDatabase(), startFakeAnthropic()]);
  await ensureMerchants(db.admin, { 1: 'Padaria Central' });
  await db.admin.query(
    `INSERT INTO transacoes (merchant_id, status, modalidade, bandeira, valor_bruto_centavos,
       valor_liquido_centavos, aprovada_em)
     SELECT 1, 'aprovada', 'pix', NULL, 1000 + g, 990 + g, '2026-11-29T15:00:00Z'::timestamptz
       FROM generate_series(1, 200) g`,
  );
  app = createPool(db.appUrl, { max: 4, applicationName: APP });
  analytics = createPool(db.analyticsUrl, { max: 4, applicationName: ANALYTICS });
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onUncaught);
});
afterAll(async () => {
  process.off('uncaughtException', onUncaught);
  process.off('unhandledRejection', onUncaught);
  console.log(
    `matriz de falhas (semente ${SEED}): ${matrix.length} operações × ${ROUNDS} rodadas, ` +
      `${matrix.reduce((s, m) => s + m.mortes, 0)} conexões derrubadas\n` +
      matrix.map((m) => `  ${m.op}: ${m.ok} concluídas, ${m.falhou} falharam (pt-BR)`).join('\n'),
  );
  await Promise.allSettled([app.end(), analytics.end()]);
  await Promise.all([db.drop(), fake.close()]);
});
beforeEach(() => {
  uncaught.length = 0;
  fake.reset();
});
afterEach(() => {
  expect(uncaught).toEqual([]);
});

/** Terminates every backend of the pools under test (by application name) in this database. */
async function killAll(names: string[] = [APP, ANALYTICS]): Promise<number> {
  const r = await db.admin.query<{ n: number }>(
    `SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND application_name = ANY($1::text[])`,
    [names],
  );
  return r.rows[0]!.n;
}

/** A pt-BR message that names what happened: no driver or English text. */
function expectPtBr(e: unknown): void {
  expect(isAppError(e), String(e)).toBe(true);
  const m = (e as Error).message;
  expect(m).toMatch(/[ãçáéíóõê]|Tente|banco|conexão|consulta/);
  expect(m).not.toMatch(/terminat|Connection|ECONN|error:|undefined/i);
}

/**
 * Runs `op` ROUNDS times; each round a kill lands at a random point (0–`maxDelayMs` ms in).
 * Every failure is a pt-BR AppError; `finish` re-runs a failed round without faults.
 */
async function faultRounds<T>(
  name: string,
  op: (round: number) => Promise<T>,
  opts: { maxDelayMs?: number; finish?: (round: number) => Promise<unknown> } = {},
): Promise<{ results: (T | undefined)[]; failed: number[] }> {
  const stat = statFor(name);
  const results: (T | undefined)[] = [];
  const failed: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const delay = Math.floor(random() * (opts.maxDelayMs ?? 25));
    const killer = sleep(delay).then(async () => (stat.mortes += await killAll()));
    const outcome = await op(round).then(
      (v) => ({ ok: true as const, v }),
      (e: unknown) => ({ ok: false as const, e }),
    );
    await killer;
    if (outcome.ok) {
      stat.ok++;
      results.push(outcome.v);
    } else {
      stat.falhou++;
      expectPtBr(outcome.e);
      failed.push(round);
      results.push(undefined);
      if (opts.finish) await opts.finish(round);
    }
  }
  return { results, failed };
}

function agent(name: string) {
  const settings = createMemorySettings(
    {
      operator: name,
      timeZone: 'America/Sao_Paulo',
      anthropicBaseUrl: fake.url,
      maxRetries: 0,
      requestTimeoutMs: 5_000,
    },
    { ANTHROPIC_API_KEY: 'sk-ant-teste-000000000000000000' },
  );
  const clock = fixedClock(new Date('2026-11-30T15:00:00Z'));
  return createQueueService({
    pool: app,
    clock,
    settings,
    rules: extractionChargeRules,
    rerunner: createExtractionRerunner({ settings, clock }),
  });
}

async function audits(id: number, acao: string): Promise<number> {
  const r = await db.admin.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM auditoria WHERE extracao_id = $1 AND acao = $2',
    [id, acao],
  );
  return r.rows[0]!.n;
}

async function openItem(): Promise<number> {
  return insertExtraction(db.admin, { dados: dados() });
}

async function claimToken(svc: ReturnType<typeof agent>, id: number): Promise<string> {
  let last: unknown;
  for (let i = 0; i < 3; i++) {
    const r = await svc.claim(id).catch((e: unknown) => {
      last = e;
      return null;
    });
    if (r?.claimed) return r.token;
    if (r) last = r.mensagem;
  }
  throw new Error(`claim did not succeed without faults: ${String(last)}`);
}

describe('fault matrix: queue operations', () => {
  const ana = () => agent('ana');

  it('claim and renew', async () => {
    const ids = await Promise.all(Array.from({ length: ROUNDS }, openItem));
    const tokens: string[] = [];
    await faultRounds(
      'claim',
      async (i) => {
        const r = await ana().claim(ids[i]!);
        if (!r.claimed) throw new Error(r.mensagem);
        tokens[i] = r.token;
      },
      { finish: async (i) => (tokens[i] = await claimToken(ana(), ids[i]!)) },
    );
    // Exactly one live lease per item, held by ana.
    const r = await db.admin.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM extracoes WHERE id = ANY($1::bigint[])
          AND lease_operador = 'ana' AND lease_token IS NOT NULL`,
      [ids],
    );
    expect(r.rows[0]!.n).toBe(ROUNDS);
    await faultRounds('renew', (i) => ana().renew(ids[i]!, tokens[i]!), {
      finish: (i) => ana().renew(ids[i]!, tokens[i]!),
    });
  });

  it('confirm: each charge exactly once, with exactly one audit entry', async () => {
    const ids = await Promise.all(Array.from({ length: ROUNDS }, openItem));
    const tokens = await Promise.all(ids.map((id) => claimToken(ana(), id)));
    const confirm = (i: number) =>
      ana().confirm({ id: ids[i]!, token: tokens[i]!, dados: dados() });
    await faultRounds('confirm', confirm, {
      maxDelayMs: 120,
      finish: async (i) => {
        // "Saved or not?" after a commit-time loss: re-running is safe (idempotent).
        for (let k = 0; k < 3; k++)
          if (
            await confirm(i).then(
              () => true,
              () => false,
            )
          )
            return;
        throw new Error('confirm did not finish without faults');
      },
    });
    // Re-running every confirm once more changes nothing.
    await Promise.all(ids.map((_, i) => confirm(i).catch(() => undefined)));
    const r = await db.admin.query<{ id: number; n: number }>(
      `SELECT e.id::int AS id, count(c.*)::int AS n FROM extracoes e
         LEFT JOIN cobrancas c ON c.extracao_id = e.id
        WHERE e.id = ANY($1::bigint[]) GROUP BY e.id`,
      [ids],
    );
    expect(r.rows.map((x) => x.n)).toEqual(ids.map(() => 1));
    for (const id of ids) expect(await audits(id, 'cobranca_criada')).toBe(1);
  });

  it('discard: each item discarded once, one audit entry', async () => {
    const ids = await Promise.all(Array.from({ length: ROUNDS }, openItem));
    const tokens = await Promise.all(ids.map((id) => claimToken(ana(), id)));
    const discard = (i: number) =>
      ana().discard({ id: ids[i]!, token: tokens[i]!, motivo: 'duplicada' });
    await faultRounds('discard', discard, {
      maxDelayMs: 120,
      finish: async (i) => {
        if ((await audits(ids[i]!, 'descartada')) === 0) await discard(i);
      },
    });
    for (const id of ids) expect(await audits(id, 'descartada')).toBe(1);
  });

  it('rerun (merchant answer): one new round per item, attempts stored with it', async () => {
    fake.handle(() =>
      toolUseReply('registrar_cobranca', dados(), { delayMs: Math.floor(random() * 10) }),
    );
    const ids = await Promise.all(
      Array.from({ length: ROUNDS }, () =>
        insertExtraction(db.admin, {
          dados: dados({ valor_centavos: null, faltando: ['valor_centavos'] }),
          status: 'incompleto',
        }),
      ),
    );
    const tokens = await Promise.all(ids.map((id) => claimToken(ana(), id)));
    const answer = (i: number) =>
      ana().recordAnswer({ id: ids[i]!, token: tokens[i]!, resposta: 'são 150 reais' });
    await faultRounds('rerun', answer, {
      maxDelayMs: 40,
      finish: async (i) => {
        // The lease survives a failed re-run: answer again with the same token.
        if ((await audits(ids[i]!, 'extracao_complementada')) === 0) await answer(i);
      },
    });
    for (const id of ids) expect(await audits(id, 'extracao_complementada')).toBe(1);
  });

  it('list keeps answering (reads retry once) or fails in pt-BR', async () => {
    const { results } = await faultRounds('list', () =>
      ana().list({ limit: 20, view: 'aberta', sort: 'recentes' } as never),
    );
    expect(results.some((r) => r !== undefined)).toBe(true);
  });
});

describe('fault matrix: sales question and free SQL', () => {
  const settings = createMemorySettings(
    {
      timeZone: 'America/Sao_Paulo',
      operator: 'bia',
      anthropicBaseUrl: fake?.url,
      maxRetries: 0,
      model: 'claude-sonnet-4-6',
    },
    { ANTHROPIC_API_KEY: 'chave-de-teste' },
  );

  async function logRows(table: string, col: string, value: string): Promise<number> {
    const r = await db.admin.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${table} WHERE ${col} = $1`,
      [value],
    );
    return r.rows[0]!.n;
  }

  it('sales question: answered or pt-BR error, one log row per question (none lost or doubled)', async () => {
    fake.handle(() =>
      toolUseReply(TOOL_CONSULTAR_VENDAS, { metrica: 'total_bruto', periodo: 'ontem' }),
    );
    const s = createMemorySettings(
      { ...settings.get(), anthropicBaseUrl: fake.url },
      { ANTHROPIC_API_KEY: 'chave-de-teste' },
    );
    const marker = `matriz-pergunta-${SEED}`;
    await faultRounds('pergunta de vendas', (i) =>
      askSales(
        {
          dbs: { app, analytics },
          settings: s,
          clock: clockForLocalDate('2026-11-30', 'America/Sao_Paulo'),
          logger: silentLogger,
        },
        { merchantId: 1, pergunta: `${marker} ${i} quanto vendi ontem?` },
      ),
    );
    const counts = [];
    for (let i = 0; i < ROUNDS; i++) {
      counts.push(
        await logRows('consultas_vendas', 'pergunta', `${marker} ${i} quanto vendi ontem?`),
      );
    }
    expect(counts).toEqual(counts.map(() => 1));
  });

  it('free SQL: rows or pt-BR error, one log row per attempt', async () => {
    const log = createFreeQueryLog(app, silentLogger);
    const sqlOf = (i: number) =>
      `SELECT count(*) AS n, sum(valor_bruto_centavos) AS total FROM vendas_ia /* matriz-${SEED}-${i} */`;
    await faultRounds('SQL livre', (i) =>
      runFreeSql(
        analytics,
        { timeoutMs: 3000, timeZone: 'America/Sao_Paulo' },
        { merchantId: 1, origem: 'cli', sql: sqlOf(i) },
        log,
      ),
    );
    for (let i = 0; i < ROUNDS; i++)
      expect(await logRows('consultas_livres', 'sql', sqlOf(i))).toBe(1);
  });
});

describe('fault matrix: balcao extract --file', () => {
  it('a batch under kills prints what finished and exits 1; re-running finishes the rest exactly once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'balcao-matriz-'));
    try {
      const file = join(dir, 'lote.jsonl');
      const N = 12;
      const lines = Array.from({ length: N }, (_, i) => ({
        texto: `matriz ${SEED}: ${i % 6 === 5 ? 'repetida' : `linha ${i}`}: 150 reais no pix pro João`,
      }));
      writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n'));
      fake.handle(() =>
        toolUseReply('registrar_cobranca', dados({ metodo: 'pix', parcelas: 1 }), {
          delayMs: 5 + Math.floor(random() * 20),
        }),
      );
      const env = cliEnv(db, {
        ANTHROPIC_API_KEY: 'sk-ant-teste-000000000000000000',
        ANTHROPIC_BASE_URL: fake.url,
        BALCAO_MAX_RETRIES: '0',
        BALCAO_TIME_ZONE: 'America/Sao_Paulo',
      });
      const run = () =>
        runCliUntrimmed(
          [
            'extract',
            '--file',
            file,
            '--merchant',
            '1',
            '--hoje',
            '2026-11-30',
            '--concorrencia',
            '3',
          ],
          env,
        );
      const stat = statFor('lote extract --file');
      // Kill every app/analytics backend of this database a few times while the batch runs.
      let running = true;
      const killer = (async () => {
        // Faults land mid-batch: once the first message reached the model.
        while (running && fake.requests.length === 0) await sleep(5);
        // Three rounds of kills at random points while the batch runs.
        for (let k = 0; running && k < 3; k++) {
          await sleep(30 + Math.floor(random() * 120));
          const r = await db.admin.query<{ n: number }>(
            `SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
              WHERE datname = current_database() AND usename IN ('balcao_app', 'balcao_analytics')
                AND application_name NOT IN ('${APP}', '${ANALYTICS}')`,
          );
          stat.mortes += r.rows[0]!.n;
        }
      })();
      const first = await run().finally(() => (running = false));
      await killer;
      const printed = first.out.split('\n').filter((l) => /^linha \d+:/.test(l));
      expect(printed).toHaveLength(N);
      for (const l of printed.filter((x) => x.includes('erro —'))) {
        expect(l).toMatch(/erro — .*(banco|conexão|Tente)/);
      }
      stat.ok = printed.filter((l) => !l.includes('erro —')).length;
      stat.falhou = N - stat.ok;
      expect(first.code).toBe(stat.falhou > 0 ? 1 : 0);
      // Re-run without faults (as many times as needed): everything done, nothing twice.
      let again = await run();
      for (let k = 0; k < 2 && again.code !== 0; k++) again = await run();
      expect(again.code).toBe(0);
      expect(again.out).toMatch(new RegExp(`${stat.ok} já processadas antes|${N} mensagens`));
      const r = await db.admin.query<{ n: number; chaves: number; sem_tentativas: number }>(
        `SELECT count(*)::int AS n, count(DISTINCT chave_lote)::int AS chaves,
                count(*) FILTER (WHERE NOT EXISTS (
                  SELECT 1 FROM extracao_tentativas t WHERE t.extracao_id = e.id))::int AS sem_tentativas
           FROM extracoes e WHERE texto LIKE $1`,
        [`matriz ${SEED}:%`],
      );
      expect(r.rows[0]).toEqual({ n: N, chaves: N, sem_tentativas: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('invariants over the whole matrix', () => {
  it('every charge has exactly one audit entry; no extraction without its attempts', async () => {
    const charges = await db.admin.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM cobrancas c
        WHERE (SELECT count(*) FROM auditoria a
                WHERE a.extracao_id = c.extracao_id AND a.acao = 'cobranca_criada') <> 1`,
    );
    expect(charges.rows[0]!.n).toBe(0);
    const orphan = await db.admin.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM extracoes e
        WHERE NOT EXISTS (SELECT 1 FROM extracao_tentativas t WHERE t.extracao_id = e.id)`,
    );
    expect(orphan.rows[0]!.n).toBe(0);
    expect(matrix.length).toBe(9);
  });
});
