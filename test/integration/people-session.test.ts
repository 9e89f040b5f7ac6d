/**
 * Sign-in and permissions through the app's real bootstrap (startServices) and the one IPC
 * wrapper, on real PostgreSQL with real logins: DATABASE_URL's own login is refused, so each
 * person signs in; the wrapper refuses what the person's role does not allow (pt-BR), the
 * database records the login, sign-out gives items back, a deactivated login is cut off.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Channel, ChannelInput, IpcResult } from '@shared/contract';
import type { SessionView } from '@shared/contract/session';
import { startServices, type Services } from '../../src-main/start-services';
import { clockForLocalDate } from '../../src-main/clock';
import { urlForRole } from '../../src-main/db/urls';
import { invokeChannel } from '../../src-main/ipc/invoke';
import type { CallContext } from '../../src-main/ipc/types';
import { createPerson, deactivatePerson } from '../../src-main/people/admin';
import { createAccess } from '../../src-main/people/session';
import { ensureLocalSupervisor, localLoginName } from '../../src-main/people/local';
import { createHandlers } from '../../src-main/ipc/handlers';
import { createMemorySettings } from '../../src-main/settings/memory';
import { silentLogger } from '../../src-main/util/logger';
import { redactText } from '../../src-main/util/redact';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { dados, insertExtraction } from '../support/queue-fixtures';

const ZONE = 'America/Sao_Paulo';
const P = `s${randomBytes(3).toString('hex')}`;
const SENHA = 'senha-de-teste-456';
const SUP = `${P}_ana`;
const FIN = `${P}_fabio`;
const SV = `${P}_sara`;
const LOCAL = `${P}_local`;

let db: TestDatabase;
let app: Services;
const ctx: CallContext = { sessionId: 'janela-1', emit: () => undefined };

function call<K extends Channel>(channel: K, input: ChannelInput<K>): Promise<IpcResult<unknown>> {
  return invokeChannel(app.handlers, channel, input, ctx, silentLogger, app.gate);
}
async function ok<T>(channel: Channel, input: unknown = {}): Promise<T> {
  const r = await call(channel, input as never);
  if (!r.ok)
    throw new Error(`${channel}: esperava sucesso, veio ${r.error.code} ${r.error.message}`);
  return r.data as T;
}
async function refused(channel: Channel, input: unknown = {}) {
  const r = await call(channel, input as never);
  if (r.ok) throw new Error(`${channel}: esperava recusa`);
  return r.error;
}
const signIn = (usuario: string, senha = SENHA, lembrar = false) =>
  call('session/signIn', { usuario, senha, lembrar });

beforeAll(async () => {
  db = await createTestDatabase();
  await db.admin.query(`INSERT INTO merchants (id, nome) VALUES (1, 'Padaria São Jorge')`);
  await db.admin.query(
    `INSERT INTO transacoes (merchant_id, status, modalidade, bandeira, valor_bruto_centavos,
       valor_liquido_centavos, aprovada_em)
     VALUES (1, 'aprovada', 'pix', NULL, 10000, 9900, '2026-03-10T10:00:00-03:00')`,
  );
  for (const [nome, papel] of [
    [SUP, 'suporte'],
    [FIN, 'financeiro'],
    [SV, 'supervisor'],
  ] as const) {
    await createPerson(db.admin, { nome, papel, senha: SENHA });
  }
  app = await startServices({
    // No password anywhere for this login: the server refuses it, so people sign in.
    settings: createMemorySettings(
      {
        databaseUrl: urlForRole(db.adminUrl, `${P}_ninguem`),
        analyticsDatabaseUrl: db.analyticsUrl,
        timeZone: ZONE,
        queryTimeoutMs: 3000,
      },
      {},
    ),
    dataDir: '/nao-usado',
    logger: silentLogger,
    appVersion: 'teste',
    clock: clockForLocalDate('2026-03-16', ZONE),
    env: {},
  });
});
afterAll(async () => {
  await app?.close();
  for (const r of [SUP, FIN, SV, LOCAL]) {
    await db.admin.query(`DROP ROLE IF EXISTS ${r}`).catch(() => 0);
  }
  await db.drop();
});

describe('sign-in', () => {
  it('starts signed out: only the session channels answer', async () => {
    const v = await ok<SessionView>('session/state');
    expect(v).toMatchObject({ modo: 'pessoal', entrou: false, login: null, permissoes: [] });
    expect(await refused('review/list', {})).toEqual({
      code: 'acesso_negado',
      message: 'Entre com seu usuário e senha para continuar.',
    });
    expect(await refused('app/info')).toMatchObject({ code: 'acesso_negado' });
  });

  it('a wrong password, an unknown user and "lembrar" without safeStorage are refused in pt-BR', async () => {
    const wrong = await signIn(SUP, 'errada-errada');
    expect(wrong).toEqual({
      ok: false,
      error: { code: 'acesso_negado', message: 'Usuário ou senha incorretos.' },
    });
    // A typed password (right or wrong) is a secret from then on: no log line or error shows it.
    expect(redactText('login falhou com errada-errada')).toBe('login falhou com ***');
    expect(await signIn(`${P}_fantasma`)).toMatchObject({
      ok: false,
      error: { message: 'Usuário ou senha incorretos.' },
    });
    const remember = await signIn(SUP, SENHA, true);
    expect(remember).toMatchObject({ ok: false, error: { code: 'configuracao' } });
    if (!remember.ok) expect(remember.error.message).toContain('cofre protegido');
    expect((await ok<SessionView>('session/state')).entrou).toBe(false);
  });
});

describe('support', () => {
  it('works the queue as itself; cannot call sales channels nor supervisor actions', async () => {
    const v = await ok<SessionView>('session/signIn', { usuario: SUP, senha: SENHA });
    expect(v).toMatchObject({
      modo: 'pessoal',
      entrou: true,
      login: SUP,
      papeis: ['suporte'],
      permissoes: ['fila'],
      podeSair: true,
    });
    const id = await insertExtraction(db.admin, { merchantId: 1 });
    const c = await ok<{ claimed: boolean; token: string }>('review/claim', { id });
    expect(c.claimed).toBe(true);
    await ok('review/save', { id, token: c.token, dados: dados({ cliente_nome: 'Maria' }) });
    const info = await ok<{ operator: string }>('app/info');
    expect(info.operator).toBe(SUP);
    const salesMsg = 'Seu papel não inclui o painel de vendas (financeiro ou supervisor).';
    for (const ch of [
      'sales/session',
      'sales/merchants',
      'sales/run',
      'sales/questionsReport',
    ] as const) {
      expect((await refused(ch, ch === 'sales/merchants' ? { busca: 'pad' } : {})).message).toBe(
        salesMsg,
      );
    }
    expect(await refused('review/takeOver', { id })).toEqual({
      code: 'acesso_negado',
      message: 'Só um supervisor pode fazer isso.',
    });
    // Sign-out gives the item back (audited as this login) and ends the session.
    const out = await ok<SessionView>('session/signOut');
    expect(out).toMatchObject({ entrou: false, login: null });
    const row = await db.admin.query('SELECT lease_login FROM extracoes WHERE id = $1', [id]);
    expect(row.rows[0]).toEqual({ lease_login: null });
    const audit = await db.admin.query(
      'SELECT operador, login, acao FROM auditoria WHERE extracao_id = $1 ORDER BY id',
      [id],
    );
    expect(audit.rows).toEqual([
      { operador: SUP, login: SUP, acao: 'assumiu' },
      { operador: SUP, login: SUP, acao: 'rascunho_salvo' },
      { operador: SUP, login: SUP, acao: 'liberou' },
    ]);
    expect((await refused('review/list', {})).message).toBe(
      'Entre com seu usuário e senha para continuar.',
    );
  });
});

describe('sign-out after browsing', () => {
  it('ends the session promptly after the screens loaded their data', async () => {
    await ok('session/signIn', { usuario: SUP, senha: SENHA });
    await ok('review/list', {});
    await ok('review/filterOptions', {});
    await ok('review/charges', {});
    await ok('review/failureReport', { de: '2026-03-01', ate: '2026-03-16' });
    await ok('app/info');
    const t0 = Date.now();
    expect(await ok<SessionView>('session/signOut')).toMatchObject({ entrou: false });
    // What this catches is a sign-out that waits for a client never returned to the pool: that
    // waits forever. The bound is far above any real sign-out, whatever the machine's load.
    expect(Date.now() - t0).toBeLessThan(20_000);
  });
});

describe('finance', () => {
  it('asks sales questions (logged with its login); cannot claim, confirm or discard', async () => {
    await ok('session/signIn', { usuario: FIN, senha: SENHA });
    const id = await insertExtraction(db.admin, { merchantId: 1 });
    const filaMsg = 'Seu papel não inclui a fila de revisão (suporte ou supervisor).';
    expect((await refused('review/claim', { id })).message).toBe(filaMsg);
    const token = '00000000-0000-4000-8000-000000000000';
    expect((await refused('review/confirm', { id, token, dados: dados() })).message).toBe(filaMsg);
    expect((await refused('review/discard', { id, token, motivo: 'teste' })).message).toBe(filaMsg);
    await ok('sales/selectMerchant', { merchantId: 1 });
    const r = await ok<{ tipo: string }>('sales/run', {
      consulta: { metrica: 'total_bruto', periodo: 'semana_passada' },
    });
    expect(r.tipo).toBe('resposta');
    const log = await db.admin.query(
      'SELECT operador, login FROM consultas_vendas ORDER BY id DESC LIMIT 1',
    );
    expect(log.rows).toEqual([{ operador: FIN, login: FIN }]);
    await ok('session/signOut');
  });
});

describe('supervisor and deactivation', () => {
  it('takes over and reopens through the channels; a deactivated login is cut off on its next call', async () => {
    // Another desktop: support holds an item.
    const id = await insertExtraction(db.admin, { merchantId: 1 });
    const other = createAccess({
      modo: 'pessoal',
      base: app.deps,
      makeHandlers: createHandlers,
      personUrl: (u, p) => urlForRole(db.adminUrl, u, p),
    });
    await other.session.signIn({ usuario: SUP, senha: SENHA, lembrar: false });
    const held = await invokeChannel(
      other.handlers(),
      'review/claim',
      { id },
      ctx,
      silentLogger,
      other.gate,
    );
    expect(held.ok).toBe(true);

    await ok('session/signIn', { usuario: SV, senha: SENHA });
    const t = await ok<{ token: string }>('review/takeOver', { id });
    await ok('review/discard', { id, token: t.token, motivo: 'duplicada' });
    const reopened = await ok<{ filaEstado: string }>('review/reopen', { id });
    expect(reopened.filaEstado).toBe('aberta');
    const audit = await db.admin.query(
      `SELECT login, acao, detalhes->>'de' AS de, detalhes->>'descartada_por' AS descartada_por
         FROM auditoria WHERE extracao_id = $1 AND acao IN ('assumiu_de', 'reaberta') ORDER BY id`,
      [id],
    );
    expect(audit.rows).toEqual([
      { login: SV, acao: 'assumiu_de', de: SUP, descartada_por: null },
      { login: SV, acao: 'reaberta', de: null, descartada_por: SV },
    ]);

    // The support desktop is cut off on its next call, with a clear message.
    await deactivatePerson(db.admin, SUP);
    const cut = await invokeChannel(
      other.handlers(),
      'review/list',
      {},
      ctx,
      silentLogger,
      other.gate,
    );
    expect(cut).toEqual({
      ok: false,
      error: {
        code: 'acesso_negado',
        message: `O login ${SUP} foi desativado: sua sessão foi encerrada. Fale com um supervisor.`,
      },
    });
    expect(other.view()).toMatchObject({
      entrou: false,
      aviso: expect.stringContaining('desativado'),
    });
    expect(
      await other.session
        .signIn({ usuario: SUP, senha: SENHA, lembrar: false })
        .catch((e: Error) => e.message),
    ).toBe('Este login está desativado ou não pode entrar no banco. Fale com um supervisor.');
    await other.close();
    await ok('session/signOut');
  });
});

describe('embedded default', () => {
  it("the local user's login is the single supervisor, signed in from the start", async () => {
    expect(localLoginName('Maria Souza')).toBe('maria_souza');
    expect(localLoginName('postgres')).toBe('local_postgres');
    expect(localLoginName('João')).toBe('joao');
    expect(await ensureLocalSupervisor(db.admin, LOCAL, 'senha-local-123')).toBe(true);
    // Idempotent (every start refreshes it).
    expect(await ensureLocalSupervisor(db.admin, LOCAL, 'senha-local-123')).toBe(true);
    expect(await ensureLocalSupervisor(db.admin, 'postgres', 'x')).toBe(false);
    const unico = createAccess({ modo: 'unico', base: app.deps, makeHandlers: createHandlers });
    await unico.adopt(urlForRole(db.adminUrl, LOCAL, 'senha-local-123'));
    expect(unico.view()).toMatchObject({
      modo: 'unico',
      entrou: true,
      login: LOCAL,
      papeis: ['supervisor'],
      permissoes: ['fila', 'vendas', 'supervisao'],
      podeSair: false,
    });
    const out = await invokeChannel(
      unico.handlers(),
      'session/signOut',
      {},
      ctx,
      silentLogger,
      unico.gate,
    );
    expect(out.ok).toBe(false);
    await unico.close();
  });
});
