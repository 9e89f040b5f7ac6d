/**
 * #16 on real servers: a PostgreSQL 15 primary, a streaming hot standby (pg_basebackup -R) and a
 * PgBouncer in transaction pooling mode, started for this file (test/support/replica-cluster.ts).
 * Sales reads go to the standby, logs and queue writes to the primary; every answer carries its
 * freshness; a paused replay makes the answer possibly stale (or read from the primary when
 * configured); a stopped or frozen standby fails in bounded time with a pt-BR error (or falls
 * back) while the queue keeps working; tenant transactions, timeouts and cancel behave the same
 * through PgBouncer; `balcao db status` reports each endpoint.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@shared/errors';
import { AGRUPAMENTOS, type ConsultaVendas } from '@shared/sales-dsl';
import { fixedClock } from '../../src-main/clock';
import { connectDatabases, type ConnectedDatabases } from '../../src-main/db/connect';
import { createPool } from '../../src-main/db/pool';
import { withTenantReadOnly } from '../../src-main/db/tenant';
import { answerSalesDsl, type SalesDeps } from '../../src-main/sales';
import {
  executeSalesQuery,
  executeSalesQueryBaseTable,
  executeSalesQueryTenantView,
} from '../../src-main/sales/execute';
import { listQueue } from '../../src-main/queue/list';
import { createMemorySettings } from '../../src-main/settings/memory';
import type { Settings } from '../../src-main/settings/types';
import type { LeituraFrescor } from '../../src-main/db/analytics';
import { executeReadOnly } from '../../src-main/sqlguard/executor';
import { createLogger, silentLogger } from '../../src-main/util/logger';
import { runCli as runCliIn } from '../support/cli';
import { startReplicaCluster, type ReplicaCluster } from '../support/replica-cluster';
import { M1, M2, NORMAL_SQL, row0, seedCanaries } from '../support/sqlguard';

/**
 * Upper bound for "the wait is bounded" checks: the failure they catch is a wait that never ends
 * (a hung standby, a lost cancel), so the bound sits far above every deadline involved and below
 * the tests' own 60 s timeout — machine load cannot make a correct run reach it.
 */
const BOUNDED_MS = 20_000;

const ZONE = 'America/Sao_Paulo';
const CLOCK = fixedClock(new Date('2026-03-20T15:00:00Z'));
const MARCO = { metrica: 'total_bruto', data_inicio: '2026-03-01', data_fim: '2026-03-31' };

let cluster: ReplicaCluster;
/** Direct: app on the primary, analytics on the standby, fallback pools to the primary. */
let direct: ConnectedDatabases;
/** Through PgBouncer: app → `balcao` (primary), analytics → `balcao_replica` (standby). */
let pooled: ConnectedDatabases;
let primaryAdmin: pg.Pool;
let standbyAdmin: pg.Pool;

function settings(over: Partial<Settings>) {
  return createMemorySettings(
    {
      timeZone: ZONE,
      operator: 'replica-teste',
      queryTimeoutMs: 1_500,
      analyticsConnectTimeoutMs: 1_000,
      maxLagS: 60,
      analyticsFallback: 'none',
      ...over,
    },
    {},
  );
}

function deps(dbs: ConnectedDatabases, over: Partial<Settings> = {}): SalesDeps {
  return {
    dbs,
    settings: settings(over),
    clock: CLOCK,
    logger: process.env.DBG ? createLogger('warn') : silentLogger,
  };
}

async function connect(urls: { app: string; analytics: string }): Promise<ConnectedDatabases> {
  return connectDatabases({
    settings: settings({
      databaseUrl: cluster.primaryAdminUrl,
      appDatabaseUrl: urls.app,
      analyticsDatabaseUrl: urls.analytics,
      analyticsFallback: 'primary',
    }).get(),
  });
}

async function logCount(): Promise<number> {
  const r = await primaryAdmin.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM consultas_vendas',
  );
  return r.rows[0]?.n ?? 0;
}

async function total(d: SalesDeps, merchantId = 1) {
  const r = await answerSalesDsl(d, { merchantId, dsl: MARCO });
  if (r.tipo !== 'resposta') throw new Error('sem resposta');
  return r;
}

let nextId = 880_000_000;
async function insertSale(valor: number): Promise<void> {
  await primaryAdmin.query(
    `INSERT INTO transacoes (id, merchant_id, status, modalidade, bandeira, parcelas,
       valor_bruto_centavos, valor_liquido_centavos, aprovada_em)
     VALUES ($1, 1, 'aprovada', 'pix', NULL, 1, $2, $2, '2026-03-10 10:00-03')`,
    [nextId++, valor],
  );
}

/** Waits until the standby has received (not necessarily replayed) everything written so far. */
async function waitReceived(): Promise<void> {
  const lsn = (await primaryAdmin.query<{ l: string }>('SELECT pg_current_wal_lsn()::text AS l'))
    .rows[0]?.l;
  for (let i = 0; i < 200; i++) {
    const r = await standbyAdmin.query<{ ok: boolean }>(
      'SELECT pg_last_wal_receive_lsn() >= $1::pg_lsn AS ok',
      [lsn],
    );
    if (r.rows[0]?.ok) return;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error('a réplica não recebeu o WAL');
}

async function elapsed<T>(p: Promise<T>): Promise<{ ms: number; error: unknown; value?: T }> {
  const t0 = performance.now();
  try {
    const value = await p;
    return { ms: performance.now() - t0, error: undefined, value };
  } catch (error) {
    return { ms: performance.now() - t0, error };
  }
}

beforeAll(async () => {
  cluster = await startReplicaCluster();
  primaryAdmin = createPool(cluster.primaryAdminUrl, { max: 2 });
  standbyAdmin = createPool(cluster.standbyAdminUrl, { max: 2 });
  await seedCanaries(primaryAdmin);
  await cluster.waitForCatchUp();
  direct = await connect({ app: cluster.primaryAppUrl, analytics: cluster.standbyAnalyticsUrl });
  pooled = await connect({
    app: cluster.bouncerPrimaryAppUrl,
    analytics: cluster.bouncerReplicaAnalyticsUrl,
  });
}, 180_000);

afterAll(async () => {
  cluster?.thawStandby();
  await Promise.allSettled([
    direct?.close(),
    pooled?.close(),
    primaryAdmin?.end(),
    standbyAdmin?.end(),
  ]);
  await cluster?.stop();
}, 60_000);

describe('reads on the replica, writes on the primary', () => {
  it('the analytics pool reads a hot standby; logs go to the primary', async () => {
    const r = await standbyAdmin.query<{ rec: boolean }>('SELECT pg_is_in_recovery() AS rec');
    expect(r.rows[0]?.rec).toBe(true);
    const before = await logCount();
    const a = await total(deps(direct));
    expect(a.linhas).toEqual([{ grupo: null, valor: M1.total }]);
    expect(a.frescor).toMatchObject({ fonte: 'replica', desatualizado: false, atraso_s: 0 });
    expect(a.frescor?.aviso).toMatch(/^dados até \d{2}:\d{2}:\d{2}$/);
    expect(await logCount()).toBe(before + 1);
    // The standby cannot take the log: had it been written there, it would have failed.
    await expect(
      standbyAdmin.query('INSERT INTO merchants VALUES (99, $1)', ['x']),
    ).rejects.toThrow(/read-only/);
  });

  it('a sale inserted on the primary shows up on the replica after catch-up and equals the primary', async () => {
    const onPrimary = deps({
      ...direct,
      analytics: direct.fallback!.analytics,
      appRead: direct.app,
    });
    const before = await total(deps(direct));
    await insertSale(12_345);
    await cluster.waitForCatchUp();
    const replica = await total(deps(direct));
    const primary = await total(onPrimary);
    expect(replica.linhas[0]?.valor).toBe((before.linhas[0]?.valor ?? 0) + 12_345);
    expect(replica.linhas).toEqual(primary.linhas);
    expect(replica.resposta).toBe(primary.resposta);
    expect(primary.frescor).toBeUndefined(); // a primary says nothing about freshness
  });

  it('merchant search and lookup read the replica (app role there)', async () => {
    // The app role can read merchants on the standby: roles, grants and passwords replicated.
    const r = await direct.appRead!.query<{ nome: string; rec: boolean }>(
      'SELECT nome, pg_is_in_recovery() AS rec FROM merchants WHERE id = 2',
    );
    expect(r.rows[0]).toEqual({ nome: 'Loja CANARIO Zeta', rec: true });
  });

  it('the rollups stay exact on the replica: every shape equals the base table on the primary', async () => {
    const ctx = { merchantId: 1, timeZone: ZONE, timeoutMs: 3_000 };
    const base: ConsultaVendas = {
      metrica: 'total_bruto',
      agrupar_por: 'nenhum',
      periodo: null,
      data_inicio: '2026-03-01',
      data_fim: '2026-03-31',
      modalidades: [],
      ordem: null,
      limite: null,
    } as unknown as ConsultaVendas;
    await insertSale(777);
    await primaryAdmin.query(
      `UPDATE transacoes SET valor_bruto_centavos = valor_bruto_centavos + 1 WHERE id = 880000000`,
    );
    await cluster.waitForCatchUp();
    for (const metrica of ['total_bruto', 'total_liquido', 'quantidade', 'ticket_medio'] as const) {
      for (const agrupar_por of AGRUPAMENTOS) {
        const q = { ...base, metrica, agrupar_por } as ConsultaVendas;
        const onReplica = await executeSalesQuery(direct.analytics, q, ctx);
        const viaView = await executeSalesQueryTenantView(direct.analytics, q, ctx);
        const truth = await executeSalesQueryBaseTable(primaryAdmin, q, ctx);
        expect(onReplica, `${metrica}/${agrupar_por}`).toEqual(truth);
        expect(viaView, `${metrica}/${agrupar_por}`).toEqual(truth);
      }
    }
  });
});

describe('freshness', () => {
  it('paused replay: the answer is marked possibly stale above BALCAO_MAX_LAG_S, or read from the primary when configured', async () => {
    const fresh = await total(deps(direct, { maxLagS: 1 }));
    await cluster.pauseReplay();
    try {
      await insertSale(50_000);
      await waitReceived();
      await new Promise((r) => setTimeout(r, 1_300));
      const stale = await total(deps(direct, { maxLagS: 1 }));
      // The replica has not replayed the sale: same number as before, flagged.
      expect(stale.linhas).toEqual(fresh.linhas);
      expect(stale.frescor?.desatualizado).toBe(true);
      expect(stale.frescor?.fonte).toBe('replica');
      expect(stale.frescor?.atraso_s).toBeGreaterThan(1);
      expect(stale.frescor?.aviso).toMatch(
        /^dados até [\d/: ]+ — podem estar desatualizados: a réplica está \d+ (s|min) atrás do banco principal$/,
      );
      // Under the limit it is only "dados até".
      const lenient = await total(deps(direct, { maxLagS: 3_600 }));
      expect(lenient.frescor?.desatualizado).toBe(false);

      // BALCAO_ANALYTICS_FALLBACK=primary: read from the primary, and say so.
      const fb = await total(deps(direct, { maxLagS: 1, analyticsFallback: 'primary' }));
      expect(fb.linhas[0]?.valor).toBe((fresh.linhas[0]?.valor ?? 0) + 50_000);
      expect(fb.frescor).toMatchObject({ fonte: 'primario', desatualizado: false, atraso_s: 0 });
      expect(fb.frescor?.aviso).toMatch(/lidos do banco principal porque a réplica está .* atrás$/);

      // `balcao ask --json` carries dados_ate and atraso_s.
      const cli = await runCli(
        ['ask', '--merchant', '1', '--dsl', JSON.stringify(MARCO), '--json'],
        {
          BALCAO_MAX_LAG_S: '1',
        },
      );
      expect(cli.code).toBe(0);
      const j = JSON.parse(cli.out) as Record<string, unknown>;
      expect(Object.keys(j)).toEqual(
        expect.arrayContaining(['consulta', 'linhas', 'resposta', 'dados_ate', 'atraso_s']),
      );
      expect(j.atraso_s as number).toBeGreaterThan(1);
      expect(j.desatualizado).toBe(true);
      expect(new Date(j.dados_ate as string).getTime()).toBeLessThan(Date.now() - 1_000);
    } finally {
      await cluster.resumeReplay();
    }
    await cluster.waitForCatchUp();
    const after = await total(deps(direct, { maxLagS: 1 }));
    expect(after.frescor?.desatualizado).toBe(false);
    expect(after.linhas[0]?.valor).toBe((fresh.linhas[0]?.valor ?? 0) + 50_000);
  });

  it('free SQL on the replica carries freshness too', async () => {
    let seen: unknown;
    const r = await executeReadOnly(direct.analytics, {
      merchantId: 2,
      sql: NORMAL_SQL,
      timeoutMs: 2_000,
      // Read by the app role on the standby, before the tenant transaction (#12).
      frescorPool: direct.appRead!,
      onFrescor: (l) => {
        seen = l;
      },
    });
    expect(row0(r)).toEqual(M2);
    // Read on the standby, with a lag figure: how far behind it is depends on WAL still being
    // replayed at that instant (any write on the primary), so only its presence is asserted.
    const l = seen as LeituraFrescor;
    expect(l.emRecuperacao).toBe(true);
    expect(l.dadosAte).toBeInstanceOf(Date);
    expect(typeof l.atrasoS).toBe('number');
    expect(l.atrasoS).toBeGreaterThanOrEqual(0);
  });
});

async function runCli(args: string[], extra: Record<string, string> = {}) {
  const env: NodeJS.ProcessEnv = {
    DATABASE_URL: cluster.primaryAdminUrl,
    APP_DATABASE_URL: cluster.bouncerPrimaryAppUrl,
    ANALYTICS_DATABASE_URL: cluster.bouncerReplicaAnalyticsUrl,
    BALCAO_TIME_ZONE: ZONE,
    BALCAO_LOG_LEVEL: 'silent',
    BALCAO_ANALYTICS_CONNECT_TIMEOUT_MS: '1000',
    ...extra,
  };
  return runCliIn(args, env);
}

describe('balcao db status', () => {
  it('reports each endpoint: reachable, version, role, primary or standby, lag, migrations', async () => {
    const r = await runCli(['db', 'status', '--json']);
    expect(r.code).toBe(0);
    const st = JSON.parse(r.out) as Record<string, Record<string, unknown>>;
    expect(st.admin).toMatchObject({ alcancavel: true, papel: 'postgres', tipo: 'primario' });
    expect(st.app).toMatchObject({ alcancavel: true, papel: 'balcao_app', tipo: 'primario' });
    expect(st.analytics).toMatchObject({
      alcancavel: true,
      papel: 'balcao_analytics',
      tipo: 'replica',
      migracoes_pendentes: 0,
    });
    expect(String(st.analytics?.versao)).toMatch(/^15\./);
    expect(st.analytics?.migracoes).toBe(st.admin?.migracoes);
    expect(st.analytics?.url).not.toContain('balcao_test_senha');
    const human = await runCli(['db', 'status']);
    expect(human.out).toContain('réplica (hot standby), atraso 0 s');
    expect(human.out).toContain('usuário balcao_analytics');
    expect(human.out).toContain('nenhuma pendente');
  });
});

describe('a replica that is down or hung', () => {
  it('stopped: clear pt-BR error in bounded time, the queue unaffected, fallback only when configured', async () => {
    await cluster.stopStandby();
    try {
      for (const dbs of [direct, pooled]) {
        const t = await elapsed(total(deps(dbs)));
        expect(t.error).toBeInstanceOf(AppError);
        expect((t.error as AppError).code).toBe('banco_indisponivel');
        expect((t.error as AppError).message).toMatch(
          /^O banco de análise \(ANALYTICS_DATABASE_URL\) não respondeu a tempo\..*a fila de revisão continua funcionando\./,
        );
        // Bounded, not "fast": without the connect/query deadlines this waits forever. The bound
        // is far above the deadlines (1.5 s connect + 3 s query) so machine load cannot reach it.
        expect(t.ms).toBeLessThan(BOUNDED_MS);
        // The queue (app pool, primary) does not notice.
        const page = await listQueue(dbs.app, { limit: 5 } as Parameters<typeof listQueue>[1]);
        expect(Array.isArray(page.items)).toBe(true);
        // With the fallback configured: the primary answers, and the answer says so.
        const fb = await total(deps(dbs, { analyticsFallback: 'primary' }));
        expect(fb.frescor).toMatchObject({ fonte: 'primario' });
        expect(fb.frescor?.aviso).toMatch(
          /lidos do banco principal porque a réplica não respondeu$/,
        );
      }
      const st = await runCli(['db', 'status', '--json']);
      expect(st.code).toBe(1);
      const j = JSON.parse(st.out) as Record<string, Record<string, unknown>>;
      expect(j.analytics?.alcancavel).toBe(false);
      expect(j.app?.alcancavel).toBe(true);
    } finally {
      await cluster.startStandby();
    }
    await cluster.waitForCatchUp();
    const back = await total(deps(direct));
    expect(back.frescor?.fonte).toBe('replica');
  }, 60_000);

  it('hung (SIGSTOP): the connect and query deadlines bound the wait', async () => {
    // Warm one pooled connection so both the "existing connection" and "new connection" paths run.
    await total(deps(direct));
    cluster.freezeStandby();
    try {
      const t = await elapsed(
        Promise.all([total(deps(direct)), total(deps(direct)), total(deps(direct))]),
      );
      expect(t.error).toBeInstanceOf(AppError);
      expect((t.error as AppError).code).toBe('banco_indisponivel');
      expect(t.ms).toBeLessThan(BOUNDED_MS);
      const fb = await elapsed(total(deps(direct, { analyticsFallback: 'primary' })));
      expect(fb.value?.frescor?.fonte).toBe('primario');
      expect(fb.ms).toBeLessThan(BOUNDED_MS);
    } finally {
      cluster.thawStandby();
    }
    await cluster.waitForCatchUp();
    expect((await total(deps(direct))).frescor?.fonte).toBe('replica');
  }, 60_000);
});

describe('through PgBouncer (transaction pooling)', () => {
  it('answers equal the direct ones, on the replica, with the log on the primary', async () => {
    const before = await logCount();
    const a = await total(deps(pooled));
    const b = await total(deps(direct));
    expect(a.linhas).toEqual(b.linhas);
    expect(a.frescor?.fonte).toBe('replica');
    expect(await logCount()).toBe(before + 2);
  });

  it('tenant transactions never leak across the shared server connections', async () => {
    // Few server connections, many interleaved tenant transactions for two merchants.
    const jobs = Array.from({ length: 40 }, (_, i) => (i % 2 ? 2 : 1));
    const out = await Promise.all(
      jobs.map((m) =>
        executeReadOnly(pooled.analytics, { merchantId: m, sql: NORMAL_SQL, timeoutMs: 3_000 }),
      ),
    );
    out.forEach((r, i) => expect(row0(r)).toEqual(jobs[i] === 2 ? M2 : expect.anything()));
    // M1 grew with the sales inserted above; merchant 2 never did.
    // Outside a transaction, a pooled connection has no tenant and the default timeout.
    const c = new pg.Client({ connectionString: cluster.bouncerReplicaAnalyticsUrl });
    await c.connect();
    try {
      const r = await c.query<{ t: string; to: string }>(
        "SELECT coalesce(current_setting('balcao.merchant_id', true), '') AS t, current_setting('statement_timeout') AS to",
      );
      // The role's own default (ALTER ROLE ... SET), never a SET LOCAL left by a tenant transaction.
      const d = new pg.Client({ connectionString: cluster.standbyAnalyticsUrl });
      await d.connect();
      const role = await d.query<{ to: string }>(
        "SELECT current_setting('statement_timeout') AS to",
      );
      await d.end();
      expect(r.rows[0]).toEqual({ t: '', to: role.rows[0]?.to });
      expect(r.rows[0]?.to).not.toBe('3s');
    } finally {
      await c.end();
    }
  });

  it('statement timeouts and cancel behave the same', async () => {
    // CPU-bound without spilling: a materialized generate_series would hit temp_file_limit (64MB)
    // before the 300 ms timeout on a fast machine, and that is a refusal, not a timeout.
    const slow =
      'select count(*) as n from vendas_ia v, lateral generate_series(1, 1000) a(x), lateral generate_series(a.x, a.x + 999) b(y), lateral generate_series(b.y, b.y + 999) c(z)';
    const t = await elapsed(
      executeReadOnly(pooled.analytics, { merchantId: 1, sql: slow, timeoutMs: 300 }),
    );
    // The query itself runs for hours: only the 300 ms statement timeout ends it.
    expect((t.error as AppError).code).toBe('tempo_esgotado');
    expect(t.ms).toBeGreaterThanOrEqual(300);
    // The same pool answers right after.
    const ok = await executeReadOnly(pooled.analytics, {
      merchantId: 2,
      sql: NORMAL_SQL,
      timeoutMs: 3_000,
    });
    expect(row0(ok)).toEqual(M2);

    // A protocol cancel request (BackendKeyData) goes through PgBouncer to the right server.
    const pool = new pg.Pool({ connectionString: cluster.bouncerReplicaAnalyticsUrl, max: 1 });
    pool.on('error', () => undefined);
    const admin = new pg.Client({ connectionString: cluster.standbyAdminUrl });
    await admin.connect();
    try {
      // A statement timeout far beyond the test's own: only the cancel request can end it.
      const run = withTenantReadOnly(pool, { merchantId: 1, timeoutMs: 600_000 }, async (c) => {
        const p = c.query(
          'select count(*) from vendas_ia v, lateral generate_series(1, 1000) a(x), lateral generate_series(a.x, a.x + 999) b(y), lateral generate_series(b.y, b.y + 999) c(z)',
        );
        // Cancel once the statement is running on the standby (a cancel sent before it starts
        // would cancel nothing, and the statement would then run for hours).
        await expect
          .poll(
            async () => {
              const r = await admin.query<{ n: number }>(
                `SELECT count(*)::int AS n FROM pg_stat_activity
                  WHERE state = 'active' AND query LIKE '%generate_series(b.y, b.y + 999) c(z)%'
                    AND pid <> pg_backend_pid()`,
              );
              return r.rows[0]?.n ?? 0;
            },
            { timeout: 10_000 },
          )
          .toBe(1);
        // node-pg's cancel: a separate connection sends CancelRequest(pid, key) to PgBouncer.
        const canceller = new pg.Client({ connectionString: cluster.bouncerReplicaAnalyticsUrl });
        canceller.on('error', () => undefined);
        (canceller as unknown as { cancel(client: unknown, q: unknown): void }).cancel(
          c,
          (c as unknown as { _activeQuery: unknown })._activeQuery,
        );
        return p;
      });
      const ct = await elapsed(run);
      expect((ct.error as AppError).code).toBe('tempo_esgotado'); // 57014: canceled
      expect(ct.ms).toBeLessThan(BOUNDED_MS);
    } finally {
      await admin.end();
      await pool.end();
    }
  });

  it('node-pg sends no startup parameter PgBouncer rejects (the pooler is strict: `options` fails)', async () => {
    const strict = new pg.Client({
      connectionString: cluster.bouncerReplicaAnalyticsUrl,
      options: '-c statement_timeout=1000',
    } as pg.ClientConfig);
    await expect(strict.connect()).rejects.toThrow(/unsupported startup parameter/);
    await strict.end().catch(() => undefined);
  });
});
