/**
 * #38.1/#38.2 end to end: a merchant's message with a CPF, a phone, an e-mail and a card number
 * goes through the intake (real PostgreSQL, the real SDK against the fake Messages API over real
 * HTTP). The model only ever receives placeholders; a placeholder it copies into a field is
 * restored before the rules; no card number is stored anywhere; the merchant is told not to
 * send card data; the logs hold no CPF, card number or customer name.
 */
import { maskCpf } from '@shared/lgpd';
import { Writable } from 'node:stream';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CARD_NOTICE_TO_MERCHANT, CARD_REMOVED_NOTICE } from '@shared/pii';
import { fixedClock } from '../../src-main/clock';
import { extractCharge } from '../../src-main/extraction';
import { enqueueMessages } from '../../src-main/intake/enqueue';
import { startBoss } from '../../src-main/intake/jobs';
import { processMessage, type ProcessDeps } from '../../src-main/intake/process';
import { createExtractionRerunner } from '../../src-main/queue/rerunner';
import { extractionChargeRules } from '../../src-main/queue/rules';
import { createQueueService } from '../../src-main/queue/service';
import { createMemorySettings } from '../../src-main/settings/memory';
import { createLogger, type Logger } from '../../src-main/util/logger';
import { cliEnv, runCli } from '../support/cli';
import { createTestDatabase, type TestDatabase } from '../support/db';
import {
  messageReply,
  startFakeAnthropic,
  toolUseReply,
  type FakeAnthropic,
} from '../support/fake-anthropic';
import { dados, ensureMerchants, insertExtraction } from '../support/queue-fixtures';
import type PgBoss from 'pg-boss';

const NOW = new Date('2026-11-30T15:00:00Z');
const KEY = 'sk-ant-teste-000000000000000000';

const CPF = '529.982.247-25';
const PHONE = '(11) 98765-4321';
const EMAIL = 'joao.silva@gmail.com';
const CARD = '4111 1111 1111 1111';
/** Every written form the tests look for (punctuation and spacing removed too). */
const FORBIDDEN = [CPF, '52998224725', PHONE, '98765-4321', '987654321', EMAIL, CARD];
const CARD_FORMS = [CARD, '4111111111111111', '4111-1111-1111-1111'];
const TEXTO =
  `manda um link de R$ 150,00 pro João Silva (CPF ${CPF}, zap ${PHONE}, ${EMAIL}) ` +
  `no cartão em 3x, vence 04/12. O cartão dele é ${CARD}.`;

let db: TestDatabase;
let fake: FakeAnthropic;
let boss: PgBoss;
beforeAll(async () => {
  [db, fake] = await Promise.all([createTestDatabase(), startFakeAnthropic()]);
  await ensureMerchants(db.admin, { 1: 'Padaria Central' });
  boss = await startBoss(db.app);
});
afterAll(async () => {
  await boss.stop({ graceful: false, close: false, wait: true });
  await Promise.all([db.drop(), fake.close()]);
});
beforeEach(() => fake.reset());

function settings() {
  return createMemorySettings(
    { timeZone: 'America/Sao_Paulo', anthropicBaseUrl: fake.url, maxRetries: 0 },
    { ANTHROPIC_API_KEY: KEY },
  );
}

function deps(logger: Logger): ProcessDeps {
  return {
    pool: db.app,
    settings: settings(),
    clock: fixedClock(NOW),
    rules: extractionChargeRules,
    client: new Anthropic({ apiKey: KEY, baseURL: fake.url, maxRetries: 0 }),
    logger,
  };
}

/** A pino logger at debug level whose lines the test reads. */
function capturedLogger(): { logger: Logger; text: () => string } {
  const chunks: string[] = [];
  const dest = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk.toString('utf8'));
      done();
    },
  });
  return { logger: createLogger('debug', dest), text: () => chunks.join('') };
}

/** Every row of the tables that keep texts, model bodies or their traces, as JSON text. */
async function storedText(): Promise<string> {
  const tables = [
    'mensagens',
    'intake_tentativas',
    'extracoes',
    'extracao_tentativas',
    'mensagens_saida',
    'auditoria',
    'cobrancas',
  ];
  const parts: string[] = [];
  for (const t of tables) {
    const r = await db.admin.query<{ j: string }>(`SELECT row_to_json(x)::text AS j FROM ${t} x`);
    parts.push(...r.rows.map((row) => row.j));
  }
  return parts.join('\n');
}

let seq = 0;
async function accept(texto: string): Promise<number> {
  const [o] = await enqueueMessages({ pool: db.app, boss }, [
    { canal: 'whatsapp', mensagem_id: `lgpd-${++seq}`, merchant: 1, texto },
  ]);
  if (o?.status !== 'aceita' || o.id === undefined) throw new Error(`não aceita: ${o?.motivo}`);
  return o.id;
}

describe('minimised before the model, restored before the rules, no card stored', () => {
  it('intake: the fake API never sees the data; fields restored; card gone; merchant warned; logs clean', async () => {
    const log = capturedLogger();
    // First answer: a placeholder in metodo — refused, and the error fed back names the
    // placeholder, not the CPF. Second: valid, with placeholders copied into descricao.
    fake.enqueue(
      toolUseReply('registrar_cobranca', dados({ metodo: '[CPF_1]' as never })),
      toolUseReply(
        'registrar_cobranca',
        dados({ descricao: 'Cobrança do CPF [CPF_1], contato [EMAIL_1]' }),
      ),
    );
    const id = await accept(TEXTO);
    const r = await processMessage(deps(log.logger), id);
    expect(r).toMatchObject({ feito: 'processada', resultado: 'cobranca_criada' });

    // What the model received: placeholders only, in both requests.
    expect(fake.requests).toHaveLength(2);
    for (const req of fake.requests) {
      const body = JSON.stringify(req.body);
      for (const v of [...FORBIDDEN, ...CARD_FORMS]) expect(body).not.toContain(v);
    }
    const user = fake.requests[0]!.body.messages[0].content as string;
    expect(user).toContain('(CPF [CPF_1], zap [TELEFONE_1], [EMAIL_1])');
    expect(user).toContain('O cartão dele é [CARTAO_1].');
    expect(user).toContain('R$ 150,00');
    expect(user).toContain('04/12');
    expect(fake.requests[0]!.body.system[0].text).toContain('[CPF_1]');
    const feedback = JSON.stringify(fake.requests[1]!.body.messages[2]);
    expect(feedback).toContain('[CPF_1]');

    // The field the model filled with placeholders holds the real values.
    const e = await db.admin.query<{ dados: { descricao: string; cliente_nome: string } }>(
      'SELECT dados FROM extracoes WHERE id = $1',
      [r.feito === 'processada' ? r.extracao_id : -1],
    );
    expect(e.rows[0]!.dados.descricao).toBe(`Cobrança do CPF ${CPF}, contato ${EMAIL}`);
    expect(e.rows[0]!.dados.cliente_nome).toBe('João Silva');

    // The attempts keep the minimised bodies: placeholders, never the real values.
    const att = await db.admin.query<{ j: string }>(
      'SELECT row_to_json(t)::text AS j FROM intake_tentativas t WHERE mensagem = $1',
      [id],
    );
    expect(att.rows).toHaveLength(2);
    for (const a of att.rows) {
      expect(a.j).toContain('[CPF_1]');
      expect(a.j).not.toContain(CPF);
      expect(a.j).not.toContain(EMAIL);
    }

    // No card number anywhere in the database; the stored message keeps [CARTAO_1].
    const all = await storedText();
    for (const v of CARD_FORMS) expect(all).not.toContain(v);
    const m = await db.admin.query<{ texto: string }>('SELECT texto FROM mensagens WHERE id = $1', [
      id,
    ]);
    expect(m.rows[0]!.texto).toContain('O cartão dele é [CARTAO_1].');

    // The merchant is told not to send card data (outbox, answering this message).
    const out = await db.admin.query<{ texto: string }>(
      'SELECT texto FROM mensagens_saida WHERE origem = $1',
      [id],
    );
    expect(out.rows.map((x) => x.texto)).toEqual([CARD_NOTICE_TO_MERCHANT]);

    // The logs of the whole run: no CPF, no card, no customer name.
    const logs = log.text();
    expect(logs).toContain('intake: mensagem processada');
    for (const v of [CPF, '52998224725', ...CARD_FORMS, 'João Silva']) {
      expect(logs).not.toContain(v);
    }
  });

  it('a question for the merchant carries the card notice first (one outgoing message)', async () => {
    fake.enqueue(toolUseReply('registrar_cobranca', dados({ metodo: null, parcelas: null })));
    const id = await accept(`cobra R$ 80,00 da Maria, cartão 5500 0000 0000 0004, vence 04/12`);
    const r = await processMessage(deps(capturedLogger().logger), id);
    expect(r).toMatchObject({ feito: 'processada', resultado: 'aguardando_lojista' });
    const out = await db.admin.query<{ texto: string }>(
      'SELECT texto FROM mensagens_saida WHERE origem = $1',
      [id],
    );
    expect(out.rows).toHaveLength(1);
    expect(out.rows[0]!.texto.startsWith(`${CARD_NOTICE_TO_MERCHANT}\n\n`)).toBe(true);
    expect(await storedText()).not.toContain('5500 0000 0000 0004');
  });

  it('an answer cut by max_tokens (falhou) gets its placeholders restored too', async () => {
    fake.enqueue(
      messageReply({
        stop_reason: 'max_tokens',
        content: [
          {
            type: 'tool_use',
            id: 'toolu_cut',
            name: 'registrar_cobranca',
            input: dados({ descricao: 'CPF [CPF_1]' }),
          },
        ],
      }),
    );
    const id = await accept(`cobra R$ 150,00 do João, CPF ${CPF}, vence 04/12`);
    const r = await processMessage(deps(capturedLogger().logger), id);
    expect(r).toMatchObject({ feito: 'processada', resultado: 'fila' });
    const e = await db.admin.query<{ status: string; dados: { descricao: string } }>(
      'SELECT status, dados FROM extracoes WHERE id = $1',
      [r.feito === 'processada' ? r.extracao_id : -1],
    );
    expect(e.rows[0]).toMatchObject({ status: 'falhou', dados: { descricao: `CPF ${CPF}` } });
    expect(JSON.stringify(fake.requests[0]!.body)).not.toContain(CPF);
  });

  it('extract (CLI/app path): stored text without the card, the request without personal data', async () => {
    fake.enqueue(toolUseReply('registrar_cobranca', dados({ descricao: 'tel [TELEFONE_1]' })));
    const res = await extractCharge(
      { settings: settings(), clock: fixedClock(NOW), pool: db.app },
      { texto: TEXTO, merchantId: 1 },
    );
    expect(res.status).toBe('completo');
    const body = JSON.stringify(fake.requests[0]!.body);
    for (const v of [...FORBIDDEN, ...CARD_FORMS]) expect(body).not.toContain(v);
    expect(res.dados.descricao).toBe(`tel ${PHONE}`);
    const row = await db.admin.query<{ texto: string; dados: { descricao: string } }>(
      'SELECT texto, dados FROM extracoes WHERE id = $1',
      [res.extracao_id],
    );
    expect(row.rows[0]!.texto).toContain('[CARTAO_1]');
    expect(row.rows[0]!.dados.descricao).toBe(`tel ${PHONE}`);
    const all = await storedText();
    for (const v of CARD_FORMS) expect(all).not.toContain(v);

    // The item says a card number was removed (the terminal's view; the window's: e2e).
    const shown = await runCli(['fila', 'mostrar', String(res.extracao_id)], cliEnv(db));
    expect(shown.code).toBe(0);
    expect(shown.out).toContain(CARD_REMOVED_NOTICE);
  });
});

describe('an answer the agent types in the queue', () => {
  it('goes to the model minimised and is stored without the card number', async () => {
    const s = settings();
    const clock = fixedClock(NOW);
    const ana = createQueueService({
      pool: db.app,
      clock,
      settings: s,
      rules: extractionChargeRules,
      rerunner: createExtractionRerunner({ settings: s, clock }),
    });
    const id = await insertExtraction(db.admin, {
      status: 'incompleto',
      texto: 'cobra a Fernanda, 3 camisetas, no cartão',
      dados: dados({ valor_centavos: null, cliente_nome: 'Fernanda' }),
    });
    const claim = await ana.claim(id);
    if (!claim.claimed) throw new Error(claim.mensagem);
    fake.enqueue(
      toolUseReply(
        'registrar_cobranca',
        dados({ valor_centavos: 9000, cliente_nome: 'Fernanda', descricao: 'CPF [CPF_1]' }),
      ),
    );
    const r = await ana.recordAnswer({
      id,
      token: claim.token,
      resposta: `são 90 reais, CPF ${CPF}, cartão ${CARD}`,
    });
    expect(r.executado).toBe(true);
    const body = JSON.stringify(fake.requests[0]!.body);
    for (const v of [...FORBIDDEN, ...CARD_FORMS]) expect(body).not.toContain(v);
    expect(body).toContain('são 90 reais, CPF [CPF_1], cartão [CARTAO_1]');
    // Restored from the placeholder where it is stored (the charge needs the real CPF)…
    const stored = await db.admin.query<{ descricao: string | null; rodadas: string }>(
      `SELECT dados->>'descricao' AS descricao, rodadas::text FROM extracoes WHERE id = $1`,
      [id],
    );
    expect(stored.rows[0]?.descricao).toBe(`CPF ${CPF}`);
    expect(stored.rows[0]?.rodadas).toContain(`são 90 reais, CPF ${CPF}, cartão [CARTAO_1]`);
    // …and masked on its way to a screen (#38.2).
    expect(r.detalhe.dados?.descricao).toBe(`CPF ${maskCpf(CPF)}`);
    expect(r.detalhe.respostas).toEqual([
      { rodada: 2, resposta: `são 90 reais, CPF ${maskCpf(CPF)}, cartão [CARTAO_1]` },
    ]);
    const all = await storedText();
    for (const v of CARD_FORMS) expect(all).not.toContain(v);
  });
});

describe('logs (#38.2)', () => {
  it('hold no CPF, card number, e-mail or customer name, whatever field carries them', () => {
    const log = capturedLogger();
    log.logger.info(
      {
        texto: TEXTO,
        dados: { cliente_nome: 'João Silva' },
        cliente_nome: 'Maria Souza',
        nested: { body: { messages: [{ content: TEXTO }] }, nota: `cpf ${CPF}` },
      },
      `processando cartão ${CARD} do cpf ${CPF}`,
    );
    log.logger.error({ err: new Error(`falhou para ${EMAIL} / 52998224725`) }, 'erro');
    const text = log.text();
    for (const v of [CPF, '52998224725', ...CARD_FORMS, EMAIL, 'João Silva', 'Maria Souza']) {
      expect(text).not.toContain(v);
    }
    const [first, second] = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(first.msg).toBe('processando cartão [CARTAO_1] do cpf [CPF_1]');
    expect(first.texto).toBe('[omitido]');
    expect(first.cliente_nome).toBe('[omitido]');
    expect(first.nested.nota).toBe('cpf [CPF_1]');
    expect(second.err.message).toBe('falhou para [EMAIL_1] / [CPF_1]');
  });
});
