/**
 * #36.5 / #37.1 — the supervisor's merchant screen through the IPC wrapper with real logins
 * (startServices, real PostgreSQL and its grants): suporte is refused; a supervisor finds a
 * merchant (name, phone, keyset pages), sets its Pix key (a bad one refused in pt-BR by the
 * shared validator), adds and removes WhatsApp numbers (one number → one merchant), sees the
 * charge waiting in "Falhas no PSP" for want of a key and sends it again. Every change audited
 * with the supervisor's login.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Channel, IpcResult } from '@shared/contract';
import type { LojistaDetalhe, LojistaResumo } from '@shared/contract/merchants';
import { clockForLocalDate } from '../../src-main/clock';
import { urlForRole } from '../../src-main/db/urls';
import { invokeChannel } from '../../src-main/ipc/invoke';
import type { CallContext } from '../../src-main/ipc/types';
import { createPerson } from '../../src-main/people/admin';
import { SEM_CHAVE } from '../../src-main/psp/dispatch';
import { createMemorySettings } from '../../src-main/settings/memory';
import { startServices, type Services } from '../../src-main/start-services';
import { silentLogger } from '../../src-main/util/logger';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { dados, ensureMerchants, insertExtraction, queueFor } from '../support/queue-fixtures';

const ZONE = 'America/Sao_Paulo';
const P = `j${randomBytes(3).toString('hex')}`;
const SENHA = 'senha-lojistas-789';
const SUPORTE = `${P}_sue`;
const SUPERVISOR = `${P}_sofia`;

let db: TestDatabase;
let app: Services;
let cobranca: number;
const ctx: CallContext = { sessionId: 'janela-lojistas', emit: () => undefined };
const call = <T>(ch: Channel, input: unknown) =>
  invokeChannel(app.handlers, ch, input as never, ctx, silentLogger, app.gate) as Promise<
    IpcResult<T>
  >;
const ok = async <T>(ch: Channel, input: unknown): Promise<T> => {
  const r = await call<T>(ch, input);
  if (!r.ok) throw new Error(`${ch}: ${JSON.stringify(r.error)}`);
  return r.data;
};
const signIn = async (usuario: string) => {
  await call('session/signOut', {});
  const r = await call('session/signIn', { usuario, senha: SENHA, lembrar: false });
  expect(r.ok, JSON.stringify(r)).toBe(true);
};
const audits = async (acao: string) =>
  (
    await db.admin.query<{ login: string; antes: unknown; depois: unknown }>(
      'SELECT login, antes, depois FROM auditoria WHERE acao = $1 ORDER BY id',
      [acao],
    )
  ).rows;

beforeAll(async () => {
  db = await createTestDatabase();
  await ensureMerchants(db.admin, { 1: 'Padaria Central', 2: 'Oficina 50% Certa', 3: 'Bazar' });
  await db.admin.query(`UPDATE merchants SET chave_pix = NULL WHERE id IN (1, 2, 3)`);
  // A Pix charge the dispatch refused because the merchant had no key (as dispatch.ts does).
  const d = dados({ metodo: 'pix', parcelas: 1, valor_centavos: 4500, vencimento: '2026-12-20' });
  const id = await insertExtraction(db.admin, { merchantId: 1, status: 'completo', dados: d });
  const q = queueFor(db.app, { operator: 'Ana' });
  const lease = await q.claim(id);
  if (!lease.claimed) throw new Error(lease.mensagem);
  cobranca = (await q.confirm({ id, token: lease.token, dados: d })).cobranca.id;
  await db.admin.query(
    `UPDATE cobrancas_envios SET estado = 'falhou', motivo = $2 WHERE cobranca_id = $1`,
    [cobranca, SEM_CHAVE],
  );
  await createPerson(db.admin, { nome: SUPORTE, papel: 'suporte', senha: SENHA });
  await createPerson(db.admin, { nome: SUPERVISOR, papel: 'supervisor', senha: SENHA });
  app = await startServices({
    settings: createMemorySettings(
      {
        databaseUrl: urlForRole(db.adminUrl, `${P}_ninguem`),
        analyticsDatabaseUrl: db.analyticsUrl,
        timeZone: ZONE,
      },
      {},
    ),
    dataDir: '/nao-usado',
    logger: silentLogger,
    appVersion: 'teste',
    clock: clockForLocalDate('2026-11-30', ZONE),
    env: {},
  });
});
afterAll(async () => {
  await app?.close();
  for (const r of [SUPORTE, SUPERVISOR]) {
    await db.admin.query(`DROP ROLE IF EXISTS ${r}`).catch(() => 0);
  }
  await db.drop();
});

describe('the merchant screen', () => {
  it('is refused to suporte in pt-BR, and nothing changes', async () => {
    await signIn(SUPORTE);
    for (const [ch, input] of [
      ['merchants/list', {}],
      ['merchants/setPixKey', { merchantId: 1, chave: 'pix@padaria.com.br' }],
      ['merchants/addContact', { merchantId: 1, telefone: '+5511987654321' }],
    ] as const) {
      expect(await call(ch, input)).toEqual({
        ok: false,
        error: { code: 'acesso_negado', message: 'Só um supervisor pode fazer isso.' },
      });
    }
    const m = await db.admin.query('SELECT chave_pix FROM merchants WHERE id = 1');
    expect(m.rows[0]).toEqual({ chave_pix: null });
  });

  it('finds merchants by name (a % is a letter) and pages by keyset', async () => {
    await signIn(SUPERVISOR);
    const byName = await ok<{ items: LojistaResumo[] }>('merchants/list', { busca: 'padaria' });
    expect(byName.items).toEqual([
      { id: 1, nome: 'Padaria Central', chavePix: null, contatos: 0, falhas: 1 },
    ]);
    const pct = await ok<{ items: LojistaResumo[] }>('merchants/list', { busca: '50%' });
    expect(pct.items.map((m) => m.id)).toEqual([2]);
    const first = await ok<{ items: LojistaResumo[]; proximo: number | null }>('merchants/list', {
      limit: 2,
    });
    expect(first.items.map((m) => m.id)).toEqual([1, 2]);
    expect(first.proximo).toBe(2);
    const next = await ok<{ items: LojistaResumo[]; proximo: number | null }>('merchants/list', {
      limit: 2,
      depoisDe: first.proximo,
    });
    expect(next.items.map((m) => m.id)).toEqual([3]);
    expect(next.proximo).toBeNull();
  });

  it('sets the Pix key with the shared validator: a bad CPF is refused in pt-BR, then an e-mail', async () => {
    await signIn(SUPERVISOR);
    const bad = await call('merchants/setPixKey', { merchantId: 1, chave: '123.456.789-00' });
    expect(bad).toEqual({
      ok: false,
      error: {
        code: 'entrada_invalida',
        message: 'CPF inválido (dígitos verificadores não conferem): 123.456.789-00.',
      },
    });
    const set = await ok('merchants/setPixKey', {
      merchantId: 1,
      chave: ' Financeiro@Padaria.com.br ',
    });
    expect(set).toEqual({ chavePix: 'financeiro@padaria.com.br', tipo: 'email' });
    expect(await audits('chave_pix_alterada')).toEqual([
      {
        login: SUPERVISOR,
        antes: { chave_pix: null },
        depois: { chave_pix: 'financeiro@padaria.com.br', tipo: 'email' },
      },
    ]);
    const semChave = await ok<{ items: LojistaResumo[] }>('merchants/list', { semChave: true });
    expect(semChave.items.map((m) => m.id)).toEqual([2, 3]);
  });

  it('adds a WhatsApp number once; the same number for another merchant is refused, naming it', async () => {
    await signIn(SUPERVISOR);
    const add = await ok('merchants/addContact', {
      merchantId: 1,
      telefone: '+55 (11) 98765-4321',
    });
    expect(add).toEqual({ telefone: '+5511987654321', criado: true });
    expect(await ok('merchants/addContact', { merchantId: 1, telefone: '+5511987654321' })).toEqual(
      { telefone: '+5511987654321', criado: false },
    );
    const taken = await call('merchants/addContact', {
      merchantId: 2,
      telefone: '+5511987654321',
    });
    expect(taken.ok).toBe(false);
    if (!taken.ok) {
      expect(taken.error.code).toBe('conflito');
      expect(taken.error.message).toContain('lojista #1 (Padaria Central)');
    }
    const bad = await call('merchants/addContact', { merchantId: 2, telefone: '12' });
    expect(bad.ok ? 'ok' : bad.error.code).toBe('entrada_invalida');
    const byPhone = await ok<{ items: LojistaResumo[] }>('merchants/list', { busca: '98765-4321' });
    expect(byPhone.items.map((m) => [m.id, m.contatos])).toEqual([[1, 1]]);
    expect((await audits('contato_whatsapp_adicionado')).map((a) => a.login)).toEqual([SUPERVISOR]);
  });

  it('shows the merchant: key, numbers, the charge waiting for a key; Reenviar sends it on; a number removed', async () => {
    await signIn(SUPERVISOR);
    const m = await ok<LojistaDetalhe>('merchants/get', { merchantId: 1 });
    expect(m).toMatchObject({
      id: 1,
      nome: 'Padaria Central',
      chavePix: 'financeiro@padaria.com.br',
      chaveTipo: 'email',
      contatos: [{ telefone: '+5511987654321', criadoPor: expect.any(String) as string }],
    });
    expect(m.falhas.map((f) => [f.cobrancaId, f.semChave, f.temChavePix])).toEqual([
      [cobranca, true, true],
    ]);
    // No PSP configured here: sent again, the charge waits as pendente (and says why).
    const r = await ok<{ estado: string }>('pix/resend', { cobrancaId: cobranca });
    expect(r.estado).toBe('pendente');
    expect((await ok<LojistaDetalhe>('merchants/get', { merchantId: 1 })).falhas).toEqual([]);
    expect(
      await ok('merchants/removeContact', { merchantId: 1, telefone: '+55 11 98765-4321' }),
    ).toEqual({ telefone: '+5511987654321' });
    expect((await ok<LojistaDetalhe>('merchants/get', { merchantId: 1 })).contatos).toEqual([]);
    const again = await call('merchants/removeContact', {
      merchantId: 1,
      telefone: '+5511987654321',
    });
    expect(again.ok ? 'ok' : again.error.code).toBe('nao_encontrado');
    expect((await audits('contato_whatsapp_removido')).map((a) => a.login)).toEqual([SUPERVISOR]);
    const missing = await call('merchants/get', { merchantId: 999 });
    expect(missing.ok ? 'ok' : missing.error.code).toBe('nao_encontrado');
  });
});
