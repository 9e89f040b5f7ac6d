/**
 * One "Confirmar" normalizes the agent's charge once (it used to be three times: confirm,
 * creation and validation each ran their own `normalizeDados`).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as ChargeSchema from '../../src-shared/charge-schema';
import { normalizeDados } from '../../src-shared/charge-schema';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { dados, ensureMerchants, insertExtraction, queueFor } from '../support/queue-fixtures';

vi.mock('../../src-shared/charge-schema', async (original) => {
  const m = await original<typeof ChargeSchema>();
  return { ...m, normalizeDados: vi.fn(m.normalizeDados) };
});
const spy = vi.mocked(normalizeDados);

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await ensureMerchants(db.admin, { 1: 'Padaria Central' });
});
afterAll(async () => {
  await db.drop();
});
beforeEach(() => {
  spy.mockClear();
});

const queue = () => queueFor(db.app);

async function held() {
  const q = queue();
  const id = await insertExtraction(db.admin);
  const c = await q.claim(id);
  if (!c.claimed) throw new Error(c.mensagem);
  spy.mockClear();
  return { q, id, token: c.token };
}

describe('normalizeDados runs once per action', () => {
  it('confirm (creating the charge)', async () => {
    const { q, id, token } = await held();
    const r = await q.confirm({ id, token, dados: dados({ cliente_nome: '  Maria  ' }) });
    expect(r).toMatchObject({ criada: true, cobranca: { clienteNome: 'Maria' } });
    expect(spy).toHaveBeenCalledTimes(1);
  });

  it('confirm refused by the rules', async () => {
    const { q, id, token } = await held();
    await expect(
      q.confirm({ id, token, dados: dados({ metodo: 'pix', parcelas: 3 }) }),
    ).rejects.toMatchObject({ code: 'entrada_invalida' });
    expect(spy).toHaveBeenCalledTimes(1);
  });

  it('validate and save', async () => {
    const { q, id, token } = await held();
    expect(q.validate(dados()).ok).toBe(true);
    expect(spy).toHaveBeenCalledTimes(1);
    await q.save({ id, token, dados: dados({ descricao: '  ' }) });
    expect(spy).toHaveBeenCalledTimes(2);
  });
});
