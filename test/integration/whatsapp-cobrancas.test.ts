/**
 * #36 → #37: the money reaches the merchant. A charge that becomes `registrada` writes, in the
 * transaction of that change, one WhatsApp outbox row to the merchant (amount in BRL from
 * centavos, customer, due date, copia-e-cola, link); the sender's success moves the charge to
 * `enviada_ao_lojista` exactly once (also when only a status webhook learns it went out); `paga`
 * writes one short paid notice. Real PostgreSQL, the fake Cloud API over real HTTP.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { formatBRL } from '../../src-shared/money';
import { withTransaction } from '../../src-main/db/tx';
import { transition } from '../../src-main/psp/dispatch';
import { createWhatsAppClient } from '../../src-main/whatsapp/client';
import { whatsappSendConfig } from '../../src-main/whatsapp/config';
import { sendOutboxRow, type SenderDeps } from '../../src-main/whatsapp/sender';
import { applyStatuses, callbackData } from '../../src-main/whatsapp/statuses';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { heldReply, startFakeWhatsApp, type FakeWhatsApp } from '../support/fake-whatsapp';
import { dados, ensureMerchants, insertExtraction, queueFor } from '../support/queue-fixtures';

const TOKEN = 'token-do-sistema-meta';
const PHONE_ID = '109876543210';
const COPIA =
  '00020101021226830014br.gov.bcb.pix2561pix.exemplo.com/qr/v2/cob/abc5204000053039865802BR6304ABCD';

let db: TestDatabase;
let fake: FakeWhatsApp;

function deps(): SenderDeps {
  const cfg = whatsappSendConfig({
    BALCAO_WHATSAPP_TOKEN: TOKEN,
    BALCAO_WHATSAPP_PHONE_NUMBER_ID: PHONE_ID,
    BALCAO_WHATSAPP_API_URL: fake.apiUrl,
  });
  if (!cfg.ok) throw new Error('config');
  return {
    pool: db.app,
    client: createWhatsAppClient(cfg.config, { timeoutMs: 300 }),
    leaseMs: 60_000,
    graceMs: 0,
    backoffMs: () => 0,
    schedule: async () => undefined,
  };
}

beforeAll(async () => {
  db = await createTestDatabase();
  await ensureMerchants(db.admin, { 1: 'Padaria Central' });
  await db.admin.query(
    `INSERT INTO lojistas_contatos (telefone, merchant_id, criado_por) VALUES ('+5511987654321', 1, 'teste')`,
  );
}, 60_000);
afterAll(async () => {
  await db?.drop();
});
beforeEach(async () => {
  fake = await startFakeWhatsApp({ token: TOKEN, phoneNumberId: PHONE_ID });
});
afterEach(async () => {
  expect(fake.violations).toEqual([]);
  await fake.close();
});

/** An agent confirms a Pix charge in the queue (the real confirm path); its id. */
async function confirmedPix(valor: number, cliente: string): Promise<number> {
  const d = dados({
    metodo: 'pix',
    parcelas: 1,
    valor_centavos: valor,
    vencimento: '2026-12-02',
    cliente_nome: cliente,
  });
  const id = await insertExtraction(db.admin, { merchantId: 1, status: 'completo', dados: d });
  const ana = queueFor(db.app, { operator: 'Ana' });
  const lease = await ana.claim(id);
  if (!lease.claimed) throw new Error(lease.mensagem);
  const r = await ana.confirm({ id, token: lease.token, dados: d });
  return r.cobranca.id;
}

/** The PSP accepted it: pendente → registrada, as the dispatcher writes it. */
const registrar = (id: number, link: string | null = null) =>
  transition(db.app, {
    id,
    de: 'pendente',
    from: ['pendente'],
    para: 'registrada',
    evento: 'registrada',
    operador: 'sistema',
    set: { copia_e_cola: COPIA, link },
    stamp: 'registrada_em',
  });

const pagar = (id: number) =>
  transition(db.app, {
    id,
    de: 'enviada_ao_lojista',
    from: ['registrada', 'enviada_ao_lojista'],
    para: 'paga',
    evento: 'paga',
    operador: 'sistema',
    stamp: 'paga_em',
  });

async function saidas(cobranca: number) {
  const r = await db.admin.query<{ id: number; tipo: string; texto: string; estado: string }>(
    `SELECT id::int AS id, tipo, texto, estado FROM mensagens_saida
      WHERE cobranca_id = $1 ORDER BY id`,
    [cobranca],
  );
  return r.rows;
}
const estado = async (id: number) =>
  (
    await db.admin.query<{ estado: string }>(
      'SELECT estado FROM cobrancas_envios WHERE cobranca_id = $1',
      [id],
    )
  ).rows[0]!.estado;
const eventos = async (id: number) =>
  (
    await db.admin.query<{ evento: string }>(
      'SELECT evento FROM cobrancas_eventos WHERE cobranca_id = $1 ORDER BY id',
      [id],
    )
  ).rows.map((x) => x.evento);
const jobs = async (saida: number) =>
  Number(
    (
      await db.admin.query<{ n: string }>(
        `SELECT count(*) AS n FROM pgboss.job WHERE name = 'whatsapp' AND data->>'saida' = $1`,
        [String(saida)],
      )
    ).rows[0]!.n,
  );

describe('balcao_brl', () => {
  it('writes centavos exactly as Intl pt-BR BRL (the helper of src-shared/money)', async () => {
    const values = [0, 5, 99, 100, 15000, 123456, 100000, 1234567, 10000000, 123456789012, -1500];
    const r = await db.admin.query<{ v: string }>(
      'SELECT balcao_brl(x) AS v FROM unnest($1::bigint[]) WITH ORDINALITY u(x, i) ORDER BY i',
      [values],
    );
    expect(r.rows.map((x) => x.v)).toEqual(values.map((v) => formatBRL(v)));
  });
});

describe('a registered charge reaches the merchant', () => {
  it('registrada writes one outbox row (amount, customer, due date, copia-e-cola, link) with its job, in the same transaction; sending it makes the charge enviada_ao_lojista once', async () => {
    const id = await confirmedPix(123456, 'João Silva');
    expect(await saidas(id)).toEqual([]);
    // A transition that rolls back leaves no message behind.
    await expect(
      withTransaction(db.app, async (c) => {
        await transition(c, {
          id,
          de: 'pendente',
          from: ['pendente'],
          para: 'registrada',
          evento: 'registrada',
          operador: 'sistema',
          set: { copia_e_cola: COPIA },
        });
        throw new Error('queda antes do commit');
      }),
    ).rejects.toThrow();
    expect(await saidas(id)).toEqual([]);

    expect(await registrar(id, 'https://pagar.exemplo.com.br/l/abc')).toBe(true);
    const [s] = await saidas(id);
    expect(s).toMatchObject({ tipo: 'cobranca_registrada', estado: 'pendente' });
    expect(s!.texto).toContain(`${formatBRL(123456)} para João Silva`);
    expect(s!.texto).toContain('02/12/2026');
    expect(s!.texto).toContain(COPIA);
    expect(s!.texto).toContain('Link de pagamento: https://pagar.exemplo.com.br/l/abc');
    expect(await jobs(s!.id)).toBe(1);

    // The same transition again (a retried step) writes nothing more.
    expect(await registrar(id)).toBe(false);
    expect(await saidas(id)).toHaveLength(1);

    expect(await sendOutboxRow(deps(), s!.id)).toBe('enviada');
    expect(fake.sends).toHaveLength(1);
    expect(fake.sends[0]!.body).toMatchObject({
      to: '5511987654321',
      type: 'text',
      text: { body: s!.texto },
      biz_opaque_callback_data: callbackData(s!.id),
    });
    expect(await estado(id)).toBe('enviada_ao_lojista');
    // A repeated job and late statuses change nothing: one event, one send.
    expect(await sendOutboxRow(deps(), s!.id)).toBe('nada');
    await withTransaction(db.app, (c) =>
      applyStatuses(c, [
        {
          id: fake.sends[0]!.wamid!,
          status: 'delivered',
          timestamp: '1764520000',
          recipient_id: '5511987654321',
        },
        {
          id: fake.sends[0]!.wamid!,
          status: 'read',
          timestamp: '1764520001',
          recipient_id: '5511987654321',
        },
      ]),
    );
    expect(fake.sends).toHaveLength(1);
    expect((await eventos(id)).filter((e) => e === 'enviada_ao_lojista')).toHaveLength(1);

    // Paid: one short notice, once.
    expect(await pagar(id)).toBe(true);
    expect(await pagar(id)).toBe(false);
    const all = await saidas(id);
    expect(all.map((x) => x.tipo)).toEqual(['cobranca_registrada', 'cobranca_paga']);
    expect(all[1]!.texto).toBe(
      `Pagamento recebido! A cobrança de ${formatBRL(123456)} para João Silva (vencimento em 02/12/2026) foi paga.`,
    );
    expect(await sendOutboxRow(deps(), all[1]!.id)).toBe('enviada');
    expect(await estado(id)).toBe('paga');
  });

  it('a sender that timed out (maybe sent) is reconciled by the status webhook echoing our outbox id: the charge becomes enviada_ao_lojista, never sent twice', async () => {
    const id = await confirmedPix(8000, 'Maria Souza');
    await registrar(id);
    const [s] = await saidas(id);
    expect(s!.texto).not.toContain('Link de pagamento');
    let release!: () => void;
    fake.script(heldReply(new Promise<void>((r) => (release = r))));
    expect(await sendOutboxRow(deps(), s!.id)).toBe('incerta');
    release();
    expect(await estado(id)).toBe('registrada');
    await withTransaction(db.app, (c) =>
      applyStatuses(c, [
        {
          id: 'wamid.reconciliada.1',
          status: 'sent',
          timestamp: '1764520000',
          recipient_id: '5511987654321',
          biz_opaque_callback_data: callbackData(s!.id),
        },
      ]),
    );
    expect(await estado(id)).toBe('enviada_ao_lojista');
    expect(await sendOutboxRow(deps(), s!.id)).toBe('nada');
    expect(fake.sends).toHaveLength(1);
    expect((await eventos(id)).filter((e) => e === 'enviada_ao_lojista')).toHaveLength(1);
  });
});
