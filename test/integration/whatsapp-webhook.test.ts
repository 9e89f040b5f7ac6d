/**
 * #37 — WhatsApp's webhook in `balcao serve` (in-process server, real HTTP, real PostgreSQL):
 * Meta's verification, the signature before anything is parsed, deliveries stored before the
 * 200 (merchant from the registered number only, timestamp order, a retry recognised by wamid),
 * unknown numbers and non-text messages answered, statuses applied out of order.
 */
import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../src-main/clock';
import { startBoss } from '../../src-main/intake/jobs';
import { startIntakeServer, type IntakeServer } from '../../src-main/intake/serve';
import { handleWhatsAppWebhook } from '../../src-main/whatsapp/webhook';
import { createTestDatabase, type TestDatabase } from '../support/db';
import {
  hubSignature,
  playDelivery,
  waDelivery,
  waEntry,
  waMessage,
  waStatus,
} from '../support/fake-whatsapp';
import { ensureMerchants } from '../support/queue-fixtures';

const APP_SECRET = 'segredo-do-app-meta-0123';
const VERIFY = 'token-de-verificacao-xyz';
const PHONE_ID = '109876543210';
const NOW = new Date('2026-11-30T15:00:00Z');
const T0 = Math.floor(NOW.getTime() / 1000) - 600;
// Merchant 1 registered as +55 11 98765-4321; merchant 2 in the 8-digit form.
const LOJA1 = '5511987654321';
const LOJA2_WA = '5521988887777'; // reaches us with the ninth digit
const DESCONHECIDO = '5531977776666';

let db: TestDatabase;
let boss: PgBoss;
let srv: IntakeServer;

beforeAll(async () => {
  db = await createTestDatabase();
  await ensureMerchants(db.admin, { 1: 'Padaria Central', 2: 'Loja do Zé' });
  await db.admin.query(
    `INSERT INTO lojistas_contatos (telefone, merchant_id, criado_por)
     VALUES ('+5511987654321', 1, 'teste'), ('+552188887777', 2, 'teste')`,
  );
  boss = await startBoss(db.app);
  const config = { appSecret: APP_SECRET, verifyToken: VERIFY, phoneNumberId: PHONE_ID };
  const clock = fixedClock(NOW);
  srv = await startIntakeServer({
    pool: db.app,
    boss,
    secret: 'segredo-de-teste-0123456789',
    clock,
    port: 0,
    whatsappWebhook: (req, res, path) =>
      handleWhatsAppWebhook({ pool: db.app, boss, config, clock }, req, res, path),
  });
});
afterAll(async () => {
  await srv.close();
  await boss.stop({ graceful: false, close: false, wait: true });
  await db.drop();
});

const count = async (sql: string, values: unknown[] = []) =>
  (await db.admin.query<{ n: number }>(sql, values)).rows[0]!.n;
const jobs = (name: string) =>
  count(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1`, [name]);

describe('GET /whatsapp/webhook (Meta verification)', () => {
  it('echoes hub.challenge as text/plain for the right token; 403 otherwise', async () => {
    const q = (token: string, mode = 'subscribe') =>
      fetch(
        `${srv.url}/whatsapp/webhook?hub.mode=${mode}&hub.verify_token=${encodeURIComponent(token)}&hub.challenge=1158201444`,
      );
    const ok = await q(VERIFY);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toContain('text/plain');
    expect(await ok.text()).toBe('1158201444');
    const wrong = await q('outro-token');
    expect(wrong.status).toBe(403);
    expect(((await wrong.json()) as { erro: string }).erro).toContain('Verificação recusada');
    expect((await q(VERIFY, 'unsubscribe')).status).toBe(403);
  });
});

describe('POST /whatsapp/webhook', () => {
  it('401 on a missing, malformed or wrong signature — nothing stored', async () => {
    const body = waDelivery(
      waEntry(PHONE_ID, {
        messages: [waMessage({ from: LOJA1, id: 'wamid.forjada', timestamp: T0, body: 'oi' })],
      }),
    );
    expect((await playDelivery(srv.url, APP_SECRET, body, null)).status).toBe(401);
    expect((await playDelivery(srv.url, APP_SECRET, body, 'sha256=zz')).status).toBe(401);
    const forged = await playDelivery(srv.url, 'outro-segredo', body);
    expect(forged).toMatchObject({
      status: 401,
      body: { erro: 'Assinatura inválida ou ausente (X-Hub-Signature-256).' },
    });
    // Signed for another body: the text was changed on the way.
    const tampered = body.replace('"oi"', '"manda 9000"');
    expect(
      (await playDelivery(srv.url, APP_SECRET, tampered, hubSignature(APP_SECRET, body))).status,
    ).toBe(401);
    // Not even JSON: refused by the signature before any parsing.
    expect(
      (await playDelivery(srv.url, APP_SECRET, '{não é json', 'sha256=' + '0'.repeat(64))).status,
    ).toBe(401);
    expect(await count('SELECT count(*)::int AS n FROM mensagens')).toBe(0);
    expect(await count('SELECT count(*)::int AS n FROM whatsapp_recebidas')).toBe(0);
  });

  it('400 with a pt-BR reason for a signed payload of the wrong shape', async () => {
    const body = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [{ changes: [{ field: 'messages', value: { messages: [] } }] }],
    });
    const r = await playDelivery(srv.url, APP_SECRET, body);
    expect(r.status).toBe(400);
    expect(r.body.erro).toContain(
      'Notificação do WhatsApp inválida — entry.0.changes.0.value.metadata',
    );
  });

  const batch = waDelivery(
    waEntry(PHONE_ID, {
      messages: [
        // Written second, delivered first.
        waMessage({ from: LOJA1, id: 'wamid.L1b', timestamp: T0 + 20, body: 'vence sexta' }),
        waMessage({
          from: LOJA1,
          id: 'wamid.L1a',
          timestamp: T0 + 10,
          body: 'manda um pix de 80 pro Zé',
          contextId: 'wamid.nossa-pergunta',
        }),
      ],
    }),
    waEntry(PHONE_ID, {
      messages: [
        waMessage({
          from: LOJA2_WA,
          id: 'wamid.L2a',
          timestamp: T0 + 15,
          body: 'link de 150 no cartão',
        }),
      ],
    }),
  );

  it('2 entries, 3 messages: one intake row and job each, merchant from the number, in timestamp order', async () => {
    const r = await playDelivery(srv.url, APP_SECRET, batch);
    expect(r).toMatchObject({
      status: 200,
      body: { status: 'recebida', aceitas: 3, duplicadas: 0 },
    });
    const rows = await db.admin.query<{
      mensagem_id: string;
      merchant_id: number;
      canal: string;
      texto: string;
      recebida_em: Date;
      responde_a: string | null;
    }>(
      `SELECT mensagem_id, merchant_id::int AS merchant_id, canal, texto, recebida_em, responde_a
         FROM mensagens ORDER BY id`,
    );
    expect(rows.rows.map((x) => [x.mensagem_id, x.merchant_id])).toEqual([
      ['wamid.L1a', 1],
      ['wamid.L2a', 2],
      ['wamid.L1b', 1],
    ]);
    expect(rows.rows.every((x) => x.canal === 'whatsapp')).toBe(true);
    expect(rows.rows[0]).toMatchObject({
      texto: 'manda um pix de 80 pro Zé',
      responde_a: 'wamid.nossa-pergunta',
      recebida_em: new Date((T0 + 10) * 1000),
    });
    expect(await jobs('intake')).toBe(3);
    expect(
      await count(`SELECT count(*)::int AS n FROM whatsapp_recebidas WHERE mensagem IS NOT NULL`),
    ).toBe(3);
  });

  it('the same delivery again (Meta retrying) adds no row and no job', async () => {
    const r = await playDelivery(srv.url, APP_SECRET, batch);
    expect(r).toMatchObject({ status: 200, body: { aceitas: 0, duplicadas: 3, respostas: 0 } });
    expect(await count('SELECT count(*)::int AS n FROM mensagens')).toBe(3);
    expect(await jobs('intake')).toBe(3);
  });

  it('an unknown number creates nothing but one polite reply (one a day, however many it sends)', async () => {
    const one = (id: string, t: number) =>
      waDelivery(
        waEntry(PHONE_ID, {
          messages: [
            waMessage({ from: DESCONHECIDO, id, timestamp: t, body: 'sou o lojista 1, manda 500' }),
          ],
        }),
      );
    expect((await playDelivery(srv.url, APP_SECRET, one('wamid.U1', T0 + 30))).body).toMatchObject({
      aceitas: 0,
      respostas: 1,
    });
    await playDelivery(srv.url, APP_SECRET, one('wamid.U1', T0 + 30));
    await playDelivery(srv.url, APP_SECRET, one('wamid.U2', T0 + 40));
    expect(
      await count(`SELECT count(*)::int AS n FROM mensagens WHERE mensagem_id LIKE 'wamid.U%'`),
    ).toBe(0);
    const replies = await db.admin.query(
      `SELECT merchant_id, telefone, tipo, responde_a, texto, estado FROM mensagens_saida
        WHERE telefone = '+5531977776666'`,
    );
    expect(replies.rows).toEqual([
      {
        merchant_id: null,
        telefone: '+5531977776666',
        tipo: 'numero_desconhecido',
        responde_a: 'wamid.U1',
        texto: expect.stringContaining('ainda não está cadastrado no Balcão'),
        estado: 'pendente',
      },
    ]);
    // The sender's job was written with the row.
    expect(await jobs('whatsapp')).toBe(1);
  });

  it('audio from a merchant is recorded and answered with what Balcão understands', async () => {
    const body = waDelivery(
      waEntry(PHONE_ID, {
        messages: [waMessage({ from: LOJA1, id: 'wamid.A1', timestamp: T0 + 50, type: 'audio' })],
      }),
    );
    expect((await playDelivery(srv.url, APP_SECRET, body)).body).toMatchObject({
      sem_pedido: 1,
      respostas: 1,
    });
    const rec = await db.admin.query(
      `SELECT tipo, merchant_id::int AS merchant_id, mensagem FROM whatsapp_recebidas WHERE wamid = 'wamid.A1'`,
    );
    expect(rec.rows).toEqual([{ tipo: 'audio', merchant_id: 1, mensagem: null }]);
    const reply = await db.admin.query(
      `SELECT merchant_id::int AS merchant_id, tipo, texto FROM mensagens_saida WHERE responde_a = 'wamid.A1'`,
    );
    expect(reply.rows).toEqual([
      {
        merchant_id: 1,
        tipo: 'nao_texto',
        texto: expect.stringContaining('entende só mensagens de texto'),
      },
    ]);
    expect(
      await count(`SELECT count(*)::int AS n FROM mensagens WHERE mensagem_id = 'wamid.A1'`),
    ).toBe(0);
  });

  it('statuses move a sent row forward only: read then a late delivered stays read; failed never undoes it', async () => {
    const saida = (
      await db.admin.query<{ id: number }>(
        `INSERT INTO mensagens_saida (canal, merchant_id, texto, tipo, telefone, estado, wamid, mensagem_id, enviada_em)
         VALUES ('whatsapp', 1, 'Qual o valor?', 'pergunta', '+5511987654321', 'enviada', 'wamid.OUT1', 'wamid.OUT1', now())
         RETURNING id::int AS id`,
      )
    ).rows[0]!.id;
    const st = (status: 'sent' | 'delivered' | 'read' | 'failed', t: number, extra = {}) =>
      waDelivery(
        waEntry(PHONE_ID, {
          statuses: [
            waStatus({ id: 'wamid.OUT1', status, timestamp: t, recipient: LOJA1, ...extra }),
          ],
        }),
      );
    await playDelivery(srv.url, APP_SECRET, st('read', T0 + 70));
    await playDelivery(srv.url, APP_SECRET, st('delivered', T0 + 65));
    await playDelivery(srv.url, APP_SECRET, st('sent', T0 + 60));
    await playDelivery(srv.url, APP_SECRET, st('failed', T0 + 80, { errorCode: 131026 }));
    const row = (
      await db.admin.query(
        `SELECT estado, entregue_em, lida_em, motivo FROM mensagens_saida WHERE id = $1`,
        [saida],
      )
    ).rows[0];
    expect(row).toEqual({
      estado: 'lida',
      entregue_em: new Date((T0 + 65) * 1000),
      lida_em: new Date((T0 + 70) * 1000),
      motivo: null,
    });
  });

  it('a status carrying our outbox id reconciles a row whose send never learned its wamid', async () => {
    const saida = (
      await db.admin.query<{ id: number }>(
        `INSERT INTO mensagens_saida (canal, merchant_id, texto, tipo, telefone, estado, em_andamento_ate)
         VALUES ('whatsapp', 1, 'Qual o vencimento?', 'pergunta', '+5511987654321', 'enviando', now())
         RETURNING id::int AS id`,
      )
    ).rows[0]!.id;
    const body = waDelivery(
      waEntry(PHONE_ID, {
        statuses: [
          waStatus({
            id: 'wamid.OUT2',
            status: 'delivered',
            timestamp: T0 + 90,
            recipient: LOJA1,
            callback: `balcao-saida:${saida}`,
          }),
        ],
      }),
    );
    expect((await playDelivery(srv.url, APP_SECRET, body)).body).toMatchObject({
      status_atualizados: 1,
    });
    const row = (
      await db.admin.query(`SELECT estado, wamid, mensagem_id FROM mensagens_saida WHERE id = $1`, [
        saida,
      ])
    ).rows[0];
    expect(row).toEqual({ estado: 'entregue', wamid: 'wamid.OUT2', mensagem_id: 'wamid.OUT2' });
  });

  it('deliveries for another business number are acknowledged and ignored', async () => {
    const body = waDelivery(
      waEntry('999', {
        messages: [waMessage({ from: LOJA1, id: 'wamid.X1', timestamp: T0, body: 'oi' })],
      }),
    );
    expect((await playDelivery(srv.url, APP_SECRET, body)).body).toMatchObject({
      ignoradas: 1,
      aceitas: 0,
    });
    expect(
      await count(`SELECT count(*)::int AS n FROM whatsapp_recebidas WHERE wamid = 'wamid.X1'`),
    ).toBe(0);
  });
});
