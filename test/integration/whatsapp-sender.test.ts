/**
 * #37 — the WhatsApp sender against a fake Cloud API over real HTTP (every request checked
 * against the published send schema), on real PostgreSQL: a question goes out once with its
 * context and our outbox id, the wamid becomes the thread of the merchant's reply; 131047 and
 * 131026 fail the row with a pt-BR reason; 130429 and 5xx back off and retry; 190 stops the
 * sender; a timeout waits for the status webhook instead of sending twice; and the pg-boss job
 * written by the outbox row's trigger drives the whole loop in `startWhatsAppSender`.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import type PgBoss from 'pg-boss';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startBoss } from '../../src-main/intake/jobs';
import { createLogger, silentLogger } from '../../src-main/util/logger';
import { whatsappSendConfig } from '../../src-main/whatsapp/config';
import { createWhatsAppClient } from '../../src-main/whatsapp/client';
import {
  sendOutboxRow,
  startWhatsAppSender,
  sweepOutbox,
  type SenderDeps,
  type SendResult,
} from '../../src-main/whatsapp/sender';
import { withTransaction } from '../../src-main/db/tx';
import { applyStatuses } from '../../src-main/whatsapp/statuses';
import { createTestDatabase, type TestDatabase } from '../support/db';
import {
  graphError,
  heldReply,
  startFakeWhatsApp,
  type FakeWhatsApp,
} from '../support/fake-whatsapp';
import { ensureMerchants, insertExtraction } from '../support/queue-fixtures';

const TOKEN = 'token-do-sistema-meta';
const PHONE_ID = '109876543210';

let db: TestDatabase;
let boss: PgBoss;
let fake: FakeWhatsApp;
const scheduled: { saida: number; seconds: number }[] = [];
let tokenRejected = 0;

function deps(over: Partial<SenderDeps> = {}): SenderDeps {
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
    schedule: async (saida, seconds) => void scheduled.push({ saida, seconds }),
    onTokenRejected: () => void tokenRejected++,
    ...over,
  };
}

beforeAll(async () => {
  db = await createTestDatabase();
  await ensureMerchants(db.admin, { 1: 'Padaria Central' });
  await db.admin.query(
    `INSERT INTO lojistas_contatos (telefone, merchant_id, criado_por) VALUES ('+5511987654321', 1, 'teste')`,
  );
  // The merchant's message our question answers.
  await db.admin.query(
    `INSERT INTO whatsapp_recebidas (wamid, telefone, phone_number_id, tipo, merchant_id, enviada_em)
     VALUES ('wamid.IN1', '+5511987654321', $1, 'text', 1, now())`,
    [PHONE_ID],
  );
  boss = await startBoss(db.app);
});
afterAll(async () => {
  await boss.stop({ graceful: false, close: false, wait: true });
  await db.drop();
});
beforeEach(async () => {
  fake = await startFakeWhatsApp({ token: TOKEN, phoneNumberId: PHONE_ID });
  scheduled.length = 0;
  tokenRejected = 0;
});
afterEach(async () => {
  expect(fake.violations).toEqual([]);
  await fake.close();
});

/** A question for merchant 1 answering wamid.IN1 (no telefone: found from the message). */
async function question(texto = 'Qual o nome do cliente?'): Promise<number> {
  const r = await db.admin.query<{ id: number }>(
    `INSERT INTO mensagens_saida (canal, merchant_id, responde_a, texto)
     VALUES ('whatsapp', 1, 'wamid.IN1', $1) RETURNING id::int AS id`,
    [texto],
  );
  return r.rows[0]!.id;
}
const row = async (id: number) =>
  (
    await db.admin.query(
      `SELECT estado, wamid, mensagem_id, motivo, erro_codigo, tentativas,
              enviada_em IS NOT NULL AS enviada
         FROM mensagens_saida WHERE id = $1`,
      [id],
    )
  ).rows[0];

describe('sendOutboxRow', () => {
  it('sends a question once — to the number it answers, with context and our outbox id — and stores the wamid as its thread', async () => {
    const id = await question();
    expect(await sendOutboxRow(deps(), id)).toBe('enviada');
    expect(fake.sends).toHaveLength(1);
    expect(fake.sends[0]!.body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '5511987654321',
      type: 'text',
      text: { body: 'Qual o nome do cliente?', preview_url: false },
      context: { message_id: 'wamid.IN1' },
      biz_opaque_callback_data: `balcao-saida:${id}`,
    });
    const wamid = fake.sends[0]!.wamid!;
    expect(wamid).toMatch(/^wamid\./);
    expect(await row(id)).toMatchObject({
      estado: 'enviada',
      wamid,
      mensagem_id: wamid,
      enviada: true,
    });
    // The merchant's reply names our wamid: the intake finds the thread (reply.ts) by it.
    const thread = await db.admin.query(
      `SELECT id::int AS id FROM mensagens_saida WHERE canal = 'whatsapp' AND mensagem_id = $1`,
      [wamid],
    );
    expect(thread.rows).toEqual([{ id }]);
    expect(await sendOutboxRow(deps(), id)).toBe('nada');
    expect(fake.sends).toHaveLength(1);
  });

  it('131047 (24-hour window closed) fails the row with a pt-BR reason; it is not sent again', async () => {
    const id = await question();
    fake.script(graphError(131047, 400, 'Re-engagement message'));
    expect(await sendOutboxRow(deps(), id)).toBe('falhou');
    expect(await row(id)).toMatchObject({
      estado: 'falhou',
      erro_codigo: 131047,
      motivo: expect.stringContaining('A janela de 24 horas do WhatsApp fechou'),
    });
    expect(await sendOutboxRow(deps(), id)).toBe('nada');
    expect(fake.sends).toHaveLength(1);
  });

  it('a question that cannot be sent puts its waiting item back in the queue, with the reason in its history', async () => {
    const item = await insertExtraction(db.admin, { merchantId: 1, status: 'incompleto' });
    await db.admin.query(`UPDATE extracoes SET fila_estado = 'aguardando_lojista' WHERE id = $1`, [
      item,
    ]);
    const r = await db.admin.query<{ id: number }>(
      `INSERT INTO mensagens_saida (canal, merchant_id, extracao_id, responde_a, texto)
       VALUES ('whatsapp', 1, $1, 'wamid.IN1', 'Qual o valor?') RETURNING id::int AS id`,
      [item],
    );
    fake.script(graphError(131047));
    expect(await sendOutboxRow(deps(), r.rows[0]!.id)).toBe('falhou');
    const e = await db.admin.query(`SELECT fila_estado, situacao FROM extracoes WHERE id = $1`, [
      item,
    ]);
    expect(e.rows[0]).toEqual({ fila_estado: 'aberta', situacao: 'incompleto' });
    const audit = await db.admin.query(
      `SELECT operador, detalhes->>'motivo' AS motivo FROM auditoria
        WHERE extracao_id = $1 AND acao = 'pergunta_nao_enviada'`,
      [item],
    );
    expect(audit.rows).toEqual([
      { operador: 'sistema', motivo: expect.stringContaining('janela de 24 horas') },
    ]);
    // A failed status for the same row later adds nothing.
    await withTransaction(db.app, (c) =>
      applyStatuses(c, [
        {
          id: 'wamid.nunca',
          status: 'failed',
          timestamp: String(Math.floor(Date.now() / 1000)),
          biz_opaque_callback_data: `balcao-saida:${r.rows[0]!.id}`,
          errors: [{ code: 131026 }],
        },
      ]),
    );
    const again = await db.admin.query(
      `SELECT count(*)::int AS n FROM auditoria WHERE extracao_id = $1 AND acao = 'pergunta_nao_enviada'`,
      [item],
    );
    expect(again.rows[0]).toEqual({ n: 1 });
  });

  it('a failed delivery status (after it was sent) also puts the waiting item back', async () => {
    const item = await insertExtraction(db.admin, { merchantId: 1, status: 'incompleto' });
    await db.admin.query(`UPDATE extracoes SET fila_estado = 'aguardando_lojista' WHERE id = $1`, [
      item,
    ]);
    const r = await db.admin.query<{ id: number }>(
      `INSERT INTO mensagens_saida (canal, merchant_id, extracao_id, responde_a, texto)
       VALUES ('whatsapp', 1, $1, 'wamid.IN1', 'Qual o vencimento?') RETURNING id::int AS id`,
      [item],
    );
    expect(await sendOutboxRow(deps(), r.rows[0]!.id)).toBe('enviada');
    await withTransaction(db.app, (c) =>
      applyStatuses(c, [
        {
          id: fake.sends[0]!.wamid!,
          status: 'failed',
          timestamp: String(Math.floor(Date.now() / 1000)),
          errors: [{ code: 131026 }],
        },
      ]),
    );
    expect((await row(r.rows[0]!.id)).estado).toBe('falhou');
    const e = await db.admin.query(`SELECT fila_estado FROM extracoes WHERE id = $1`, [item]);
    expect(e.rows[0]).toEqual({ fila_estado: 'aberta' });
  });

  it('131026 (undeliverable) fails with a reason a person can act on', async () => {
    const id = await question();
    fake.script(graphError(131026));
    expect(await sendOutboxRow(deps(), id)).toBe('falhou');
    expect((await row(id)).motivo).toContain('Confira o número do lojista');
  });

  it('130429 (rate limit) backs off with a new job and is retried until sent', async () => {
    const id = await question();
    fake.script(graphError(130429, 400, 'Rate limit hit'));
    let seen = 0;
    const d = deps({
      backoffMs: (n) => {
        seen = n;
        return 0;
      },
    });
    expect(await sendOutboxRow(d, id)).toBe('adiada');
    expect(seen).toBe(1);
    expect(scheduled).toEqual([{ saida: id, seconds: 0 }]);
    expect(await row(id)).toMatchObject({ estado: 'pendente', erro_codigo: 130429, wamid: null });
    expect(await sendOutboxRow(d, id)).toBe('enviada');
    expect(fake.sends).toHaveLength(2);
    expect(await row(id)).toMatchObject({
      estado: 'enviada',
      tentativas: 2,
      wamid: fake.sends[1]!.wamid,
    });
  });

  it('a 5xx is retried; 190 (token) stops the sender and leaves the row pending', async () => {
    const a = await question();
    fake.script(graphError(2, 503, 'Service temporarily unavailable'));
    expect(await sendOutboxRow(deps(), a)).toBe('adiada');
    expect(await sendOutboxRow(deps(), a)).toBe('enviada');
    const b = await question();
    fake.script(graphError(190, 401, 'Invalid OAuth access token'));
    expect(await sendOutboxRow(deps(), b)).toBe('token_recusado');
    expect(tokenRejected).toBe(1);
    expect(await row(b)).toMatchObject({ estado: 'pendente', tentativas: 0, erro_codigo: 190 });
  });

  it('a timeout is not sent again until the status webhook reconciles it (exactly once)', async () => {
    const id = await question();
    let release!: () => void;
    fake.script(heldReply(new Promise<void>((r) => (release = r))));
    const d = deps({ graceMs: 3_600_000 });
    expect(await sendOutboxRow(d, id)).toBe('incerta');
    release();
    expect(await row(id)).toMatchObject({ estado: 'enviando', wamid: null });
    // Within the grace period the row is not taken again.
    expect(await sendOutboxRow(d, id)).toBe('nada');
    // Meta's status echoes our outbox id: the row learns its wamid and is never resent.
    await withTransaction(db.app, (c) =>
      applyStatuses(c, [
        {
          id: 'wamid.meta.77',
          status: 'sent',
          timestamp: String(Math.floor(Date.now() / 1000)),
          biz_opaque_callback_data: `balcao-saida:${id}`,
        },
      ]),
    );
    expect(await row(id)).toMatchObject({ estado: 'enviada', wamid: 'wamid.meta.77' });
    expect(await sendOutboxRow(deps({ graceMs: 0 }), id)).toBe('nada');
    expect(fake.sends).toHaveLength(1);
  });

  it('a text past 4 096 characters or a merchant without a number fails before any request', async () => {
    const long = await question('x'.repeat(4097));
    expect(await sendOutboxRow(deps(), long)).toBe('falhou');
    expect((await row(long)).motivo).toContain('4.096');
    await ensureMerchants(db.admin, { 2: 'Sem Telefone' });
    const r = await db.admin.query<{ id: number }>(
      `INSERT INTO mensagens_saida (canal, merchant_id, texto) VALUES ('whatsapp', 2, 'Oi') RETURNING id::int AS id`,
    );
    expect(await sendOutboxRow(deps(), r.rows[0]!.id)).toBe('falhou');
    expect((await row(r.rows[0]!.id)).motivo).toContain('balcao lojistas contatos adicionar');
    expect(fake.sends).toHaveLength(0);
  });
});

describe('the sender killed (kill -9) between the HTTP call and its commit', () => {
  async function killedMidSend(): Promise<number> {
    const id = await question('Qual o nome do cliente? (kill)');
    let release!: () => void;
    fake.script(heldReply(new Promise<void>((r) => (release = r))));
    const arrived = fake.nextSend();
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        resolve(__dirname, '../support/whatsapp-sender-child.ts'),
        db.appUrl,
        fake.apiUrl,
        TOKEN,
        PHONE_ID,
        String(id),
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<NodeJS.Signals | null>((r) => child.on('exit', (_c, sig) => r(sig)));
    try {
      await arrived; // Meta has the request; our commit has not happened
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      release();
    }
    expect(out).not.toMatch(/ok/);
    expect(await row(id)).toMatchObject({ estado: 'enviando', wamid: null });
    return id;
  }

  it('Meta had accepted it: the status webhook (our outbox id) reconciles the row; it is never sent twice', async () => {
    const id = await killedMidSend();
    await withTransaction(db.app, (c) =>
      applyStatuses(c, [
        {
          id: 'wamid.meta.kill',
          status: 'sent',
          timestamp: String(Math.floor(Date.now() / 1000)),
          biz_opaque_callback_data: `balcao-saida:${id}`,
        },
      ]),
    );
    expect(await sendOutboxRow(deps({ graceMs: 0 }), id)).toBe('nada');
    expect(await row(id)).toMatchObject({ estado: 'enviada', wamid: 'wamid.meta.kill' });
    expect(fake.sends).toHaveLength(1);
  }, 60_000);

  it('no status within the bound: the row is sent again, never left unsent', async () => {
    const id = await killedMidSend();
    expect(await sendOutboxRow(deps({ graceMs: 3_600_000 }), id)).toBe('nada');
    expect(await sendOutboxRow(deps({ graceMs: 0, leaseMs: 60_000 }), id)).toBe('nada');
    // Past the claim and the grace (both expired in the database's clock), it goes out again.
    await db.admin.query(
      `UPDATE mensagens_saida SET em_andamento_ate = now() - interval '1 second' WHERE id = $1`,
      [id],
    );
    expect(await sendOutboxRow(deps({ graceMs: 0 }), id)).toBe('enviada');
    expect(fake.sends).toHaveLength(2);
  }, 60_000);
});

describe('startWhatsAppSender (pg-boss)', () => {
  it('without token/phone number id it sends nothing and says so', async () => {
    const lines: string[] = [];
    const logger = createLogger('warn', { write: (l: string) => void lines.push(l) });
    const s = await startWhatsAppSender({ pool: db.app, boss, env: {}, logger });
    expect(s.ativo).toBe(false);
    expect(lines.join('')).toContain('envio desligado');
    expect(lines.join('')).toContain('BALCAO_WHATSAPP_TOKEN e BALCAO_WHATSAPP_PHONE_NUMBER_ID');
    await s.stop();
  });

  it('a bad BALCAO_WHATSAPP_API_URL keeps it off too, saying why', async () => {
    const lines: string[] = [];
    const logger = createLogger('warn', { write: (l: string) => void lines.push(l) });
    const env = {
      BALCAO_WHATSAPP_TOKEN: TOKEN,
      BALCAO_WHATSAPP_PHONE_NUMBER_ID: PHONE_ID,
      BALCAO_WHATSAPP_API_URL: 'graph.facebook.com/v23.0',
    };
    const s = await startWhatsAppSender({ pool: db.app, boss, env, logger });
    expect(s.ativo).toBe(false);
    expect(lines.join('')).toContain('BALCAO_WHATSAPP_API_URL deve ser uma URL http(s)://');
  });

  it('the sweep gives a job to a due row that lost its own, once', async () => {
    await db.admin.query(`DELETE FROM pgboss.job WHERE name = 'whatsapp'`);
    const id = await question('Sem job');
    await db.admin.query(
      `DELETE FROM pgboss.job WHERE name = 'whatsapp';
       UPDATE mensagens_saida SET criada_em = now() - interval '5 minutes' WHERE id = ${id}`,
    );
    await db.admin.query(
      `UPDATE mensagens_saida SET estado = 'falhou', motivo = 'fora do teste'
        WHERE id <> ${id} AND estado IN ('pendente', 'enviando')`,
    );
    expect(await sweepOutbox(db.app, boss, 0)).toBe(1);
    expect(await sweepOutbox(db.app, boss, 0)).toBe(0);
    const jobs = await db.admin.query(
      `SELECT data FROM pgboss.job WHERE name = 'whatsapp' AND state = 'created'`,
    );
    expect(jobs.rows).toEqual([{ data: { saida: id } }]);
  });

  it("the job written by the row's trigger sends it", async () => {
    await db.admin.query(`DELETE FROM pgboss.job WHERE name = 'whatsapp'`);
    const done = new Map<number, (r: SendResult) => void>();
    const id = await question('Qual o valor da cobrança?');
    const result = new Promise<SendResult>((resolve) => done.set(id, resolve));
    const sender = await startWhatsAppSender({
      pool: db.app,
      boss,
      env: {
        BALCAO_WHATSAPP_TOKEN: TOKEN,
        BALCAO_WHATSAPP_PHONE_NUMBER_ID: PHONE_ID,
        BALCAO_WHATSAPP_API_URL: fake.apiUrl,
      },
      logger: silentLogger,
      pollingIntervalSeconds: 0.5,
      sweepS: 3600,
      onJob: (r) => done.get(r.saida)?.(r.resultado),
    });
    try {
      expect(await result).toBe('enviada');
    } finally {
      await sender.stop();
    }
    expect(fake.sends.map((s) => s.body.text.body)).toEqual(['Qual o valor da cobrança?']);
    expect(await row(id)).toMatchObject({ estado: 'enviada', wamid: fake.sends[0]!.wamid });
  });
});
