/**
 * #16: the free-SQL guard works unchanged on a hot standby and through PgBouncer (transaction
 * pooling). Roles, grants, views and functions reach the standby by streaming replication only;
 * the whole hostile corpus then runs through all three layers twice per item — on ONE pooled
 * connection straight to the standby, and on ONE pooled connection through PgBouncer to the
 * standby (where consecutive transactions may land on different server connections). After each
 * item: no canary of merchant 2 anywhere, nothing written on the primary, and both connections
 * answer a normal query correctly for merchant 1 and merchant 2.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@shared/errors';
import { checkSql } from '../../src-main/sqlguard/guard';
import { runFreeSql } from '../../src-main/sales/free-sql/run';
import { startReplicaCluster, type ReplicaCluster } from '../support/replica-cluster';
import {
  BOUNDED_MS,
  checksum,
  expectNoLeak,
  loadCorpus,
  M1,
  M2,
  NORMAL_SQL,
  onePool,
  row0,
  seedCanaries,
  type HostileItem,
} from '../support/sqlguard';

const TIMEOUT_MS = 400;
const corpus = loadCorpus();

let cluster: ReplicaCluster;
let primaryAdmin: pg.Pool;
let standby: pg.Pool;
let bouncer: pg.Pool;
let before: string;
const outcomes = new Map<string, string>();

beforeAll(async () => {
  cluster = await startReplicaCluster();
  primaryAdmin = new pg.Pool({ connectionString: cluster.primaryAdminUrl, max: 2 });
  await seedCanaries(primaryAdmin);
  await cluster.waitForCatchUp();
  standby = onePool(cluster.standbyAnalyticsUrl);
  bouncer = onePool(cluster.bouncerReplicaAnalyticsUrl);
  before = await checksum(primaryAdmin);
}, 180_000);

afterAll(async () => {
  await Promise.allSettled([standby?.end(), bouncer?.end(), primaryAdmin?.end()]);
  await cluster?.stop();
}, 60_000);

async function normal(pool: pg.Pool, merchantId: number) {
  const r = await runFreeSql(
    pool,
    { timeoutMs: 3_000 },
    { merchantId, sql: NORMAL_SQL, origem: 'app' },
  );
  return row0(r);
}

async function attempt(pool: pg.Pool, item: HostileItem): Promise<string> {
  const t0 = performance.now();
  let out: string;
  try {
    const r = await runFreeSql(
      pool,
      { timeoutMs: TIMEOUT_MS, timeZone: 'America/Sao_Paulo' },
      { merchantId: 1, sql: item.sql, origem: 'cli' },
    );
    out = JSON.stringify({ linhas: r.linhas });
    expect(r.linhas.length).toBeLessThanOrEqual(500);
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    const msg = (e as AppError).message;
    expect(msg).toMatch(/^(consulta recusada: |A consulta )/);
    expect(msg.replace(/ \([a-z0-9_]*\)$/i, '')).not.toMatch(
      /permission denied|syntax error|does not exist|ERROR|relation|function |pgbouncer|server/,
    );
    out = JSON.stringify({ erro: msg });
  }
  expect(performance.now() - t0).toBeLessThan(BOUNDED_MS);
  expectNoLeak(out, item.id);
  return out;
}

/** The outcome, with "stopped by the time limit" and "by a resource limit" as one. */
function stoppedByALimit(outcome: string): string {
  return /"erro":"[^"]* e foi interrompida\.?"/.test(outcome)
    ? 'interrompida por um limite'
    : outcome;
}

describe('the standby and the pooler got the guard by replication alone', () => {
  it('the analytics role on the standby is the restricted one (through PgBouncer too)', async () => {
    // The server is a standby (read with its admin login: #12 revokes recovery/WAL functions
    // from the analytics role, which must not see the replication state).
    const admin = new pg.Pool({ connectionString: cluster.standbyAdminUrl, max: 1 });
    try {
      const rec = await admin.query<{ rec: boolean }>(
        'SELECT pg_catalog.pg_is_in_recovery() AS rec',
      );
      expect(rec.rows[0]).toEqual({ rec: true });
    } finally {
      await admin.end();
    }
    for (const pool of [standby, bouncer]) {
      const r = await pool.query<{ u: string }>('SELECT current_user::text AS u');
      expect(r.rows[0]).toEqual({ u: 'balcao_analytics' });
      await expect(pool.query('SELECT pg_catalog.pg_is_in_recovery()')).rejects.toThrow(
        /permission denied/,
      );
      await expect(pool.query('SELECT * FROM transacoes LIMIT 1')).rejects.toThrow(
        /permission denied/,
      );
      await expect(
        pool.query("SELECT set_config('balcao.merchant_id', '2', true)"),
      ).rejects.toThrow(/permission denied/);
    }
  });
});

describe('hostile corpus on the replica, direct and through PgBouncer', () => {
  it('is the whole corpus', () => {
    expect(corpus.length).toBeGreaterThan(500);
  });

  it.each(corpus.map((i) => [i.id, i] as [string, HostileItem]))('%s', async (_id, item) => {
    const direct = await attempt(standby, item);
    const pooled = await attempt(bouncer, item);
    // Same outcome either way: the pooler changes nothing the guard decides. A query stopped by
    // a limit may trip the time limit on one route and a resource limit on the other (which comes
    // first depends on the machine's load): both are "stopped", never a result or a leak.
    expect(stoppedByALimit(pooled)).toBe(stoppedByALimit(direct));
    if (item.oraculo) outcomes.set(item.id, direct);

    expect(await checksum(primaryAdmin)).toBe(before);
    for (const pool of [standby, bouncer]) {
      expect(await normal(pool, 1)).toEqual(M1);
      expect(await normal(pool, 2)).toEqual(M2);
    }
    const verdict = await checkSql(item.sql);
    expect(verdict.ok, `layer 1 verdict for ${item.sql.slice(0, 200)}`).toBe(Boolean(item.aceita));
  });

  it('oracle pairs give the same outcome on the replica', () => {
    const groups = new Map<string, string[]>();
    for (const i of corpus.filter((x) => x.oraculo)) {
      const o = outcomes.get(i.id);
      expect(o, i.id).toBeDefined();
      groups.set(i.oraculo as string, [...(groups.get(i.oraculo as string) ?? []), o as string]);
    }
    expect(groups.size).toBeGreaterThanOrEqual(5);
    for (const [g, outs] of groups) expect(new Set(outs).size, g).toBe(1);
  });
});
