/**
 * #11 point 2: a row lock held elsewhere (a stuck session, a long transaction) ends each waiting
 * action in bounded time with the pt-BR "another agent" message, and never starves unrelated
 * calls: the app pool keeps answering lists and reads while five claims wait on the lock.
 */
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AppError } from '@shared/errors';
import { createPool } from '../../src-main/db/pool';
import { MSG_LOCK_TIMEOUT } from '../../src-main/db/errors';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { ensureMerchants, insertExtraction, queueFor } from '../support/queue-fixtures';

const LOCK_MS = 400;
let db: TestDatabase;
let pool: pg.Pool;
beforeAll(async () => {
  db = await createTestDatabase();
  // The app's own pool size (5): five waiting claims would have held every connection.
  pool = createPool(db.appUrl, { max: 5, timeouts: { lockMs: LOCK_MS } });
  await ensureMerchants(db.admin, { 1: 'Padaria Central' });
});
afterAll(async () => {
  await pool.end();
  await db.drop();
});

it('five claims on a locked item fail in bounded time with "outro agente"; other calls go on', async () => {
  const held = await insertExtraction(db.admin);
  const other = await insertExtraction(db.admin);
  const locker = new pg.Client({ connectionString: db.adminUrl });
  await locker.connect();
  try {
    await locker.query('BEGIN');
    await locker.query('SELECT 1 FROM extracoes WHERE id = $1 FOR UPDATE', [held]);

    const agents = ['Ana', 'Bia', 'Caio', 'Davi', 'Eva'].map((operator) =>
      queueFor(pool, { operator }),
    );
    const t0 = performance.now();
    const claims = agents.map(async (q) => {
      const e = await q.claim(held).then(
        () => null,
        (x: unknown) => x,
      );
      return { e, ms: performance.now() - t0 };
    });
    // While they wait: the list, another item and a claim elsewhere answer.
    const ana = agents[0]!;
    const page = await ana.list({ limit: 50, view: 'aberta', sort: 'antigas' } as never);
    expect(page.items.map((i) => i.id)).toEqual(expect.arrayContaining([held, other]));
    expect((await ana.get(other)).id).toBe(other);
    const lease = await agents[1]!.claim(other);
    expect(lease).toBeTruthy();

    for (const { e, ms } of await Promise.all(claims)) {
      expect(e).toBeInstanceOf(AppError);
      expect((e as AppError).message).toBe(MSG_LOCK_TIMEOUT);
      // Bounded by the lock timeout: the holder keeps the lock until this test ends, so an
      // unbounded claim never returns; the bound is far above the 400 ms lock timeout.
      expect(ms).toBeLessThan(10_000);
    }
    // Nothing was written while the lock was held.
    const r = await db.admin.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM auditoria WHERE extracao_id = $1`,
      [held],
    );
    expect(r.rows[0]!.n).toBe(0);
  } finally {
    await locker.query('ROLLBACK').catch(() => undefined);
    await locker.end();
  }
  // Once the lock is gone the item can be claimed.
  expect(await queueFor(pool, { operator: 'Ana' }).claim(held)).toBeTruthy();
});
