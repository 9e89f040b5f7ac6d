/**
 * #37.4 — the conversation in the queue item: the agent's edited question goes out through the
 * item's channel (outbox row answering the merchant's latest message, audited, the item waits),
 * the WhatsApp sender delivers it to the fake Cloud API with that context, and the item's thread
 * shows the merchant's messages and ours in time order with the delivery state. Real PostgreSQL,
 * real HTTP.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../src-main/clock';
import { withTransaction } from '../../src-main/db/tx';
import type { QueueContext } from '../../src-main/queue/actions';
import { extractionChargeRules } from '../../src-main/queue/rules';
import { itemThread, sendQuestion } from '../../src-main/queue/thread';
import { createMemorySettings } from '../../src-main/settings/memory';
import { createWhatsAppClient } from '../../src-main/whatsapp/client';
import { whatsappSendConfig } from '../../src-main/whatsapp/config';
import { sendOutboxRow, type SenderDeps } from '../../src-main/whatsapp/sender';
import { applyStatuses } from '../../src-main/whatsapp/statuses';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { startFakeWhatsApp, type FakeWhatsApp } from '../support/fake-whatsapp';
import {
  QUEUE_TEST_NOW,
  ensureMerchants,
  insertExtraction,
  queueFor,
} from '../support/queue-fixtures';

const TOKEN = 'token-do-sistema-meta';
const PHONE_ID = '109876543210';
let db: TestDatabase;
let fake: FakeWhatsApp;
let ctx: QueueContext;

beforeAll(async () => {
  db = await createTestDatabase();
  await ensureMerchants(db.admin, { 1: 'Padaria Central' });
  await db.admin.query(
    `INSERT INTO lojistas_contatos (telefone, merchant_id, criado_por) VALUES ('+5511987654321', 1, 'teste')`,
  );
  ctx = {
    pool: db.app,
    clock: fixedClock(QUEUE_TEST_NOW),
    settings: createMemorySettings({ operator: 'Ana', timeZone: 'America/Sao_Paulo' }, {}),
    rules: extractionChargeRules,
    rerunner: null,
  };
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

function deps(): SenderDeps {
  const cfg = whatsappSendConfig({
    BALCAO_WHATSAPP_TOKEN: TOKEN,
    BALCAO_WHATSAPP_PHONE_NUMBER_ID: PHONE_ID,
    BALCAO_WHATSAPP_API_URL: fake.apiUrl,
  });
  if (!cfg.ok) throw new Error(cfg.motivo);
  return {
    pool: db.app,
    client: createWhatsAppClient(cfg.config, { timeoutMs: 500 }),
    leaseMs: 60_000,
    graceMs: 0,
    backoffMs: () => 0,
    schedule: async () => undefined,
  };
}

/** An item whose message came by WhatsApp (wamid), received `minutos` ago. */
async function whatsappItem(wamid: string, texto: string): Promise<number> {
  const id = await insertExtraction(db.admin, { merchantId: 1, status: 'incompleto' });
  await db.admin.query(
    `INSERT INTO whatsapp_recebidas (wamid, telefone, phone_number_id, tipo, merchant_id, enviada_em)
     VALUES ($1, '+5511987654321', $2, 'text', 1, now() - interval '5 minutes')`,
    [wamid, PHONE_ID],
  );
  await db.admin.query(
    `INSERT INTO mensagens (canal, mensagem_id, merchant_id, texto, recebida_em, estado, resultado,
                            extracao_id)
     VALUES ('whatsapp', $1, 1, $2, now() - interval '5 minutes', 'concluida', 'fila', $3)`,
    [wamid, texto, id],
  );
  return id;
}

describe('the agent asks the merchant', () => {
  it('the edited question goes out once, answering the merchant’s message; the thread shows both with the delivery state', async () => {
    const id = await whatsappItem('wamid.PEDIDO1', 'manda um pix pro João');
    const lease = await queueFor(db.app).claim(id);
    if (!lease.claimed) throw new Error(lease.mensagem);

    const r = await sendQuestion(ctx, {
      id,
      token: lease.token,
      pergunta: 'Oi! Qual o valor do pix para o João?',
    });
    expect(r).toEqual({ enviada: true, canal: 'whatsapp' });
    const row = await db.admin.query<{ id: number; responde_a: string; texto: string }>(
      `SELECT id::int AS id, responde_a, texto FROM mensagens_saida WHERE extracao_id = $1`,
      [id],
    );
    expect(row.rows).toHaveLength(1);
    const saida = row.rows[0]!;
    expect(saida.responde_a).toBe('wamid.PEDIDO1');
    const waiting = await db.admin.query(
      `SELECT aguardando_desde IS NOT NULL AS aguardando FROM extracoes WHERE id = $1`,
      [id],
    );
    expect(waiting.rows[0].aguardando).toBe(true);
    const audit = await db.admin.query(
      `SELECT detalhes FROM auditoria WHERE extracao_id = $1 AND acao = 'pergunta_ao_lojista'`,
      [id],
    );
    expect(audit.rows.map((a) => a.detalhes.pergunta)).toEqual([
      'Oi! Qual o valor do pix para o João?',
    ]);

    expect(await sendOutboxRow(deps(), saida.id)).toBe('enviada');
    expect(fake.sends).toHaveLength(1);
    expect(fake.sends[0]!.body).toMatchObject({
      to: '5511987654321',
      type: 'text',
      text: { body: 'Oi! Qual o valor do pix para o João?' },
      context: { message_id: 'wamid.PEDIDO1' },
    });
    await withTransaction(db.app, (c) =>
      applyStatuses(c, [
        {
          id: fake.sends[0]!.wamid!,
          status: 'delivered',
          timestamp: String(Math.floor(Date.now() / 1000)),
        },
      ]),
    );
    const t = await itemThread(db.app, id);
    expect(t.canal).toBe('whatsapp');
    expect(t.mensagens.map((m) => [m.direcao, m.texto, m.estado])).toEqual([
      ['entrada', 'manda um pix pro João', null],
      ['saida', 'Oi! Qual o valor do pix para o João?', 'entregue'],
    ]);
    expect(Date.parse(t.mensagens[1]!.em)).toBeGreaterThanOrEqual(Date.parse(t.mensagens[0]!.em));
  });

  it('without the agent’s lease nothing is written; an item that came from no message is only audited (the agent copies it)', async () => {
    const id = await whatsappItem('wamid.PEDIDO2', 'cobra a Maria');
    await expect(
      sendQuestion(ctx, {
        id,
        token: '00000000-0000-4000-8000-000000000000',
        pergunta: 'Qual o valor?',
      }),
    ).rejects.toThrow();
    const none = await db.admin.query('SELECT 1 FROM mensagens_saida WHERE extracao_id = $1', [id]);
    expect(none.rowCount).toBe(0);

    const solo = await insertExtraction(db.admin, { merchantId: 1, status: 'incompleto' });
    const lease = await queueFor(db.app).claim(solo);
    if (!lease.claimed) throw new Error(lease.mensagem);
    expect(
      await sendQuestion(ctx, { id: solo, token: lease.token, pergunta: 'Qual o valor?' }),
    ).toEqual({ enviada: false, canal: null });
    expect((await itemThread(db.app, solo)).mensagens).toEqual([]);
  });
});
