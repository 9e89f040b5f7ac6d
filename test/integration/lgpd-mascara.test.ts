/**
 * #38.2 through the IPC wrapper with real logins (startServices, real PostgreSQL): a suporte
 * login's review item (the merchant's text, the charge fields, the attempts, the audit), the
 * queue list and the Cobranças list carry CPFs masked, never in clear; the item's form saved
 * back with the masked document keeps the stored one; the CLI's `fila mostrar` (review/get) the
 * same. The supervisor's reveal is lgpd/revelar (lgpd-ipc.test.ts).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Channel, IpcResult } from '@shared/contract';
import type { ExtractionDetail, QueuePage } from '@shared/contract/review';
import { clockForLocalDate } from '../../src-main/clock';
import { urlForRole } from '../../src-main/db/urls';
import { invokeChannel } from '../../src-main/ipc/invoke';
import type { CallContext } from '../../src-main/ipc/types';
import { createPerson } from '../../src-main/people/admin';
import { createMemorySettings } from '../../src-main/settings/memory';
import { startServices, type Services } from '../../src-main/start-services';
import { silentLogger } from '../../src-main/util/logger';
import { cliEnv, runCli } from '../support/cli';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { insertTrail, type Trail } from '../support/lgpd-fixtures';
import { dados, ensureMerchants, insertExtraction } from '../support/queue-fixtures';

const ZONE = 'America/Sao_Paulo';
const P = `m${randomBytes(3).toString('hex')}`;
const SENHA = 'senha-lgpd-mascara-789';
const SUPORTE = `${P}_sue`;
const CPF = '529.982.247-25';
const CPF_CANONICO = '52998224725';
const CNPJ = '11.222.333/0001-81';
const MASCARA = '***.982.247-**';

let db: TestDatabase;
let app: Services;
let trail: Trail;
let aberta: number;
const ctx: CallContext = { sessionId: 'janela-mascara', emit: () => undefined };
const call = <T>(ch: Channel, input: unknown) =>
  invokeChannel(app.handlers, ch, input as never, ctx, silentLogger, app.gate) as Promise<
    IpcResult<T>
  >;
const data = async <T>(ch: Channel, input: unknown): Promise<T> => {
  const r = await call<T>(ch, input);
  if (!r.ok) throw new Error(JSON.stringify(r));
  return r.data;
};
/** Every way a document could be written in clear. */
const clear = (json: string) =>
  [CPF, CPF_CANONICO, CNPJ, '11222333000181'].filter((d) => json.includes(d));

beforeAll(async () => {
  db = await createTestDatabase();
  await ensureMerchants(db.admin, { 1: 'Padaria Central' });
  trail = await insertTrail(db.admin, {
    merchantId: 1,
    texto: `link de R$ 150,00 pro João Silva, CPF ${CPF}`,
    nome: 'João Silva',
    documento: CPF_CANONICO,
    diasAtras: 1,
    agora: new Date('2026-03-16T12:00:00Z'),
    valorCentavos: 15000,
  });
  aberta = await insertExtraction(db.admin, {
    merchantId: 1,
    texto: `boleto de 200 reais pra Maria, CPF ${CPF_CANONICO}, empresa ${CNPJ}`,
    status: 'incompleto',
    dados: dados({
      metodo: 'boleto',
      parcelas: 1,
      cliente_nome: 'Maria',
      valor_centavos: 20000,
      cliente_documento: CPF_CANONICO,
    }),
  });
  await createPerson(db.admin, { nome: SUPORTE, papel: 'suporte', senha: SENHA });
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
  const r = await call('session/signIn', { usuario: SUPORTE, senha: SENHA, lembrar: false });
  expect(r.ok, JSON.stringify(r)).toBe(true);
});
afterAll(async () => {
  await app?.close();
  await db.admin.query(`DROP ROLE IF EXISTS ${SUPORTE}`).catch(() => 0);
  await db.drop();
});

describe('CPF/CNPJ masked on the screens (#38.2)', () => {
  it("a suporte login's review item detail carries no clear CPF, only the mask", async () => {
    const item = await data<ExtractionDetail>('review/get', { id: trail.extracao });
    expect(clear(JSON.stringify(item))).toEqual([]);
    expect(item.texto).toBe(`link de R$ 150,00 pro João Silva, CPF ${MASCARA}`);
    expect(item.dados?.cliente_documento).toBe(MASCARA);
    expect(item.tentativasDetalhe[0]?.entrada?.cliente_documento).toBe(MASCARA);
    // The stored data is untouched: masking is what leaves main, not what is kept.
    const stored = await db.admin.query('SELECT texto FROM extracoes WHERE id = $1', [
      trail.extracao,
    ]);
    expect(stored.rows[0].texto).toContain(CPF);
  });

  it('the queue list, the thread and the Cobranças list carry masks only', async () => {
    const page = await data<QueuePage>('review/list', { view: 'aberta' });
    expect(clear(JSON.stringify(page))).toEqual([]);
    const open = page.items.find((i) => i.id === aberta);
    expect(open?.texto).toBe(
      `boleto de 200 reais pra Maria, CPF ${MASCARA}, empresa **.222.333/****-**`,
    );
    expect(clear(JSON.stringify(await data('review/thread', { id: trail.extracao })))).toEqual([]);
    const charges = await data<{ items: unknown[] }>('review/charges', {});
    expect(charges.items.length).toBeGreaterThan(0);
    expect(clear(JSON.stringify(charges))).toEqual([]);
  });

  it('the form saved back with the masked document keeps the stored document', async () => {
    const claim = await data<{ claimed: boolean; token: string }>('review/claim', { id: aberta });
    expect(claim.claimed).toBe(true);
    const item = await data<ExtractionDetail>('review/get', { id: aberta });
    expect(item.dados?.cliente_documento).toBe(MASCARA);
    const saved = await data<ExtractionDetail>('review/save', {
      id: aberta,
      token: claim.token,
      dados: { ...item.dados, cliente_nome: 'Maria Souza', cliente_documento: MASCARA },
    });
    expect(saved.dadosRevisados?.cliente_documento).toBe(MASCARA);
    const row = await db.admin.query('SELECT dados_revisados FROM extracoes WHERE id = $1', [
      aberta,
    ]);
    expect(row.rows[0].dados_revisados).toMatchObject({
      cliente_nome: 'Maria Souza',
      cliente_documento: CPF_CANONICO,
    });
    // A mask of another document is no document: refused as the field's error, nothing saved.
    const other = await call('review/save', {
      id: aberta,
      token: claim.token,
      dados: { ...item.dados, cliente_documento: '***.111.222-**' },
    });
    expect(other.ok).toBe(false);
    const after = await db.admin.query('SELECT dados_revisados FROM extracoes WHERE id = $1', [
      aberta,
    ]);
    expect(after.rows[0].dados_revisados.cliente_documento).toBe(CPF_CANONICO);
  });

  it('balcao fila mostrar prints the item with the CPF masked (text and --json)', async () => {
    const shown = await runCli(['fila', 'mostrar', String(aberta)], cliEnv(db));
    expect(shown.code, shown.err).toBe(0);
    expect(shown.out).toContain(MASCARA);
    expect(clear(shown.out)).toEqual([]);
    const json = await runCli(['fila', 'mostrar', String(aberta), '--json'], cliEnv(db));
    expect(json.code, json.err).toBe(0);
    expect(clear(json.out)).toEqual([]);
    expect(json.out).toContain(MASCARA);
  });
});
