import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { QueueChange, QueueListener } from '../../src-main/intake/live';
import { startQueueFeed } from '../../src-main/intake/live-feed';
import { liveSourceOf } from '../../src-main/intake/live-source';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { ensureMerchants, insertExtraction, queueFor } from '../support/queue-fixtures';

/**
 * #39.1: the live queue through a transaction pooler. A desktop reads the change log (migration
 * 1060) through its own pool instead of holding a LISTEN session: the same `review/changed`
 * events (ids, reservas, conversas, reconectado) as the LISTEN path (queue-live-lease.test.ts),
 * and nothing lost when transactions commit out of the order their positions were taken in.
 */
let db: TestDatabase;
let live: QueueListener;
const seen: QueueChange[] = [];
const waiters: { test: (c: QueueChange) => boolean; done: (c: QueueChange) => void }[] = [];

function changeWhere(test: (c: QueueChange) => boolean): Promise<QueueChange> {
  const found = seen.find(test);
  if (found) return Promise.resolve(found);
  return new Promise((done) => waiters.push({ test, done }));
}

beforeAll(async () => {
  db = await createTestDatabase();
  await ensureMerchants(db.admin, { 1: 'Padaria Central' });
  live = startQueueFeed({
    pool: db.app,
    intervalMs: 30,
    onChange: (c) => {
      seen.push(c);
      for (const w of waiters.splice(0)) {
        if (w.test(c)) w.done(c);
        else waiters.push(w);
      }
    },
  });
  await vi.waitFor(() => expect(live.connected()).toBe(true), { timeout: 10_000 });
});
afterAll(async () => {
  await live.close();
  await db.drop();
});

describe('which live queue a desktop runs', () => {
  it('a desktop where people sign in reads the change log; a service login on a session connection LISTENs', () => {
    const none = { directDatabaseUrl: undefined, appDatabaseUrl: undefined };
    expect(liveSourceOf(none, 'pessoal', 'postgres://pgbouncer/balcao')).toEqual({
      kind: 'mudancas',
    });
    // Even with a direct URL configured: a team's desktops never hold one direct session each.
    expect(
      liveSourceOf({ ...none, directDatabaseUrl: 'postgres://primary/balcao' }, 'pessoal', 'x'),
    ).toEqual({ kind: 'mudancas' });
    expect(liveSourceOf(none, 'servico', 'postgres://primary/balcao')).toEqual({
      kind: 'escuta',
      url: 'postgres://primary/balcao',
    });
    // APP_DATABASE_URL without a direct URL may be a pooler: the change log.
    expect(
      liveSourceOf({ ...none, appDatabaseUrl: 'postgres://pgbouncer/balcao' }, 'servico', 'y'),
    ).toEqual({ kind: 'mudancas' });
  });
});

describe('live changes through the change log', () => {
  it('a new item and a claim reach the listener; a lease renewal does not', async () => {
    const id = await insertExtraction(db.admin, { merchantId: 1 });
    await changeWhere((c) => c.ids.includes(id));
    const naming = () => seen.filter((c) => c.ids.includes(id)).length;
    const created = naming();
    const ana = queueFor(db.app, { operator: 'Ana' });
    const claim = await ana.claim(id);
    if (!claim.claimed) throw new Error('Ana deveria ter assumido o item');
    // Positions are read in order: once a later marker is here, so is the claim.
    const m1 = await insertExtraction(db.admin, { merchantId: 1 });
    await changeWhere((c) => c.ids.includes(m1));
    const claimed = naming();
    expect(claimed).toBeGreaterThan(created);
    await ana.renew(id, claim.token);
    const m2 = await insertExtraction(db.admin, { merchantId: 1 });
    await changeWhere((c) => c.ids.includes(m2));
    expect(naming()).toBe(claimed);
  });

  it("a supervisor's takeover tells the holder's window which lease changed hands", async () => {
    const id = await insertExtraction(db.admin, { merchantId: 1 });
    const ana = queueFor(db.app, { operator: 'Ana' });
    const bia = queueFor(db.app, { operator: 'Bia (supervisora)' });
    const claim = await ana.claim(id);
    if (!claim.claimed) throw new Error('Ana deveria ter assumido o item');
    const marker = await insertExtraction(db.admin, { merchantId: 1 });
    await changeWhere((c) => c.ids.includes(marker));
    // A plain claim of a free item takes no one's lease.
    expect(seen.some((c) => c.reservas?.includes(id))).toBe(false);
    await bia.takeOver(id);
    const took = await changeWhere((c) => c.reservas?.includes(id) === true);
    expect(took.ids).toContain(id);
    await expect(ana.renew(id, claim.token)).rejects.toMatchObject({ code: 'conflito' });
  });

  it("a message out to the merchant names the item's conversation; the item's own change does not", async () => {
    const id = await insertExtraction(db.admin, { merchantId: 1 });
    await db.admin.query(`UPDATE extracoes SET tentativas = tentativas + 1 WHERE id = $1`, [id]);
    const own = await changeWhere((c) => c.ids.includes(id));
    expect(own.conversas ?? []).not.toContain(id);
    await db.admin.query(
      `INSERT INTO mensagens_saida (canal, merchant_id, extracao_id, responde_a, texto)
       VALUES ('whatsapp', 1, $1, 'wamid.teste', 'Qual o valor da cobrança?')`,
      [id],
    );
    const talk = await changeWhere((c) => c.conversas?.includes(id) === true);
    expect(talk.ids).toContain(id);
  });

  it('a change whose transaction commits after a later one is still delivered', async () => {
    const slow = await insertExtraction(db.admin, { merchantId: 1 });
    const fast = await insertExtraction(db.admin, { merchantId: 1 });
    await changeWhere((c) => c.ids.includes(fast));
    const from = seen.length;
    const c = await db.admin.connect();
    try {
      // The slow transaction takes its position first and stays open…
      await c.query('BEGIN');
      await c.query(`UPDATE extracoes SET tentativas = tentativas + 5 WHERE id = $1`, [slow]);
      // …while a later position commits and is read.
      await db.admin.query(`UPDATE extracoes SET tentativas = tentativas + 5 WHERE id = $1`, [
        fast,
      ]);
      await changeWhere((x) => seen.indexOf(x) >= from && x.ids.includes(fast));
      expect(seen.slice(from).some((x) => x.ids.includes(slow))).toBe(false);
      await c.query('COMMIT');
    } finally {
      c.release();
    }
    const late = await changeWhere((x) => seen.indexOf(x) >= from && x.ids.includes(slow));
    expect(late.reconectado).toBeUndefined();
  });

  it('a position that never commits (rolled back) is given up with one reconectado: screens refetch', async () => {
    const feed: QueueChange[] = [];
    const f = startQueueFeed({
      pool: db.app,
      intervalMs: 20,
      esperaMaxMs: 300,
      onChange: (c) => feed.push(c),
    });
    try {
      await vi.waitFor(() => expect(f.connected()).toBe(true), { timeout: 10_000 });
      const id = await insertExtraction(db.admin, { merchantId: 1 });
      const c = await db.admin.connect();
      try {
        await c.query('BEGIN');
        await c.query(`UPDATE extracoes SET tentativas = tentativas + 1 WHERE id = $1`, [id]);
        await c.query('ROLLBACK');
      } finally {
        c.release();
      }
      const after = await insertExtraction(db.admin, { merchantId: 1 });
      await vi.waitFor(() => expect(feed.some((x) => x.ids.includes(after))).toBe(true), {
        timeout: 10_000,
      });
      await vi.waitFor(() => expect(feed.some((x) => x.reconectado === true)).toBe(true), {
        timeout: 10_000,
      });
      expect(feed.filter((x) => x.reconectado === true)).toHaveLength(1);
    } finally {
      await f.close();
    }
  });

  it('the connections of the pool killed under it: it reads on with new ones', async () => {
    const feed: QueueChange[] = [];
    const f = startQueueFeed({
      pool: db.app,
      intervalMs: 20,
      maxBackoffMs: 200,
      onChange: (c) => feed.push(c),
    });
    try {
      await vi.waitFor(() => expect(f.connected()).toBe(true), { timeout: 10_000 });
      const role = await db.admin.query<{ n: number }>(
        `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
          WHERE usename = 'balcao_app' AND datname = current_database()`,
      );
      expect(role.rows[0]!.n).toBeGreaterThan(0);
      const id = await insertExtraction(db.admin, { merchantId: 1 });
      await vi.waitFor(() => expect(feed.some((x) => x.ids.includes(id))).toBe(true), {
        timeout: 10_000,
      });
    } finally {
      await f.close();
    }
  });
});
