/**
 * #37.4 e2e — the conversation with the merchant in the review item, at 1366×768 and 1920×1080
 * in pt-BR Chromium: a merchant's WhatsApp message arrives signed at `serve`'s webhook handler →
 * the item shows the thread → the agent edits "Perguntar ao lojista" and sends it → the fake
 * Cloud API receives the edited question answering the merchant's message → the sender's ✓ and
 * Meta's "read" status show as ticks → the merchant's reply arrives through the webhook and the
 * open item updates live (review/changed from LISTEN/NOTIFY). The intake worker's step that ties
 * a stored message to its item (the model's extraction) is done by the test with SQL: this spec
 * is about the channel and the screen, not the model.
 */
import type PgBoss from 'pg-boss';
import { fixedClock } from '../../src-main/clock';
import { seedDemo } from '../../src-main/db/seed';
import { startBoss } from '../../src-main/intake/jobs';
import { startQueueListener } from '../../src-main/intake/live';
import { startIntakeServer } from '../../src-main/intake/serve';
import { createWhatsAppClient } from '../../src-main/whatsapp/client';
import { whatsappSendConfig } from '../../src-main/whatsapp/config';
import { sendOutboxRow } from '../../src-main/whatsapp/sender';
import { handleWhatsAppWebhook } from '../../src-main/whatsapp/webhook';
import {
  playDelivery,
  startFakeWhatsApp,
  waDelivery,
  waEntry,
  waMessage,
  waStatus,
} from '../support/fake-whatsapp';
import { dados, insertExtraction } from '../support/queue-fixtures';
import {
  E2E_NOW,
  E2E_TIME_ZONE,
  expect,
  freshTestDatabase,
  makeServiceDeps,
  openApp,
  startTestBridge,
  test,
} from './support/fixtures';

const APP_SECRET = 'segredo-do-app-meta-e2e-0123';
const TOKEN = 'token-do-sistema-meta-e2e';
const PHONE_ID = '109876543210';
const LOJA = '5511987654321';

for (const size of [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
]) {
  test.describe(`${size.width}×${size.height}`, () => {
    test.use({ viewport: size, locale: 'pt-BR' });

    test('webhook → thread → edited question sent → ticks → the reply shows live', async ({
      page,
      consoleErrors,
    }) => {
      const db = await freshTestDatabase();
      await seedDemo(db.admin, {
        now: E2E_NOW,
        timeZone: E2E_TIME_ZONE,
        merchants: 2,
        transactions: 100,
      });
      await db.admin.query(
        `INSERT INTO lojistas_contatos (telefone, merchant_id, criado_por) VALUES ($1, 1, 'teste')`,
        [`+${LOJA}`],
      );
      const fake = await startFakeWhatsApp({ token: TOKEN, phoneNumberId: PHONE_ID });
      const boss: PgBoss = await startBoss(db.app);
      const clock = fixedClock(new Date());
      const srv = await startIntakeServer({
        pool: db.app,
        boss,
        secret: 'segredo-de-teste-e2e-0123456789',
        clock,
        port: 0,
        whatsappWebhook: (req, res, path) =>
          handleWhatsAppWebhook(
            {
              pool: db.app,
              boss,
              config: { appSecret: APP_SECRET, verifyToken: 'v', phoneNumberId: PHONE_ID },
              clock,
            },
            req,
            res,
            path,
          ),
      });
      const bridge = await startTestBridge({ deps: makeServiceDeps(db) });
      const live = startQueueListener({
        connectionString: db.appUrl,
        onChange: (c) => bridge.broadcast('review/changed', c),
        coalesceMs: 50,
        maxBackoffMs: 500,
      });
      const cfg = whatsappSendConfig({
        BALCAO_WHATSAPP_TOKEN: TOKEN,
        BALCAO_WHATSAPP_PHONE_NUMBER_ID: PHONE_ID,
        BALCAO_WHATSAPP_API_URL: fake.apiUrl,
      });
      if (!cfg.ok) throw new Error(cfg.motivo);
      const sender = {
        pool: db.app,
        client: createWhatsAppClient(cfg.config, { timeoutMs: 2000 }),
        leaseMs: 60_000,
        graceMs: 0,
        backoffMs: () => 0,
        schedule: async () => undefined,
      };
      const now = Math.floor(Date.now() / 1000);
      const shot = (name: string) =>
        page.screenshot({ path: `/tmp/whatsapp-${name}-${size.width}x${size.height}.png` });
      try {
        await expect.poll(() => live.connected()).toBe(true);
        // 1. The merchant writes on WhatsApp: a signed delivery at serve's webhook.
        const pedido = 'manda um pix de 80 reais, vence sexta';
        const d1 = waDelivery(
          waEntry(PHONE_ID, {
            messages: [
              waMessage({ from: LOJA, id: 'wamid.E2E.PEDIDO', timestamp: now - 60, body: pedido }),
            ],
          }),
        );
        expect((await playDelivery(srv.url, APP_SECRET, d1)).status).toBe(200);
        // (the intake worker's extraction: the stored message becomes an item)
        const id = await insertExtraction(db.admin, {
          merchantId: 1,
          texto: pedido,
          status: 'incompleto',
          dados: dados({ metodo: 'pix', parcelas: 1, valor_centavos: 8000, cliente_nome: null }),
        });
        const linked = await db.admin.query(
          `UPDATE mensagens SET extracao_id = $1 WHERE canal = 'whatsapp' AND mensagem_id = 'wamid.E2E.PEDIDO'`,
          [id],
        );
        expect(linked.rowCount).toBe(1);

        // 2. The item shows the thread.
        await openApp(page, bridge, `#/fila/${id}`);
        await expect(page.getByRole('heading', { level: 1 })).toContainText(`Pedido #${id}`);
        const thread = page.getByTestId('item-thread');
        await expect(thread.getByRole('heading', { name: 'Conversa com o lojista' })).toBeVisible();
        await expect(thread.getByTestId('thread-entrada')).toHaveText(
          /Lojista.*manda um pix de 80 reais/s,
        );

        // 3. The agent edits the question and sends it.
        const ask = page.getByRole('button', { name: /Perguntar ao lojista/ });
        await expect(ask).toBeEnabled();
        await ask.click();
        const dialog = page.getByRole('dialog', { name: 'Perguntar ao lojista' });
        await expect(dialog.getByTestId('question')).toHaveText('Qual o nome do cliente?');
        const editada = 'Oi! Para quem é o pix de R$ 80,00? Me passa o nome completo do cliente.';
        await dialog.getByLabel('Pergunta a enviar (pode editar)').fill(editada);
        await shot('pergunta');
        await dialog.getByRole('button', { name: 'Enviar ao lojista' }).click();
        await expect(dialog).toBeHidden();
        await expect(page.getByText('Pergunta enviada ao lojista pelo WhatsApp.')).toBeVisible();
        await expect(page.getByText('enviou a pergunta ao lojista')).toBeVisible();
        const saida = thread.getByTestId('thread-saida');
        await expect(saida).toContainText(editada);
        await expect(saida).toContainText('Aguardando envio');

        // 4. The sender delivers it: the fake channel receives the edited text, in context.
        const row = await db.admin.query<{ id: number }>(
          `SELECT id::int AS id FROM mensagens_saida WHERE extracao_id = $1`,
          [id],
        );
        expect(row.rows).toHaveLength(1);
        expect(await sendOutboxRow(sender, row.rows[0]!.id)).toBe('enviada');
        expect(fake.sends).toHaveLength(1);
        expect(fake.sends[0]!.body).toMatchObject({
          to: LOJA,
          type: 'text',
          text: { body: editada },
          context: { message_id: 'wamid.E2E.PEDIDO' },
        });
        await expect(saida).toHaveAttribute('data-estado', 'enviada');
        await expect(saida.getByLabel('Enviada')).toHaveText('✓');
        const wamid = fake.sends[0]!.wamid!;
        // Meta says it was read.
        const d2 = waDelivery(
          waEntry(PHONE_ID, {
            statuses: [waStatus({ id: wamid, status: 'read', timestamp: now, recipient: LOJA })],
          }),
        );
        expect((await playDelivery(srv.url, APP_SECRET, d2)).status).toBe(200);
        await expect(saida).toHaveAttribute('data-estado', 'lida');
        await expect(saida.getByLabel('Lida')).toHaveText('✓✓');

        // 5. The merchant replies to our question through the webhook; the open item updates live.
        const resposta = 'é pro João Silva';
        const d3 = waDelivery(
          waEntry(PHONE_ID, {
            messages: [
              waMessage({
                from: LOJA,
                id: 'wamid.E2E.RESPOSTA',
                timestamp: Math.floor(Date.now() / 1000) + 1,
                body: resposta,
                contextId: wamid,
              }),
            ],
          }),
        );
        expect((await playDelivery(srv.url, APP_SECRET, d3)).status).toBe(200);
        const reply = await db.admin.query<{ responde_a: string }>(
          `UPDATE mensagens SET extracao_id = $1 WHERE canal = 'whatsapp' AND mensagem_id = 'wamid.E2E.RESPOSTA'
           RETURNING responde_a`,
          [id],
        );
        expect(reply.rows.map((r) => r.responde_a)).toEqual([wamid]);
        await expect(thread.getByTestId('thread-entrada')).toHaveCount(2);
        await expect(thread.getByTestId('thread-entrada').nth(1)).toContainText(resposta);
        await expect(thread.locator('li').last()).toContainText(resposta);
        await shot('conversa');
        expect(consoleErrors).toEqual([]);
      } finally {
        await live.close();
        await bridge.close();
        await srv.close();
        await boss.stop({ graceful: false, close: false, wait: true });
        await fake.close();
        await db.drop();
      }
    });
  });
}
