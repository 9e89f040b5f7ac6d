/**
 * The permission matrix (#18 part 3) as the IPC wrapper enforces it, for every channel of the
 * contract, with real logins on real PostgreSQL through the app's bootstrap (startServices): each
 * role signs in and calls every channel; what the role may not do is refused in pt-BR before the
 * handler runs, what it may do reaches the handler. The expected matrix is written out here, not
 * read from CHANNEL_ACCESS: a change to the map fails this test until the matrix is agreed.
 * Also: Configurações changes are for supervisors (they apply to everyone on the computer), and
 * there is no operator name any more (#18 part 4).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS, type Channel, type IpcResult } from '@shared/contract';
import type { SettingsView } from '@shared/contract/settings';
import { startServices, type Services } from '../../src-main/start-services';
import { clockForLocalDate } from '../../src-main/clock';
import { urlForRole } from '../../src-main/db/urls';
import { invokeChannel } from '../../src-main/ipc/invoke';
import type { CallContext } from '../../src-main/ipc/types';
import { createPerson } from '../../src-main/people/admin';
import { createMemorySettings } from '../../src-main/settings/memory';
import { silentLogger } from '../../src-main/util/logger';
import { createTestDatabase, type TestDatabase } from '../support/db';

const ZONE = 'America/Sao_Paulo';
const P = `m${randomBytes(3).toString('hex')}`;
const SENHA = 'senha-da-matriz-789';
const LOGIN = { suporte: `${P}_sue`, financeiro: `${P}_fred`, supervisor: `${P}_sofia` } as const;
type Papel = keyof typeof LOGIN;

const FILA = [
  'review/list',
  'review/filterOptions',
  'review/get',
  'review/claim',
  'review/claimNext',
  'review/renew',
  'review/release',
  'review/validate',
  'review/save',
  'review/confirm',
  'review/askMerchant',
  'review/thread',
  'review/sendQuestion',
  'review/recordAnswer',
  'review/reprocess',
  'review/discard',
  'review/charges',
  'review/failureReport',
  'pix/status',
  'pix/failures',
  'pix/history',
  'pix/resend',
];
const VENDAS = [
  'sales/merchants',
  'sales/session',
  'sales/selectMerchant',
  'sales/ask',
  'sales/cancel',
  'sales/run',
  'sales/questionsReport',
  'sales/evalCaseDraft',
  'sales/addEvalCase',
];
const SUPERVISAO = [
  'review/takeOver',
  'review/reopen',
  'review/teamPanel',
  'review/bulk',
  'review/assignees',
  'settings/update',
  'settings/setApiKey',
  'settings/clearApiKey',
  'lgpd/exportar',
  'lgpd/anonimizar',
  'lgpd/revelar',
  'merchants/list',
  'merchants/get',
  'merchants/setPixKey',
  'merchants/addContact',
  'merchants/removeContact',
  'pix/cancel',
  'quality/next',
  'quality/judge',
  'quality/report',
  'quality/cancelCharge',
  // The installation's WhatsApp settings (#37.5): a supervisor changes them.
  'whatsapp/saveSettings',
  // The PSP and payment-link settings (#36.6), the same way.
  'psp/saveSettings',
];
const TODOS = [
  'app/info',
  'settings/get',
  'settings/testApiKey',
  'session/signOut',
  // #37.5: everyone sees the WhatsApp settings (never a secret, only whether each is set).
  'whatsapp/settings',
  'psp/settings',
];
const PUBLICOS = ['session/state', 'session/signIn'];

const MSG = {
  fila: 'Seu papel não inclui a fila de revisão (suporte ou supervisor).',
  vendas: 'Seu papel não inclui o painel de vendas (financeiro ou supervisor).',
  supervisao: 'Só um supervisor pode fazer isso.',
};
/** Expected refusal per role and channel (null: allowed). */
function expected(papel: Papel, ch: string): string | null {
  if (FILA.includes(ch)) return papel === 'financeiro' ? MSG.fila : null;
  if (VENDAS.includes(ch)) return papel === 'suporte' ? MSG.vendas : null;
  if (SUPERVISAO.includes(ch)) return papel === 'supervisor' ? null : MSG.supervisao;
  if (TODOS.includes(ch) || PUBLICOS.includes(ch)) return null;
  throw new Error(`canal fora da matriz: ${ch}`);
}

let db: TestDatabase;
let app: Services;
const ctx: CallContext = { sessionId: 'janela-m', emit: () => undefined };
const call = (ch: Channel, input: unknown): Promise<IpcResult<unknown>> =>
  invokeChannel(app.handlers, ch, input as never, ctx, silentLogger, app.gate);
const signIn = async (papel: Papel) => {
  const r = await call('session/signIn', { usuario: LOGIN[papel], senha: SENHA, lembrar: false });
  expect(r.ok, JSON.stringify(r)).toBe(true);
};

beforeAll(async () => {
  db = await createTestDatabase();
  for (const papel of Object.keys(LOGIN) as Papel[]) {
    await createPerson(db.admin, { nome: LOGIN[papel], papel, senha: SENHA });
  }
  app = await startServices({
    settings: createMemorySettings(
      {
        databaseUrl: urlForRole(db.adminUrl, `${P}_ninguem`),
        analyticsDatabaseUrl: db.analyticsUrl,
        timeZone: ZONE,
        operator: 'rotulo-digitado',
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
  for (const r of Object.values(LOGIN)) {
    await db.admin.query(`DROP ROLE IF EXISTS ${r}`).catch(() => 0);
  }
  await db.drop();
});

describe('every channel, every role (the matrix as tested)', () => {
  it('the matrix names every channel of the contract', () => {
    const listed = [...FILA, ...VENDAS, ...SUPERVISAO, ...TODOS, ...PUBLICOS].sort();
    expect(listed).toEqual([...CHANNELS].sort());
  });

  it.each(Object.keys(LOGIN) as Papel[])('%s', async (papel) => {
    await signIn(papel);
    const got: Record<string, string | null> = {};
    const want: Record<string, string | null> = {};
    for (const ch of CHANNELS) {
      if (ch.startsWith('session/')) continue; // signing in/out is exercised around this loop
      // An input no schema accepts: an allowed call stops at validation, never runs the handler.
      const r = await call(ch, { __matriz: 1 });
      got[ch] = !r.ok && r.error.code === 'acesso_negado' ? r.error.message : null;
      want[ch] = expected(papel, ch);
      if (got[ch] === null) expect(r.ok ? 'ok' : r.error.code, ch).toBe('entrada_invalida');
    }
    expect(got).toEqual(want);
    await call('session/signOut', {});
  });

  it('signed out, only the session channels answer', async () => {
    for (const ch of CHANNELS) {
      if (PUBLICOS.includes(ch)) continue;
      const r = await call(ch, {});
      expect(r.ok ? null : r.error.message, ch).toBe(
        'Entre com seu usuário e senha para continuar.',
      );
    }
  });
});

describe('Configurações (#18 parts 3 and 4)', () => {
  it('support and finance see the settings but cannot change them; a supervisor can', async () => {
    for (const papel of ['suporte', 'financeiro'] as const) {
      await signIn(papel);
      const seen = await call('settings/get', {});
      expect(seen.ok).toBe(true);
      for (const [ch, input] of [
        ['settings/update', { maxAttempts: 1, freeSqlEnabled: true }],
        ['settings/setApiKey', { apiKey: 'sk-ant-api03-' + 'x'.repeat(40) }],
        ['settings/clearApiKey', {}],
      ] as const) {
        expect(await call(ch, input)).toEqual({
          ok: false,
          error: { code: 'acesso_negado', message: MSG.supervisao },
        });
      }
      expect(app.deps.settings.get()).toMatchObject({ maxAttempts: 3, freeSqlEnabled: false });
      expect(app.deps.settings.getApiKey()).toBeUndefined();
      await call('session/signOut', {});
    }
    await signIn('supervisor');
    const r = await call('settings/update', { maxAttempts: 2 });
    expect(r).toMatchObject({ ok: true, data: { maxAttempts: 2 } });
    await call('settings/update', { maxAttempts: 3 });
    await call('session/signOut', {});
  });

  it('there is no operator name: the view has none, an update naming one is refused, the login is the identity', async () => {
    await signIn('supervisor');
    const v = await call('settings/get', {});
    expect(v.ok && Object.keys(v.data as SettingsView)).not.toContain('operator');
    const named = await call('settings/update', { operator: 'Outra Pessoa' });
    expect(named).toMatchObject({ ok: false, error: { code: 'entrada_invalida' } });
    const info = await call('app/info', {});
    expect(info).toMatchObject({ ok: true, data: { operator: LOGIN.supervisor } });
    await call('session/signOut', {});
  });
});

describe('membership changed mid-session', () => {
  it('a finance login removed from its group cannot read sales on its next call', async () => {
    await signIn('financeiro');
    await db.admin.query(`INSERT INTO merchants (id, nome) VALUES (7, 'Loja Sete')`);
    expect(await call('sales/selectMerchant', { merchantId: 7 })).toMatchObject({ ok: true });
    const run = { consulta: { metrica: 'total_bruto', periodo: 'semana_passada' } };
    expect(await call('sales/run', run)).toMatchObject({ ok: true });
    await db.admin.query(`REVOKE balcao_financeiro FROM ${LOGIN.financeiro}`);
    try {
      // Refused by the membership check before the analytics read, and the session follows.
      expect(await call('sales/run', run)).toEqual({
        ok: false,
        error: { code: 'acesso_negado', message: MSG.vendas },
      });
      expect(await call('session/state', {})).toMatchObject({
        ok: true,
        data: { login: LOGIN.financeiro, papeis: [], permissoes: [] },
      });
    } finally {
      await db.admin.query(`GRANT balcao_financeiro TO ${LOGIN.financeiro}`);
      await call('session/signOut', {});
    }
  });
});
