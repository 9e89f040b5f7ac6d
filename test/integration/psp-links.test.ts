/**
 * #36.4: card and boleto through the company's payment-link service (a fake over real HTTP that
 * checks the contract of docs/payment-links.md and the Idempotency-Key), the payer's document on
 * the charge (a boleto without it is incompleto and the merchant is asked), and a Pix charge with
 * the payer's CPF/CNPJ as `PUT /cobv/{txid}` (the fake PSP over HTTPS + mTLS validates
 * CobVSolicitada). Real PostgreSQL throughout; invariant: one link per charge, whatever fails.
 */
import Anthropic from '@anthropic-ai/sdk';
import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../src-main/clock';
import { enqueueMessages } from '../../src-main/intake/enqueue';
import { startBoss } from '../../src-main/intake/jobs';
import { processMessage } from '../../src-main/intake/process';
import { createPixClient, type PixClient } from '../../src-main/psp/client';
import { pspConfig } from '../../src-main/psp/config';
import { cancel } from '../../src-main/psp/admin';
import { SEM_LINKS, syncCharge, type DispatchDeps } from '../../src-main/psp/dispatch';
import { createLinkClient, linkConfig, type LinkClient } from '../../src-main/psp/links';
import { extractionChargeRules } from '../../src-main/queue/rules';
import { createMemorySettings } from '../../src-main/settings/memory';
import { silentLogger } from '../../src-main/util/logger';
import type { DadosCobranca } from '../../src-shared/extraction-types';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { startFakeAnthropic, toolUseReply, type FakeAnthropic } from '../support/fake-anthropic';
import { startFakeLinks, type FakeLinks } from '../support/fake-links';
import { startFakePsp, type FakePsp } from '../support/fake-psp';
import {
  QUEUE_TEST_NOW,
  dados,
  ensureMerchants,
  insertExtraction,
  queueFor,
} from '../support/queue-fixtures';

const CPF = '52998224725';
const CNPJ_ALFA = '12ABC34501DE35';
const CHAVE = 'financeiro@padaria.com.br';
const KEY = 'sk-ant-teste-000000000000000000';
let db: TestDatabase;
let fake: FakeLinks;
let psp: FakePsp;
let anthropic: FakeAnthropic;
let links: LinkClient;
let pix: PixClient;
let boss: PgBoss;
let deps: DispatchDeps;

beforeAll(async () => {
  [db, fake, psp, anthropic] = await Promise.all([
    createTestDatabase(),
    startFakeLinks(),
    startFakePsp(),
    startFakeAnthropic(),
  ]);
  await ensureMerchants(db.admin, { 1: 'Padaria Central' });
  await db.admin.query('UPDATE merchants SET chave_pix = $1 WHERE id = 1', [CHAVE]);
  boss = await startBoss(db.app);
  const clock = fixedClock(QUEUE_TEST_NOW);
  const cfg = linkConfig({ BALCAO_LINK_URL: `${fake.url}/`, BALCAO_LINK_TOKEN: fake.token })!;
  links = createLinkClient({ ...cfg, timeoutMs: 400 }, { clock });
  const pc = pspConfig({
    BALCAO_PSP_URL: psp.url,
    BALCAO_PSP_CLIENT_ID: psp.clientId,
    BALCAO_PSP_CLIENT_SECRET: psp.clientSecret,
    BALCAO_PSP_CERT: psp.files.cert,
    BALCAO_PSP_KEY: psp.files.key,
    BALCAO_PSP_CA: psp.files.ca,
  })!;
  pix = createPixClient({ ...pc, timeoutMs: 400 }, { clock });
  deps = {
    pool: db.app,
    client: pix,
    links,
    clock,
    zone: 'America/Sao_Paulo',
    leaseMs: 30_000,
    backoffS: () => 0,
  };
}, 60_000);

afterAll(async () => {
  pix?.close();
  await boss?.stop({ graceful: false, close: false, wait: true });
  await Promise.all([fake?.close(), psp?.close(), anthropic?.close()]);
  await db?.drop();
});

beforeEach(() => {
  fake.calls.length = 0;
  psp.calls.length = 0;
  anthropic.reset();
});

/** An agent confirms the charge in the queue (the real confirm path); returns its id. */
async function confirmed(p: Partial<DadosCobranca>): Promise<number> {
  const d = dados({ vencimento: '2026-12-02', ...p });
  const id = await insertExtraction(db.admin, { merchantId: 1, status: 'completo', dados: d });
  const ana = queueFor(db.app, { operator: 'Ana' });
  const lease = await ana.claim(id);
  if (!lease.claimed) throw new Error(lease.mensagem);
  const r = await ana.confirm({ id, token: lease.token, dados: d });
  return r.cobranca.id;
}

async function envio(id: number) {
  const r = await db.admin.query<{
    estado: string;
    motivo: string | null;
    txid: string;
    tipo: string | null;
    link: string | null;
    link_id: string | null;
    copia_e_cola: string | null;
    psp_status: string | null;
    pago_centavos: string | null;
  }>('SELECT * FROM cobrancas_envios WHERE cobranca_id = $1', [id]);
  return r.rows[0]!;
}

const puts = (txid: string) =>
  fake.calls.filter((c) => c.method === 'PUT' && c.path === `/links/${txid}`);

describe('card through the payment-link service', () => {
  it('confirm → registrada with its link: the contract’s body, the Idempotency-Key, one link', async () => {
    const id = await confirmed({
      metodo: 'cartao',
      parcelas: 3,
      valor_centavos: 15000,
      cliente_nome: 'João Silva',
      descricao: 'Conserto da vitrine',
    });
    expect(await syncCharge(deps, id)).toBe('registrada');
    const e = await envio(id);
    const link = fake.links.get(e.txid)!;
    expect(e).toMatchObject({
      estado: 'registrada',
      tipo: 'link',
      link: link.url,
      link_id: e.txid,
      copia_e_cola: null,
      psp_status: 'ativo',
      motivo: null,
    });
    const [put] = puts(e.txid);
    expect(put).toMatchObject({ status: 201, idempotencyKey: e.txid });
    expect(put!.body).toEqual({
      valor_centavos: 15000,
      forma_pagamento: 'cartao',
      parcelas: 3,
      vencimento: '2026-12-02',
      descricao: 'Conserto da vitrine',
      cliente_nome: 'João Silva',
      cliente_documento: null,
    });
    // A repeated step changes nothing and sends nothing.
    expect(await syncCharge(deps, id)).toBe('aguarda_pagamento');
    expect(puts(e.txid)).toHaveLength(1);
    // Paid at the service: the reconciling GET marks it paga with the amount.
    fake.pay(e.txid);
    expect(await syncCharge(deps, id)).toBe('paga');
    const paga = await envio(id);
    expect([paga.estado, Number(paga.pago_centavos)]).toEqual(['paga', 15000]);
  });

  it('the answer lost after the service stored the link: the retry gets the same link, never a second', async () => {
    const id = await confirmed({ metodo: 'cartao', parcelas: 2 });
    const { txid } = await envio(id);
    fake.fault('PUT', 'drop_after_store');
    expect(await syncCharge(deps, id)).toBe('adiada');
    expect((await envio(id)).estado).toBe('pendente');
    expect(fake.links.has(txid)).toBe(true);
    expect(await syncCharge(deps, id)).toBe('registrada');
    const sent = puts(txid);
    expect(sent.map((c) => c.status)).toEqual([0, 200]);
    expect(sent.every((c) => c.idempotencyKey === txid)).toBe(true);
    expect([...fake.links.keys()].filter((k) => k === txid)).toHaveLength(1);
    expect((await envio(id)).link).toBe(fake.links.get(txid)!.url);
  });

  it('timeouts, 500 and 429 (Retry-After) are retried; a 4xx goes to falhou with the reason in pt-BR', async () => {
    const id = await confirmed({ metodo: 'cartao', parcelas: 1 });
    fake.fault('PUT', 'timeout');
    fake.fault('PUT', { status: 500 });
    fake.fault('PUT', { status: 429, retryAfter: 7 });
    expect(await syncCharge(deps, id)).toBe('adiada');
    expect((await envio(id)).motivo).toMatch(/não respondeu em 0 s|não respondeu/);
    expect(await syncCharge(deps, id, { force: true })).toBe('adiada');
    expect(await syncCharge(deps, id, { force: true })).toBe('adiada');
    const ev = await db.admin.query<{
      detalhes: { status: number | null; nova_tentativa_em_s: number };
    }>(
      `SELECT detalhes FROM cobrancas_eventos WHERE cobranca_id = $1 AND evento = 'tentativa_falhou' ORDER BY id`,
      [id],
    );
    expect(ev.rows.map((r) => r.detalhes.status)).toEqual([null, 500, 429]);
    expect(ev.rows[2]!.detalhes.nova_tentativa_em_s).toBe(7);
    expect(await syncCharge(deps, id, { force: true })).toBe('registrada');

    const refused = await confirmed({ metodo: 'cartao', parcelas: 1, valor_centavos: 2000 });
    fake.fault('PUT', { status: 422, body: { erro: 'Lojista sem contrato de cartão.' } });
    expect(await syncCharge(deps, refused)).toBe('falhou');
    expect((await envio(refused)).motivo).toBe(
      'O serviço de links recusou a cobrança (HTTP 422): Lojista sem contrato de cartão.',
    );
    // Never retried blindly: the worker's next step sends nothing.
    const before = fake.calls.length;
    expect(await syncCharge(deps, refused)).toBe('nada');
    expect(fake.calls.length).toBe(before);
  });

  it('a link the service cancelled → cancelada; a paid amount that differs is left for a person', async () => {
    const a = await confirmed({ metodo: 'cartao', parcelas: 1, valor_centavos: 8000 });
    const b = await confirmed({ metodo: 'cartao', parcelas: 1, valor_centavos: 9000 });
    expect(await syncCharge(deps, a)).toBe('registrada');
    expect(await syncCharge(deps, b)).toBe('registrada');
    fake.cancel((await envio(a)).txid);
    expect(await syncCharge(deps, a)).toBe('cancelada');
    fake.pay((await envio(b)).txid, 8999);
    expect(await syncCharge(deps, b)).toBe('valor_divergente');
    const eb = await envio(b);
    expect(eb.estado).toBe('registrada');
    expect(eb.motivo).toMatch(/R\$\s89,99.*difere do cobrado \(R\$\s90,00\)/);
  });

  it('a supervisor cancels an open link charge at the service (PATCH), then here; a paid one is refused', async () => {
    const id = await confirmed({ metodo: 'cartao', parcelas: 1, valor_centavos: 7000 });
    expect(await syncCharge(deps, id)).toBe('registrada');
    const { txid } = await envio(id);
    const out = await cancel(deps, id, 'Sofia');
    expect(out.estado).toBe('cancelada');
    expect(fake.links.get(txid)!.estado).toBe('cancelado');
    expect(fake.calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([
      { estado: 'cancelado' },
    ]);
    expect((await envio(id)).psp_status).toBe('cancelado');

    const paid = await confirmed({ metodo: 'cartao', parcelas: 1, valor_centavos: 7100 });
    expect(await syncCharge(deps, paid)).toBe('registrada');
    fake.pay((await envio(paid)).txid);
    await expect(cancel(deps, paid, 'Sofia')).rejects.toThrow(
      'O serviço de links não cancelou a cobrança: O serviço de links recusou a cobrança (HTTP 422): Link já pago não pode ser cancelado.',
    );
    expect((await envio(paid)).estado).toBe('registrada');
  });

  it('without BALCAO_LINK_URL a card charge waits in pendente and says so; nothing is sent', async () => {
    const id = await confirmed({ metodo: 'cartao', parcelas: 1 });
    expect(await syncCharge({ ...deps, links: null }, id)).toBe('sem_psp');
    expect(await envio(id)).toMatchObject({ estado: 'pendente', motivo: SEM_LINKS });
    expect(fake.calls).toHaveLength(0);
  });
});

describe('boleto: the payer’s document', () => {
  it('with the document (alphanumeric CNPJ) → stored canonical on the charge and sent → registrada', async () => {
    const id = await confirmed({
      metodo: 'boleto',
      parcelas: 1,
      valor_centavos: 150050,
      cliente_nome: 'Construtora Alfa',
      cliente_documento: '12.abc.345/01de-35',
    });
    const c = await db.admin.query('SELECT cliente_documento FROM cobrancas WHERE id = $1', [id]);
    expect(c.rows[0].cliente_documento).toBe(CNPJ_ALFA);
    expect(await syncCharge(deps, id)).toBe('registrada');
    const e = await envio(id);
    expect(e).toMatchObject({ estado: 'registrada', tipo: 'link' });
    expect(puts(e.txid)[0]!.body).toMatchObject({
      forma_pagamento: 'boleto',
      parcelas: 1,
      cliente_documento: CNPJ_ALFA,
    });
  });

  it('without it the queue refuses to create it, and the question asks for the CPF or CNPJ', async () => {
    const d = dados({ metodo: 'boleto', parcelas: 1, vencimento: '2026-12-02' });
    const id = await insertExtraction(db.admin, { merchantId: 1, status: 'completo', dados: d });
    const ana = queueFor(db.app, { operator: 'Ana' });
    const lease = await ana.claim(id);
    if (!lease.claimed) throw new Error(lease.mensagem);
    await expect(ana.confirm({ id, token: lease.token, dados: d })).rejects.toThrow(
      'Informe o CPF ou CNPJ do cliente: o boleto registrado exige.',
    );
    const n = await db.admin.query(
      'SELECT count(*)::int AS n FROM cobrancas WHERE extracao_id = $1',
      [id],
    );
    expect(n.rows[0].n).toBe(0);
    const { pergunta } = await ana.askMerchant({
      id,
      token: lease.token,
      faltando: ['cliente_documento'],
    });
    expect(pergunta).toBe('Qual o CPF ou CNPJ do cliente (o boleto registrado exige)?');
  });

  it('intake: the model’s boleto without a document is incompleto, not created, and the merchant is asked', async () => {
    const [m] = await enqueueMessages({ pool: db.app, boss }, [
      {
        canal: 'whatsapp',
        mensagem_id: 'boleto-sem-doc-1',
        merchant: 1,
        texto: 'boleto de R$ 300 pra Ana Souza, vence dia 2',
        recebida_em: '2026-11-30T10:00:00-03:00',
      },
    ]);
    anthropic.enqueue(
      toolUseReply('registrar_cobranca', {
        valor_centavos: 30000,
        parcelas: 1,
        metodo: 'boleto',
        cliente_nome: 'Ana Souza',
        vencimento: '2026-12-02',
        descricao: null,
        faltando: [],
      }),
    );
    const r = await processMessage(
      {
        pool: db.app,
        settings: createMemorySettings(
          {
            timeZone: 'America/Sao_Paulo',
            anthropicBaseUrl: anthropic.url,
            maxRetries: 0,
            requestTimeoutMs: 5_000,
          },
          { ANTHROPIC_API_KEY: KEY },
        ),
        clock: fixedClock(QUEUE_TEST_NOW),
        rules: extractionChargeRules,
        client: new Anthropic({ apiKey: KEY, baseURL: anthropic.url, maxRetries: 0 }),
        logger: silentLogger,
      },
      m!.id!,
    );
    expect(r).toMatchObject({ feito: 'processada' });
    const e = await db.admin.query<{
      status: string;
      faltando: string[];
      cobrancas: number;
      pergunta: string | null;
    }>(
      `SELECT e.status, e.dados->'faltando' AS faltando,
              (SELECT count(*)::int FROM cobrancas c WHERE c.extracao_id = e.id) AS cobrancas,
              (SELECT s.texto FROM mensagens_saida s WHERE s.extracao_id = e.id ORDER BY s.id DESC LIMIT 1) AS pergunta
         FROM mensagens m JOIN extracoes e ON e.id = m.extracao_id WHERE m.id = $1`,
      [m!.id],
    );
    expect(e.rows[0]).toMatchObject({
      status: 'incompleto',
      faltando: ['cliente_documento'],
      cobrancas: 0,
    });
    expect(e.rows[0]!.pergunta).toContain('CPF ou CNPJ do cliente');
  });
});

describe('Pix with the payer’s document', () => {
  it('is PUT /cobv/{txid} (dataDeVencimento, devedor) and confirmed by GET /cobv', async () => {
    const id = await confirmed({
      metodo: 'pix',
      parcelas: 1,
      valor_centavos: 8000,
      cliente_nome: 'Maria Souza',
      cliente_documento: '529.982.247-25',
      descricao: 'Bolo',
    });
    expect(await syncCharge(deps, id)).toBe('registrada');
    const e = await envio(id);
    expect(e).toMatchObject({ estado: 'registrada', tipo: 'cobv' });
    expect(e.copia_e_cola).toBe(psp.cobs.get(e.txid)!.pixCopiaECola);
    const put = psp.calls.find((c) => c.method === 'PUT' && c.path === `/cobv/${e.txid}`);
    expect(put!.status).toBe(201);
    expect(put!.body).toEqual({
      calendario: { dataDeVencimento: '2026-12-02', validadeAposVencimento: 0 },
      devedor: { cpf: CPF, nome: 'Maria Souza' },
      valor: { original: '80.00' },
      chave: CHAVE,
      solicitacaoPagador: 'Bolo',
    });
    expect(psp.calls.some((c) => c.path === `/cob/${e.txid}`)).toBe(false);
    psp.pay(e.txid);
    expect(await syncCharge(deps, id)).toBe('paga');
    expect(psp.calls.some((c) => c.method === 'GET' && c.path === `/cobv/${e.txid}`)).toBe(true);
  });

  it('cancelling a /cobv charge is PATCH /cobv/{txid}', async () => {
    const id = await confirmed({
      metodo: 'pix',
      parcelas: 1,
      valor_centavos: 8100,
      cliente_documento: '11222333000181',
    });
    expect(await syncCharge(deps, id)).toBe('registrada');
    const e = await envio(id);
    expect(psp.calls.find((c) => c.path === `/cobv/${e.txid}`)!.body).toMatchObject({
      devedor: { cnpj: '11222333000181' },
    });
    expect((await cancel(deps, id, 'Sofia')).estado).toBe('cancelada');
    expect(psp.calls.filter((c) => c.method === 'PATCH').map((c) => c.path)).toEqual([
      `/cobv/${e.txid}`,
    ]);
    expect(psp.cobs.get(e.txid)!.status).toBe('REMOVIDA_PELO_USUARIO_RECEBEDOR');
  });
});
