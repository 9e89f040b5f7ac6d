/**
 * The bench's `quiesce`: a timed unit starts only once the analytics pool has no connection
 * still in the reset that follows a tenant transaction's answer (db/tenant.ts hands the answer
 * back before its rollback and session reset), and the wait is bounded. And the bench's runs
 * (interleaved and `--so-balcao`) open every tenant transaction on a quiet pool.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { prepareBenchDatabase } from '../../src-main/bench/database';
import { benchParams } from '../../src-main/bench/generate';
import { validateConsulta } from '@shared/sales-dsl';
import { queryMix } from '../../src-main/bench/mix';
import { runBalcaoOnly, runBench } from '../../src-main/bench/run';
import { quiesce } from '../../src-main/bench/types';
import { createPool } from '../../src-main/db/pool';
import { ANALYTICS_ROLE, APP_ROLE } from '../../src-main/db/roles';
import { withTenantReadOnly } from '../../src-main/db/tenant';
import { urlForRole } from '../../src-main/db/urls';
import { periodTotalQuery } from '../../src-main/sales/answer';
import { createTestDatabase, TEST_ROLE_PASSWORD, type TestDatabase } from '../support/db';
import { queryOnce } from '../support/pg-server';

let db: TestDatabase;
let analytics: pg.Pool;

beforeAll(async () => {
  db = await createTestDatabase();
  analytics = new pg.Pool({ connectionString: db.analyticsUrl, max: 2 });
});

afterAll(async () => {
  await analytics.end();
  await db.drop();
});

describe('quiesce', () => {
  it('waits for the reset a tenant transaction leaves in flight after its answer', async () => {
    let inFlightSeen = false;
    for (let i = 0; i < 20; i++) {
      await withTenantReadOnly(analytics, { merchantId: 1, timeoutMs: 5_000 }, (c) =>
        c.query('SELECT 1'),
      );
      // The answer is back; its connection is still out, in its rollback + session reset.
      if (analytics.totalCount > analytics.idleCount) inFlightSeen = true;
      await quiesce(analytics);
      expect(analytics.idleCount).toBe(analytics.totalCount);
    }
    expect(inFlightSeen).toBe(true);
  });

  it('returns when the last checked-out client is released, not before', async () => {
    const c = await analytics.connect();
    let released = false;
    setTimeout(() => {
      released = true;
      c.release();
    }, 80);
    const t0 = performance.now();
    await quiesce(analytics);
    expect(released).toBe(true);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(70);
    expect(analytics.idleCount).toBe(analytics.totalCount);
  });

  it('is bounded: a client never released does not hold the run', async () => {
    const c = await analytics.connect();
    try {
      const t0 = performance.now();
      await quiesce(analytics, 150);
      const waited = performance.now() - t0;
      expect(waited).toBeGreaterThanOrEqual(140);
      // Bounded: without the bound it would wait until the client is released — never, here.
      expect(waited).toBeLessThan(10_000);
      expect(analytics.totalCount).toBeGreaterThan(analytics.idleCount);
    } finally {
      c.release();
    }
  });

  it('returns at once on a quiet pool', async () => {
    await quiesce(analytics);
    // "At once" = before the event loop's next turn: no timer, no wait for an event.
    const first = await Promise.race([
      quiesce(analytics, 5_000).then(() => 'quiesce'),
      new Promise<string>((r) => setImmediate(() => r('next turn'))),
    ]);
    expect(first).toBe('quiesce');
  });
});

describe('the bench opens every tenant transaction on a quiet pool', () => {
  const server = inject('pgServerUrl');
  const banco = `balcao_bench_q_${randomBytes(4).toString('hex')}`;

  afterAll(async () => {
    await queryOnce(server, `DROP DATABASE IF EXISTS ${banco} WITH (FORCE)`);
  });

  it('in the interleaved run and in --so-balcao', async () => {
    const { url, meta } = await prepareBenchDatabase(
      server,
      banco,
      benchParams(6_000, 'America/Sao_Paulo'),
      { now: new Date() },
    );
    const pools = {
      admin: createPool(url, { max: 2 }),
      app: createPool(urlForRole(url, APP_ROLE, TEST_ROLE_PASSWORD), { max: 2 }),
      analytics: createPool(urlForRole(url, ANALYTICS_ROLE, TEST_ROLE_PASSWORD), {
        max: 2,
        prepare: true,
      }),
    };
    // Connections still out (in their reset) each time a transaction asks for one.
    const busyAtConnect: number[] = [];
    const analytics = pools.analytics;
    const connect = analytics.connect.bind(analytics);
    analytics.connect = (() => {
      busyAtConnect.push(analytics.totalCount - analytics.idleCount);
      return connect();
    }) as typeof analytics.connect;
    try {
      const alone = await runBalcaoOnly(pools, meta, { reps: 2, timeoutMs: 3_000 });
      expect(busyAtConnect.length).toBeGreaterThanOrEqual(alone.queries.length * 3);
      expect(busyAtConnect.filter((n) => n > 0)).toEqual([]);
      busyAtConnect.length = 0;
      const r = await runBench(pools, meta, { reps: 2, timeoutMs: 3_000, escritaS: 0 });
      expect(r.resumo.todas_iguais).toBe(true);
      // (a) and (b) of every repetition, the warm-ups, the floor and the server-side timing.
      expect(busyAtConnect.length).toBeGreaterThanOrEqual(r.queries.length * 6);
      // Only the textbook's own second transaction (its period total: the textbook path runs
      // one transaction per query) may find its first one still resetting; every unit starts
      // on a quiet pool (without quiesce, nearly every connect finds the last answer's reset).
      const withTotal = queryMix(meta.hoje).filter((q) => {
        const v = validateConsulta(q.dsl, meta.hoje);
        return v.ok && v.value.tipo === 'consulta' && periodTotalQuery(v.value.consulta) !== null;
      }).length;
      expect(withTotal).toBeGreaterThan(0);
      const busy = busyAtConnect.filter((n) => n > 0).length;
      // #40.8: the base-table queries also time the textbook against itself (the A/A control):
      // two more textbook units per repetition-pair each, whose second transaction may do the same.
      const totals = new Set(
        queryMix(meta.hoje)
          .filter((q) => {
            const v = validateConsulta(q.dsl, meta.hoje);
            return (
              v.ok && v.value.tipo === 'consulta' && periodTotalQuery(v.value.consulta) !== null
            );
          })
          .map((q) => q.name),
      );
      const controlWithTotal = r.queries.filter(
        (q) => q.caminho === 'base' && totals.has(q.name.split('·').slice(1).join('·')),
      ).length;
      expect(busy).toBeLessThanOrEqual(withTotal * r.merchants.length * 3 + controlWithTotal * 2);
    } finally {
      await Promise.allSettled([pools.admin.end(), pools.app.end(), pools.analytics.end()]);
    }
  });
});
