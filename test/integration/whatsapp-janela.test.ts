/**
 * #37 — the 24-hour customer-service window. Outside it (the merchant's last message is older than
 * 24 h, or Meta answers 131047) an outbox row goes out as the approved template
 * BALCAO_WHATSAPP_TEMPLATE (language BALCAO_WHATSAPP_TEMPLATE_IDIOMA, default pt_BR) with its text
 * as the body parameter, checked by the fake Cloud API against the Template Object; without a
 * template the row fails with the pt-BR reason, as before. Real PostgreSQL, real HTTP.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createWhatsAppClient, parametroDoModelo } from '../../src-main/whatsapp/client';
import { whatsappSendConfig } from '../../src-main/whatsapp/config';
import { sendOutboxRow, type SenderDeps } from '../../src-main/whatsapp/sender';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { startFakeWhatsApp, type FakeWhatsApp } from '../support/fake-whatsapp';
import { ensureMerchants } from '../support/queue-fixtures';

const TOKEN = 'token-do-sistema-meta';
const PHONE_ID = '109876543210';
let db: TestDatabase;
let fake: FakeWhatsApp | undefined;

async function senderFor(
  env: Record<string, string>,
  janelaFechada: string[] = [],
): Promise<SenderDeps> {
  fake = await startFakeWhatsApp({
    token: TOKEN,
    phoneNumberId: PHONE_ID,
    janelaFechada: new Set(janelaFechada),
  });
  const cfg = whatsappSendConfig({
    BALCAO_WHATSAPP_TOKEN: TOKEN,
    BALCAO_WHATSAPP_PHONE_NUMBER_ID: PHONE_ID,
    BALCAO_WHATSAPP_API_URL: fake.apiUrl,
    ...env,
  });
  if (!cfg.ok) throw new Error(cfg.motivo);
  return {
    pool: db.app,
    client: createWhatsAppClient(cfg.config, { timeoutMs: 500 }),
    template: cfg.config.template ?? null,
    leaseMs: 60_000,
    graceMs: 0,
    backoffMs: () => 0,
    schedule: async () => undefined,
  };
}

beforeAll(async () => {
  db = await createTestDatabase();
  await ensureMerchants(db.admin, { 1: 'Padaria Central', 2: 'Oficina do Zé', 3: 'Sorveteria' });
  await db.admin.query(
    `INSERT INTO lojistas_contatos (telefone, merchant_id, criado_por) VALUES
       ('+5511900000001', 1, 'teste'), ('+5511900000002', 2, 'teste'), ('+5511900000003', 3, 'teste')`,
  );
  // Merchant 1 last wrote 25 hours ago (window closed); 2 and 3 an hour ago (open for us).
  await db.admin.query(
    `INSERT INTO whatsapp_recebidas (wamid, telefone, phone_number_id, tipo, merchant_id, enviada_em) VALUES
       ('wamid.velha', '+5511900000001', $1, 'text', 1, now() - interval '25 hours'),
       ('wamid.nova2', '+5511900000002', $1, 'text', 2, now() - interval '1 hour'),
       ('wamid.nova3', '+5511900000003', $1, 'text', 3, now() - interval '1 hour')`,
    [PHONE_ID],
  );
}, 60_000);
afterAll(async () => {
  await db?.drop();
});
afterEach(async () => {
  if (!fake) return;
  expect(fake.violations).toEqual([]);
  await fake.close();
  fake = undefined;
});

async function saida(merchant: number, texto: string): Promise<number> {
  const r = await db.admin.query<{ id: number }>(
    `INSERT INTO mensagens_saida (canal, merchant_id, texto, tipo)
     VALUES ('whatsapp', $1, $2, 'pergunta') RETURNING id::int AS id`,
    [merchant, texto],
  );
  return r.rows[0]!.id;
}
const row = async (id: number) =>
  (
    await db.admin.query<{ estado: string; modelo: string | null; motivo: string | null }>(
      'SELECT estado, modelo, motivo FROM mensagens_saida WHERE id = $1',
      [id],
    )
  ).rows[0]!;

describe('configuration', () => {
  it('BALCAO_WHATSAPP_TEMPLATE_IDIOMA defaults to pt_BR; a malformed name or language keeps the sender off and says why in pt-BR', () => {
    const base = { BALCAO_WHATSAPP_TOKEN: 't', BALCAO_WHATSAPP_PHONE_NUMBER_ID: '1' };
    const ok = whatsappSendConfig({ ...base, BALCAO_WHATSAPP_TEMPLATE: 'aviso_balcao' });
    expect(ok.ok && ok.config.template).toEqual({ nome: 'aviso_balcao', idioma: 'pt_BR' });
    const none = whatsappSendConfig(base);
    expect(none.ok && none.config.template).toBeNull();
    const bad = whatsappSendConfig({ ...base, BALCAO_WHATSAPP_TEMPLATE: 'Aviso Balcão' });
    expect(bad).toEqual({ ok: false, motivo: expect.stringContaining('nome do modelo aprovado') });
    const lang = whatsappSendConfig({
      ...base,
      BALCAO_WHATSAPP_TEMPLATE: 'aviso_balcao',
      BALCAO_WHATSAPP_TEMPLATE_IDIOMA: 'português',
    });
    expect(lang).toEqual({ ok: false, motivo: expect.stringContaining('código de idioma') });
  });

  it('the body parameter is the text on one line (Meta refuses line breaks, tabs and 5+ spaces)', () => {
    expect(
      parametroDoModelo('Cobrança registrada.\n\nPix copia e cola:\n000201\t  abc     d'),
    ).toBe('Cobrança registrada. · Pix copia e cola: · 000201 abc d');
    expect([...parametroDoModelo('x'.repeat(5000))]).toHaveLength(1024);
  });
});

describe('outside the 24-hour window', () => {
  it('the merchant last wrote 25 h ago: the row goes out once as the template, text as its body parameter, never as free text', async () => {
    const d = await senderFor({
      BALCAO_WHATSAPP_TEMPLATE: 'aviso_balcao',
      BALCAO_WHATSAPP_TEMPLATE_IDIOMA: 'pt_BR',
    });
    const id = await saida(1, 'Qual o valor da cobrança?\nResponda por aqui.');
    expect(await sendOutboxRow(d, id)).toBe('enviada');
    expect(fake!.sends).toHaveLength(1);
    expect(fake!.sends[0]!.body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '5511900000001',
      type: 'template',
      template: {
        name: 'aviso_balcao',
        language: { policy: 'deterministic', code: 'pt_BR' },
        components: [
          {
            type: 'body',
            parameters: [{ type: 'text', text: 'Qual o valor da cobrança? · Responda por aqui.' }],
          },
        ],
      },
      biz_opaque_callback_data: `balcao-saida:${id}`,
    });
    expect(await row(id)).toMatchObject({ estado: 'enviada', modelo: 'aviso_balcao' });
    expect(await sendOutboxRow(d, id)).toBe('nada');
    expect(fake!.sends).toHaveLength(1);
  });

  it('inside the window a text goes out as text; when Meta answers 131047 all the same, the template goes at once', async () => {
    const d = await senderFor({ BALCAO_WHATSAPP_TEMPLATE: 'aviso_balcao' }, ['5511900000002']);
    const open = await saida(3, 'Qual o nome do cliente?');
    expect(await sendOutboxRow(d, open)).toBe('enviada');
    expect(fake!.sends.map((s) => s.body.type)).toEqual(['text']);
    expect(await row(open)).toMatchObject({ estado: 'enviada', modelo: null });

    const closed = await saida(2, 'Qual o nome do cliente?');
    expect(await sendOutboxRow(d, closed)).toBe('enviada');
    expect(fake!.sends.map((s) => [s.body.type, s.wamid !== undefined])).toEqual([
      ['text', true],
      ['text', false],
      ['template', true],
    ]);
    expect(await row(closed)).toMatchObject({ estado: 'enviada', modelo: 'aviso_balcao' });
  });

  it('without a template configured the closed window fails the row with the pt-BR reason (nothing pretends to be sent)', async () => {
    const d = await senderFor({}, ['5511900000001']);
    const id = await saida(1, 'Qual o valor?');
    expect(await sendOutboxRow(d, id)).toBe('falhou');
    const r = await row(id);
    expect(r.estado).toBe('falhou');
    expect(r.modelo).toBeNull();
    expect(r.motivo).toContain('janela de 24 horas');
    expect(fake!.sends.map((s) => s.body.type)).toEqual(['text']);
  });
});
