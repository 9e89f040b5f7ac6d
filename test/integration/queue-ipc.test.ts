import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventName, Events } from '../../src-shared/contract';
import { fixedClock } from '../../src-main/clock';
import type { ServiceDeps } from '../../src-main/deps';
import { createHandlers } from '../../src-main/ipc/handlers';
import { invokeChannel } from '../../src-main/ipc/invoke';
import type { CallContext } from '../../src-main/ipc/types';
import { createMemorySettings } from '../../src-main/settings/memory';
import { silentLogger } from '../../src-main/util/logger';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { dados, ensureMerchants, insertExtraction } from '../support/queue-fixtures';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await ensureMerchants(db.admin, { 1: 'Padaria Central' });
});
afterAll(() => db.drop());

function app(operator: string) {
  const deps: ServiceDeps = {
    settings: createMemorySettings({ operator, timeZone: 'America/Sao_Paulo' }, {}),
    clock: fixedClock(new Date('2026-11-30T15:00:00Z')),
    dbs: { admin: db.admin, app: db.app, analytics: db.analytics },
    logger: silentLogger,
    databaseMode: 'external',
    appVersion: 'teste',
  };
  const handlers = createHandlers(deps);
  return (channel: string, input: unknown, ctx: CallContext) =>
    invokeChannel(handlers, channel, input, ctx);
}

function window_(id: string) {
  const abort = new AbortController();
  const ctx: CallContext = {
    sessionId: id,
    signal: abort.signal,
    emit: <E extends EventName>(_e: E, _p: Events[E]) => undefined,
  };
  return { ctx, close: () => abort.abort() };
}

async function holder(id: number): Promise<string | null> {
  const r = await db.admin.query<{ h: string | null }>(
    `SELECT CASE WHEN lease_expira_em > now() THEN lease_operador END AS h FROM extracoes WHERE id = $1`,
    [id],
  );
  return r.rows[0]?.h ?? null;
}

describe('review channels through the IPC wrapper', () => {
  it('audits with the operator setting and refuses bad input in pt-BR', async () => {
    const id = await insertExtraction(db.admin);
    const call = app('Ana Operadora');
    const w = window_('w1');
    const claim = await call('review/claim', { id }, w.ctx);
    expect(claim).toMatchObject({ ok: true, data: { claimed: true } });
    const token = (claim as { data: { token: string } }).data.token;
    const bad = await call('review/discard', { id, token, motivo: 'porque sim' }, w.ctx);
    expect(bad).toMatchObject({
      ok: false,
      error: { code: 'entrada_invalida', message: 'Escolha um motivo da lista.' },
    });
    const notUuid = await call('review/release', { id, token: 'x' }, w.ctx);
    expect(notUuid).toMatchObject({
      ok: false,
      error: { message: 'Reserva inválida. Abra o item de novo.' },
    });
    const ok = await call('review/confirm', { id, token, dados: dados() }, w.ctx);
    expect(ok).toMatchObject({
      ok: true,
      data: { criada: true, cobranca: { criadaPor: 'Ana Operadora' } },
    });
    const a = await db.admin.query(
      `SELECT operador FROM auditoria WHERE extracao_id = $1 AND acao = 'cobranca_criada'`,
      [id],
    );
    expect(a.rows).toEqual([{ operador: 'Ana Operadora' }]);
    // A rule failure comes back per field, in pt-BR, never as a raw error.
    const id2 = await insertExtraction(db.admin);
    const c2 = (await call('review/claim', { id: id2 }, w.ctx)) as { data: { token: string } };
    const r = await call(
      'review/confirm',
      { id: id2, token: c2.data.token, dados: dados({ metodo: 'pix', parcelas: 3 }) },
      w.ctx,
    );
    expect(r).toMatchObject({
      ok: false,
      error: {
        code: 'entrada_invalida',
        fields: { parcelas: ['Pix e boleto aceitam só 1 parcela. Parcelamento só no cartão.'] },
      },
    });
  });

  it('closing a window gives its items back at once', async () => {
    const ids = [await insertExtraction(db.admin), await insertExtraction(db.admin)];
    const call = app('Ana');
    const w = window_('janela-ana');
    for (const id of ids)
      expect(await call('review/claim', { id }, w.ctx)).toMatchObject({
        ok: true,
        data: { claimed: true },
      });
    expect(await holder(ids[0]!)).toBe('Ana');
    w.close();
    await expect.poll(() => Promise.all(ids.map(holder)), { timeout: 3000 }).toEqual([null, null]);
    const bia = window_('janela-bia');
    expect(await app('Bia')('review/claim', { id: ids[0] }, bia.ctx)).toMatchObject({
      ok: true,
      data: { claimed: true },
    });
  });
});
