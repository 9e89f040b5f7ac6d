/**
 * #38.2/#38.4 through the IPC wrapper with real logins (startServices, real PostgreSQL): a
 * suporte login is refused the LGPD channels in pt-BR before any data is read; a supervisor
 * reveals a masked CPF (the audit row says who saw which field, with the CPF masked), exports a
 * data subject and anonymises them only with the confirmation.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Channel, IpcResult } from '@shared/contract';
import type { LgpdExportacao } from '@shared/lgpd';
import { MARCADOR_TITULAR } from '@shared/lgpd';
import { clockForLocalDate } from '../../src-main/clock';
import { urlForRole } from '../../src-main/db/urls';
import { invokeChannel } from '../../src-main/ipc/invoke';
import type { CallContext } from '../../src-main/ipc/types';
import { createPerson } from '../../src-main/people/admin';
import { createMemorySettings } from '../../src-main/settings/memory';
import { startServices, type Services } from '../../src-main/start-services';
import { silentLogger } from '../../src-main/util/logger';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { insertTrail, type Trail } from '../support/lgpd-fixtures';
import { ensureMerchants } from '../support/queue-fixtures';

const ZONE = 'America/Sao_Paulo';
const P = `l${randomBytes(3).toString('hex')}`;
const SENHA = 'senha-lgpd-ipc-456';
const SUPORTE = `${P}_sue`;
const SUPERVISOR = `${P}_sofia`;
const CPF = '529.982.247-25';

let db: TestDatabase;
let app: Services;
let trail: Trail;
const ctx: CallContext = { sessionId: 'janela-lgpd', emit: () => undefined };
const call = <T>(ch: Channel, input: unknown) =>
  invokeChannel(app.handlers, ch, input as never, ctx, silentLogger, app.gate) as Promise<
    IpcResult<T>
  >;
const signIn = async (usuario: string) => {
  await call('session/signOut', {});
  const r = await call('session/signIn', { usuario, senha: SENHA, lembrar: false });
  expect(r.ok, JSON.stringify(r)).toBe(true);
};

beforeAll(async () => {
  db = await createTestDatabase();
  await ensureMerchants(db.admin, { 1: 'Padaria Central' });
  trail = await insertTrail(db.admin, {
    merchantId: 1,
    texto: `link de R$ 150,00 pro João Silva, CPF ${CPF}`,
    nome: 'João Silva',
    documento: '52998224725',
    diasAtras: 1,
    agora: new Date('2026-03-16T12:00:00Z'),
    valorCentavos: 15000,
  });
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
    clock: clockForLocalDate('2026-03-16', ZONE),
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

const audits = async (acao: string) =>
  (
    await db.admin.query<{ login: string; detalhes: Record<string, unknown> }>(
      'SELECT login, detalhes FROM auditoria WHERE acao = $1 ORDER BY id',
      [acao],
    )
  ).rows;

describe('LGPD channels', () => {
  it('suporte is refused every LGPD channel in pt-BR, and nothing is audited', async () => {
    await signIn(SUPORTE);
    for (const [ch, input] of [
      ['lgpd/revelar', { campo: 'mensagens.texto', id: trail.mensagem }],
      ['lgpd/exportar', { documento: CPF }],
      ['lgpd/anonimizar', { documento: CPF, confirmado: true }],
    ] as const) {
      const r = await call(ch, input);
      expect(r).toEqual({
        ok: false,
        error: { code: 'acesso_negado', message: 'Só um supervisor pode fazer isso.' },
      });
    }
    expect(await audits('lgpd_revelar')).toEqual([]);
  });

  it('a supervisor reveals a masked CPF; the audit row says who saw which field', async () => {
    await signIn(SUPERVISOR);
    const r = await call<{ valor: string }>('lgpd/revelar', {
      campo: 'mensagens.texto',
      id: trail.mensagem,
    });
    expect(r).toEqual({
      ok: true,
      data: { valor: `link de R$ 150,00 pro João Silva, CPF ${CPF}` },
    });
    const a = await audits('lgpd_revelar');
    expect(a).toHaveLength(1);
    expect(a[0]!.login).toBe(SUPERVISOR);
    expect(a[0]!.detalhes).toEqual({
      tabela: 'mensagens',
      id: String(trail.mensagem),
      campo: 'texto',
      mascarado: 'link de R$ 150,00 pro João Silva, CPF ***.982.247-**',
    });
    const doc = await call<{ valor: string }>('lgpd/revelar', {
      campo: 'cobrancas.cliente_documento',
      id: trail.cobranca,
    });
    expect(doc).toEqual({ ok: true, data: { valor: '52998224725' } });
    const bad = await call('lgpd/revelar', { campo: 'auditoria.detalhes', id: 1 });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.code).toBe('entrada_invalida');
  });

  it('a supervisor exports, and anonymises only with the confirmation', async () => {
    await signIn(SUPERVISOR);
    const e = await call<LgpdExportacao>('lgpd/exportar', { documento: '52998224725' });
    expect(e.ok).toBe(true);
    if (e.ok) expect(e.data.mensagens.map((m) => m.origem.id)).toEqual([String(trail.mensagem)]);
    const unconfirmed = await call('lgpd/anonimizar', { documento: CPF });
    expect(unconfirmed.ok).toBe(false);
    const done = await call<{ campos: number }>('lgpd/anonimizar', {
      documento: CPF,
      confirmado: true,
    });
    expect(done.ok).toBe(true);
    const m = await db.admin.query('SELECT texto FROM mensagens WHERE id = $1', [trail.mensagem]);
    expect(m.rows[0].texto).toBe(
      `link de R$ 150,00 pro ${MARCADOR_TITULAR}, CPF ${MARCADOR_TITULAR}`,
    );
    expect((await audits('lgpd_anonimizar'))[0]!.login).toBe(SUPERVISOR);
    const gone = await call('lgpd/revelar', {
      campo: 'cobrancas.cliente_documento',
      id: trail.cobranca,
    });
    expect(gone).toEqual({
      ok: false,
      error: { code: 'nao_encontrado', message: 'Este dado não existe mais (ou foi anonimizado).' },
    });
  });
});
