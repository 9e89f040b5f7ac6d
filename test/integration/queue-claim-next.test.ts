/**
 * "Próximo pedido" (#39.1, review/claimNext) on real PostgreSQL: the server claims the next item
 * for the caller in the queue's default order (nearest deadline first), skipping what a person
 * cannot work now — held by someone, assigned to someone else, waiting for the merchant, the item
 * being left — with the caller's assigned items first; agents asking at once get different items,
 * and none waits for a row another transaction is writing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { createPool } from '../../src-main/db/pool';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { ensureMerchants, insertExtraction, queueFor } from '../support/queue-fixtures';

let db: TestDatabase;
let wide: pg.Pool;
beforeEach(async () => {
  db = await createTestDatabase();
  // Enough connections that concurrent claimers really reach PostgreSQL at the same time.
  wide = createPool(db.appUrl, { max: 16 });
  await ensureMerchants(db.admin, { 1: 'Padaria Central' });
});
afterEach(async () => {
  await wide.end();
  await db.drop();
});

const agent = (name: string, pool?: pg.Pool) => queueFor(pool ?? db.app, { operator: name });

/** An open item that entered its situation `min` minutes ago. */
const item = (status: 'falhou' | 'incompleto' | 'completo', min: number) =>
  insertExtraction(db.admin, {
    status,
    criadaEm: `${new Date(Date.now() - min * 60_000).toISOString()}`,
  });

async function assumiu(id: number) {
  const r = await db.admin.query<{ operador: string; detalhes: { proximo?: boolean } }>(
    `SELECT operador, detalhes FROM auditoria WHERE extracao_id = $1 AND acao = 'assumiu' ORDER BY id`,
    [id],
  );
  return r.rows.map((x) => ({ operador: x.operador, proximo: x.detalhes.proximo ?? false }));
}

describe('review/claimNext', () => {
  it('takes the nearest deadline first, skipping held, assigned-to-others, waiting and the item being left', async () => {
    // Deadlines (falhou 30 min, the others 120 min): completo 150 min ago → 30 min late;
    // falhou 20 min ago → 10 min left; incompleto 60 min ago → 60 min left.
    const late = await item('completo', 150);
    const soon = await item('falhou', 20);
    const later = await item('incompleto', 60);
    // More urgent than all of them, but not for Ana now:
    const held = await item('falhou', 300);
    const bia = agent('Bia');
    expect(await bia.claim(held)).toMatchObject({ claimed: true });
    const theirs = await item('falhou', 290);
    await db.admin.query(`UPDATE extracoes SET atribuida_a = 'Bia' WHERE id = $1`, [theirs]);
    const waiting = await item('incompleto', 400);
    await db.admin.query(`UPDATE extracoes SET aguardando_desde = now() WHERE id = $1`, [waiting]);

    const ana = agent('Ana');
    const got: number[] = [];
    for (;;) {
      const r = await ana.claimNext(got.length === 0 ? late : undefined);
      if (!r.claimed) {
        expect(r.mensagem).toBe('Não há outro pedido livre na fila agora.');
        break;
      }
      got.push(r.id);
    }
    // `exceto` left the most urgent one out of the first answer only.
    expect(got).toEqual([soon, late, later]);
    for (const id of got) expect(await assumiu(id)).toEqual([{ operador: 'Ana', proximo: true }]);
    // Nothing of the others changed hands.
    expect(await assumiu(held)).toEqual([{ operador: 'Bia', proximo: false }]);
    expect(await assumiu(theirs)).toEqual([]);
    expect(await assumiu(waiting)).toEqual([]);
    // The lease is a real one: the list shows who has each item, the token renews it.
    const page = await agent('Caio').list({ view: 'aberta', sort: 'prazo', limit: 50 });
    for (const id of got) expect(page.items.find((i) => i.id === id)?.emAnalisePor).toBe('Ana');
  });

  it("the caller's assigned items come first, then everyone's by deadline", async () => {
    const urgent = await item('falhou', 100);
    const mine = await item('completo', 5);
    await db.admin.query(`UPDATE extracoes SET atribuida_a = 'Ana' WHERE id = $1`, [mine]);
    const ana = agent('Ana');
    const first = await ana.claimNext();
    const second = await ana.claimNext();
    expect([first, second].map((r) => (r.claimed ? r.id : null))).toEqual([mine, urgent]);
    // The token it gave works for the item's actions.
    if (!first.claimed) throw new Error('unreachable');
    await expect(ana.renew(mine, first.token)).resolves.toHaveProperty('expiraEm');
  });

  it('agents asking at once each get a different item; the one too many is told there is none', async () => {
    const ids = await Promise.all(Array.from({ length: 12 }, (_, i) => item('completo', 10 + i)));
    const names = Array.from({ length: 13 }, (_, i) => `Agente ${i + 1}`);
    const results = await Promise.all(names.map((n) => agent(n, wide).claimNext()));
    const won = results.flatMap((r, i) => (r.claimed ? [{ id: r.id, por: names[i]! }] : []));
    expect(won).toHaveLength(12);
    expect(new Set(won.map((w) => w.id))).toEqual(new Set(ids));
    expect(results.filter((r) => !r.claimed)).toHaveLength(1);
    for (const w of won) expect(await assumiu(w.id)).toEqual([{ operador: w.por, proximo: true }]);
  });

  it('does not wait for a row another transaction is writing: the next one is taken at once', async () => {
    const first = await item('falhou', 100);
    const second = await item('falhou', 50);
    const writer = await db.admin.connect();
    try {
      await writer.query('BEGIN');
      await writer.query('SELECT id FROM extracoes WHERE id = $1 FOR UPDATE', [first]);
      const t0 = performance.now();
      const r = await agent('Ana').claimNext();
      // Far below the 3 s lock_timeout a wait on that row would end with.
      expect(performance.now() - t0).toBeLessThan(1_500);
      expect(r).toMatchObject({ claimed: true, id: second });
    } finally {
      await writer.query('ROLLBACK');
      writer.release();
    }
    // Once the writer is gone, the first one is free for the next ask.
    expect(await agent('Bia').claimNext()).toMatchObject({ claimed: true, id: first });
  });
});
