/**
 * The bench's `quiesce`: a timed unit starts only once the analytics pool has no connection
 * still in the reset that follows a tenant transaction's answer (db/tenant.ts hands the answer
 * back before its rollback and session reset), and the wait is bounded.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quiesce } from '../../src-main/bench/types';
import { withTenantReadOnly } from '../../src-main/db/tenant';
import { createTestDatabase, type TestDatabase } from '../support/db';

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
      expect(waited).toBeLessThan(1_500);
      expect(analytics.totalCount).toBeGreaterThan(analytics.idleCount);
    } finally {
      c.release();
    }
  });

  it('returns at once on a quiet pool', async () => {
    await quiesce(analytics);
    const t0 = performance.now();
    await quiesce(analytics, 5_000);
    expect(performance.now() - t0).toBeLessThan(50);
  });
});
