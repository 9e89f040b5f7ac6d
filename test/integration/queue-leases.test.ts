import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '../../src-main/db/pool';
import type { ChargeRules } from '../../src-main/queue/rules';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { ensureMerchants, insertExtraction, queueFor } from '../support/queue-fixtures';
import type pg from 'pg';

let db: TestDatabase;
let wide: pg.Pool;
beforeAll(async () => {
  db = await createTestDatabase();
  // Enough connections that concurrent claimers really hit PostgreSQL at the same time.
  wide = createPool(db.appUrl, { max: 24 });
  await ensureMerchants(db.admin, { 1: 'Padaria Central', 2: 'Farmácia Boa Vista' });
});
afterAll(async () => {
  await wide.end();
  await db.drop();
});

function agent(name: string, opts: { pool?: pg.Pool; ttlMs?: number; rules?: ChargeRules } = {}) {
  return queueFor(opts.pool ?? db.app, {
    operator: name,
    ...(opts.rules ? { rules: opts.rules } : {}),
    ...(opts.ttlMs ? { ttlMs: opts.ttlMs } : {}),
  });
}

async function auditOf(id: number, acao?: string) {
  const r = await db.admin.query<{ operador: string; acao: string }>(
    `SELECT operador, acao FROM auditoria WHERE extracao_id = $1 ${acao ? 'AND acao = $2' : ''} ORDER BY id`,
    acao ? [id, acao] : [id],
  );
  return r.rows;
}

describe('claiming', () => {
  it('many agents claiming the same item at once: exactly one wins, the rest see who has it', async () => {
    const id = await insertExtraction(db.admin);
    const names = Array.from({ length: 20 }, (_, i) => `Agente ${i + 1}`);
    const results = await Promise.all(names.map((n) => agent(n, { pool: wide }).claim(id)));
    const winners = results.flatMap((r, i) => (r.claimed ? [names[i]] : []));
    expect(winners).toHaveLength(1);
    for (const r of results) {
      if (!r.claimed) {
        expect(r.emAnalisePor).toBe(winners[0]);
        expect(r.mensagem).toBe(
          `Em análise por ${winners[0]}. Você pode ver o item, mas só quem está com ele pode agir.`,
        );
      }
    }
    expect(await auditOf(id, 'assumiu')).toEqual([{ operador: winners[0], acao: 'assumiu' }]);
    const list = await agent('Outro').list({ limit: 50, view: 'aberta', sort: 'recentes' });
    expect(list.items.find((x) => x.id === id)?.emAnalisePor).toBe(winners[0]);
  });

  it('repeated races over several items always give one winner per item', async () => {
    const ids = await Promise.all([1, 2, 3, 4, 5].map(() => insertExtraction(db.admin)));
    const rounds = await Promise.all(
      ids.flatMap((id) =>
        ['Ana', 'Bia', 'Caio', 'Duda'].map((n) =>
          agent(n, { pool: wide })
            .claim(id)
            .then((r) => ({ id, r })),
        ),
      ),
    );
    for (const id of ids) {
      expect(rounds.filter((x) => x.id === id && x.r.claimed)).toHaveLength(1);
    }
  });

  it('claiming an item you already hold gives your lease back (same token, extended, one audit entry)', async () => {
    // Opening the item again — or re-running a claim whose COMMIT landed but whose reply was
    // lost — finds the caller holding it, not "em análise por" themselves.
    const id = await insertExtraction(db.admin);
    const ana = agent('Ana', { ttlMs: 60_000 });
    const first = await ana.claim(id);
    if (!first.claimed) throw new Error(first.mensagem);
    await new Promise((r) => setTimeout(r, 20));
    const again = await ana.claim(id);
    if (!again.claimed) throw new Error(again.mensagem);
    expect(again.token).toBe(first.token);
    expect(Date.parse(again.expiraEm)).toBeGreaterThan(Date.parse(first.expiraEm));
    expect(await auditOf(id, 'assumiu')).toEqual([{ operador: 'Ana', acao: 'assumiu' }]);
    // Someone else on the same shared login still sees who has it; Ana's token still works.
    const bia = await agent('Bia').claim(id);
    expect(bia).toMatchObject({ claimed: false, emAnalisePor: 'Ana' });
    await ana.renew(id, first.token);
    // Once it expired, claiming again is a new lease (new token, audited).
    const short = agent('Ana', { ttlMs: 50 });
    const id2 = await insertExtraction(db.admin);
    const a1 = await short.claim(id2);
    if (!a1.claimed) throw new Error(a1.mensagem);
    await new Promise((r) => setTimeout(r, 120));
    const a2 = await short.claim(id2);
    if (!a2.claimed) throw new Error(a2.mensagem);
    expect(a2.token).not.toBe(a1.token);
    expect(await auditOf(id2, 'assumiu')).toHaveLength(2);
  });

  it('a closed item cannot be claimed and says why', async () => {
    const id = await insertExtraction(db.admin, { filaEstado: 'concluida', status: 'completo' });
    const r = await agent('Ana').claim(id);
    expect(r).toEqual({
      claimed: false,
      emAnalisePor: null,
      mensagem: 'Este item não precisa de revisão.',
    });
    await expect(agent('Ana').claim(999_999)).rejects.toMatchObject({ code: 'nao_encontrado' });
  });
});

describe('lease expiry (database time)', () => {
  it('an expired lease can be taken by someone else; the first holder is then refused', async () => {
    const id = await insertExtraction(db.admin);
    const ana = agent('Ana', { ttlMs: 60_000 });
    const bia = agent('Bia', { ttlMs: 60_000 });
    const a = await ana.claim(id);
    expect(a.claimed).toBe(true);
    if (!a.claimed) return;
    expect((await bia.claim(id)).claimed).toBe(false);
    // The lease's end is moved in the database instead of waited for: the same instants in the
    // database's time, whatever the machine's speed.
    const expire = () =>
      db.admin.query(
        `UPDATE extracoes SET lease_expira_em = now() - interval '1 second' WHERE id = $1`,
        [id],
      );
    // Renewal keeps it alive past the original expiry.
    await expire();
    await ana.renew(id, a.token);
    expect((await bia.claim(id)).claimed).toBe(false);
    // Without renewal it expires; the list stops showing Ana.
    await expire();
    const page = await bia.list({ limit: 50, view: 'aberta', sort: 'recentes' });
    expect(page.items.find((x) => x.id === id)?.emAnalisePor).toBeNull();
    const b = await bia.claim(id);
    expect(b.claimed).toBe(true);
    // Ana's token no longer works: renew and actions are refused with who holds it now.
    await expect(ana.renew(id, a.token)).rejects.toMatchObject({
      code: 'conflito',
      message: 'Este item está em análise por Bia. Só quem está com o item pode agir.',
    });
    await expect(ana.discard({ id, token: a.token, motivo: 'teste' })).rejects.toMatchObject({
      code: 'conflito',
    });
    expect((await ana.release(id, a.token)).liberado).toBe(false);
    const detail = await ana.get(id);
    expect(detail.emAnalisePor).toBe('Bia');
    expect(detail.filaEstado).toBe('aberta');
  });

  it('an expired lease nobody took is refused for actions until renewed', async () => {
    const id = await insertExtraction(db.admin);
    const ana = agent('Ana', { ttlMs: 200 });
    const a = await ana.claim(id);
    if (!a.claimed) throw new Error('claim failed');
    await new Promise((r) => setTimeout(r, 300));
    await expect(ana.askMerchant({ id, token: a.token })).rejects.toMatchObject({
      code: 'conflito',
      message: 'Sua reserva deste item expirou. Abra o item de novo para continuar.',
    });
    await ana.renew(id, a.token);
    const ok = await ana.discard({ id, token: a.token, motivo: 'teste' });
    expect(ok.filaEstado).toBe('descartada');
  });

  it('release on close frees the item at once and is audited', async () => {
    const id = await insertExtraction(db.admin);
    const a = await agent('Ana').claim(id);
    if (!a.claimed) throw new Error('claim failed');
    expect(await agent('Ana').release(id, a.token)).toEqual({ liberado: true });
    expect((await agent('Bia').claim(id)).claimed).toBe(true);
    expect((await auditOf(id)).map((x) => `${x.operador}:${x.acao}`)).toEqual([
      'Ana:assumiu',
      'Ana:liberou',
      'Bia:assumiu',
    ]);
  });

  it('actions without the lease are refused (wrong token, nobody holding)', async () => {
    const id = await insertExtraction(db.admin);
    const token = '00000000-0000-4000-8000-000000000000';
    await expect(agent('Ana').discard({ id, token, motivo: 'teste' })).rejects.toMatchObject({
      code: 'conflito',
    });
    await expect(
      agent('Ana').confirm({ id, token, dados: (await agent('Ana').get(id)).dados! }),
    ).rejects.toMatchObject({ code: 'conflito' });
    const d = await agent('Ana').get(id);
    expect(d.filaEstado).toBe('aberta');
    expect(d.cobranca).toBeNull();
    expect(await auditOf(id)).toEqual([]);
  });
});
