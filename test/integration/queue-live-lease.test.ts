import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  startQueueListener,
  type QueueChange,
  type QueueListener,
} from '../../src-main/intake/live';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { ensureMerchants, insertExtraction, queueFor } from '../support/queue-fixtures';

/**
 * #42.3: a supervisor's takeover reaches the holder's window at once. What main does in
 * startServices: one LISTEN connection per app whose changes go to every window's
 * `review/changed` subscription; here the subscription is a list of what arrived.
 */
let db: TestDatabase;
let live: QueueListener;
const seen: QueueChange[] = [];
const waiters: { test: (c: QueueChange) => boolean; done: (c: QueueChange) => void }[] = [];

/** Resolves with the first change (already seen or still to come) that passes `test`. */
function changeWhere(test: (c: QueueChange) => boolean): Promise<QueueChange> {
  const found = seen.find(test);
  if (found) return Promise.resolve(found);
  return new Promise((done) => waiters.push({ test, done }));
}

beforeAll(async () => {
  db = await createTestDatabase();
  await ensureMerchants(db.admin, { 1: 'Padaria Central' });
  live = startQueueListener({
    connectionString: db.appUrl,
    coalesceMs: 20,
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

describe('live lease changes (review/changed → reservas)', () => {
  it("a supervisor's takeover tells the holder's window which lease changed hands", async () => {
    const id = await insertExtraction(db.admin, { merchantId: 1 });
    const ana = queueFor(db.app, { operator: 'Ana' });
    const bia = queueFor(db.app, { operator: 'Bia (supervisora)' });
    const claim = await ana.claim(id);
    if (!claim.claimed) throw new Error('Ana deveria ter assumido o item');
    await ana.renew(id, claim.token);
    // Notifications arrive in commit order: once a later marker is here, so are the claim's.
    const marker = await insertExtraction(db.admin, { merchantId: 1 });
    await changeWhere((c) => c.ids.includes(marker));
    // A plain claim of a free item, and its renewal, take no one's lease.
    expect(seen.some((c) => c.reservas?.includes(id))).toBe(false);

    await bia.takeOver(id);
    const took = await changeWhere((c) => c.reservas?.includes(id) === true);
    expect(took.ids).toContain(id);
    // What the holder's screen then does: its renewal answers who has the item now.
    await expect(ana.renew(id, claim.token)).rejects.toMatchObject({
      code: 'conflito',
      message:
        'Este item está em análise por Bia (supervisora). Só quem está com o item pode agir.',
    });
  });

  it('a lease claimed by someone else after it expired is a lease that changed hands too', async () => {
    const id = await insertExtraction(db.admin, { merchantId: 1 });
    const ana = queueFor(db.app, { operator: 'Ana' });
    const claim = await ana.claim(id);
    if (!claim.claimed) throw new Error('Ana deveria ter assumido o item');
    await db.admin.query(
      `UPDATE extracoes SET lease_expira_em = now() - interval '1 second' WHERE id = $1`,
      [id],
    );
    const caio = await queueFor(db.app, { operator: 'Caio' }).claim(id);
    expect(caio.claimed).toBe(true);
    const took = await changeWhere((c) => c.reservas?.includes(id) === true);
    expect(took.ids).toContain(id);
    // Only Caio's claim took Ana's lease: her own claim of the free item did not.
    expect(seen.filter((c) => c.reservas?.includes(id))).toHaveLength(1);
  });
});

describe('live conversation changes (review/changed → conversas)', () => {
  it("a message out to the merchant names the item's conversation; the item's own change does not", async () => {
    const id = await insertExtraction(db.admin, { merchantId: 1 });
    // The item changes on its own (a draft, a confirm): its id, no conversation.
    await db.admin.query(`UPDATE extracoes SET tentativas = tentativas + 1 WHERE id = $1`, [id]);
    const own = await changeWhere((c) => c.ids.includes(id));
    expect(own.conversas ?? []).not.toContain(id);
    // A message of ours to the merchant, linked to the item: its conversation changed.
    await db.admin.query(
      `INSERT INTO mensagens_saida (canal, merchant_id, extracao_id, responde_a, texto)
       VALUES ('whatsapp', 1, $1, 'wamid.teste', 'Qual o valor da cobrança?')`,
      [id],
    );
    const talk = await changeWhere((c) => c.conversas?.includes(id) === true);
    expect(talk.ids).toContain(id);
  });
});
