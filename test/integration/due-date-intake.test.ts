/**
 * #42.1: a due date the merchant never wrote. The intake cross-checks the extracted vencimento
 * with the date the text names, read from the message's arrival in São Paulo: a mismatch is an
 * alert that keeps the charge out of auto-creation (the item goes to the review queue).
 */
import Anthropic from '@anthropic-ai/sdk';
import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../src-main/clock';
import { enqueueMessages } from '../../src-main/intake/enqueue';
import { startBoss } from '../../src-main/intake/jobs';
import type { MensagemEntrada } from '../../src-main/intake/message';
import { processMessage, type ProcessDeps } from '../../src-main/intake/process';
import { createExtractionRerunner } from '../../src-main/queue/rerunner';
import { createQueueService } from '../../src-main/queue/service';
import { extractionChargeRules } from '../../src-main/queue/rules';
import { createMemorySettings } from '../../src-main/settings/memory';
import { silentLogger } from '../../src-main/util/logger';
import type { DadosCobranca } from '../../src-shared/extraction-types';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { startFakeAnthropic, toolUseReply, type FakeAnthropic } from '../support/fake-anthropic';
import { dados, ensureMerchants, insertExtraction, queueFor } from '../support/queue-fixtures';

const KEY = 'sk-ant-teste-000000000000000000';
/** Arrival: Sunday 06/12/2026, 10:00 in São Paulo. */
const CHEGADA = '2026-12-06T10:00:00-03:00';
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

function deps(now: string): ProcessDeps {
  return {
    pool: db.app,
    settings: createMemorySettings(
      {
        timeZone: 'America/Sao_Paulo',
        anthropicBaseUrl: fake.url,
        maxRetries: 0,
        requestTimeoutMs: 5_000,
      },
      { ANTHROPIC_API_KEY: KEY },
    ),
    clock: fixedClock(new Date(now)),
    rules: extractionChargeRules,
    client: new Anthropic({ apiKey: KEY, baseURL: fake.url, maxRetries: 0 }),
    logger: silentLogger,
  };
}

let seq = 0;
async function accept(texto: string, recebida_em: string): Promise<number> {
  const m: MensagemEntrada = {
    canal: 'whatsapp',
    mensagem_id: `venc-${++seq}`,
    merchant: 1,
    texto,
    recebida_em,
  };
  const [o] = await enqueueMessages({ pool: db.app, boss }, [m]);
  if (o?.status !== 'aceita' || o.id === undefined) throw new Error(`não aceita: ${o?.motivo}`);
  return o.id;
}

const PIX: Partial<DadosCobranca> = {
  valor_centavos: 30000,
  parcelas: 1,
  metodo: 'pix',
  cliente_nome: 'Ana Souza',
};

async function outcome(mensagem: number) {
  const r = await db.admin.query<{
    resultado: string;
    fila_estado: string;
    situacao: string;
    motivo_codigo: string | null;
    alertas: { codigo: string; frase?: string; data_no_texto?: string; mensagem: string }[];
    cobrancas: number;
  }>(
    `SELECT m.resultado, e.fila_estado, e.situacao, e.motivo_codigo, e.alertas,
            (SELECT count(*)::int FROM cobrancas c WHERE c.extracao_id = e.id) AS cobrancas
       FROM mensagens m JOIN extracoes e ON e.id = m.extracao_id WHERE m.id = $1`,
    [mensagem],
  );
  return r.rows[0]!;
}

describe('intake: the due date the text names (#42.1)', () => {
  it('a vencimento that disagrees with "dia 20" is not auto-created: the item carries the alert in the queue', async () => {
    const id = await accept('pix de R$ 300 pra Ana Souza, vencimento dia 20', CHEGADA);
    fake.enqueue(toolUseReply('registrar_cobranca', dados({ ...PIX, vencimento: '2026-12-25' })));
    const r = await processMessage(deps('2026-12-06T13:05:00Z'), id);
    expect(r).toMatchObject({ feito: 'processada', resultado: 'fila' });
    const o = await outcome(id);
    expect(o).toMatchObject({
      resultado: 'fila',
      fila_estado: 'aberta',
      situacao: 'com_alerta',
      motivo_codigo: 'vencimento_divergente',
      cobrancas: 0,
    });
    expect(o.alertas).toEqual([
      expect.objectContaining({
        codigo: 'vencimento_divergente',
        frase: 'dia 20',
        data_no_texto: '2026-12-20',
        data_no_texto_ate: '2026-12-20',
      }),
    ]);
    expect(o.alertas[0]?.mensagem).toContain('25/12/2026');

    // The review queue lists it with its reason, like the amount alert.
    const q = queueFor(db.app);
    const page = await q.list({
      view: 'aberta',
      sort: 'recentes',
      limit: 50,
      motivo: 'vencimento_divergente',
    });
    expect(page.items.map((i) => i.motivo)).toEqual([o.alertas[0]?.mensagem]);
    const opts = await q.filterOptions({ view: 'aberta' });
    expect(opts.motivos.find((m) => m.codigo === 'vencimento_divergente')?.rotulo).toBe(
      'Vencimento diferente do texto',
    );
  });

  it('the same message with the text’s date is created automatically', async () => {
    const id = await accept('pix de R$ 300 pra Ana Souza, vencimento dia 20', CHEGADA);
    fake.enqueue(toolUseReply('registrar_cobranca', dados({ ...PIX, vencimento: '2026-12-20' })));
    expect(await processMessage(deps('2026-12-06T13:05:00Z'), id)).toMatchObject({
      resultado: 'cobranca_criada',
    });
    expect(await outcome(id)).toMatchObject({
      fila_estado: 'resolvida',
      cobrancas: 1,
      alertas: [],
    });
  });

  it('"amanhã" is read from the arrival, not from when a worker got to it', async () => {
    // Arrived Sunday 23:30 in São Paulo (already Monday in UTC); processed Monday morning,
    // when the model (told "hoje" = Monday) resolved "amanhã" to Tuesday.
    const id = await accept('pix de R$ 80 pro Zé Lima, vence amanhã', '2026-12-07T02:30:00Z');
    fake.enqueue(
      toolUseReply(
        'registrar_cobranca',
        dados({
          valor_centavos: 8000,
          parcelas: 1,
          metodo: 'pix',
          cliente_nome: 'Zé Lima',
          vencimento: '2026-12-08',
        }),
      ),
    );
    expect(await processMessage(deps('2026-12-07T12:00:00Z'), id)).toMatchObject({
      resultado: 'fila',
    });
    const o = await outcome(id);
    expect(o.alertas).toEqual([
      expect.objectContaining({ frase: 'amanhã', data_no_texto: '2026-12-07' }),
    ]);
    expect(o.cobrancas).toBe(0);
  });
});

describe('confirming an item whose text names another due date (#42.1)', () => {
  it('the service refuses the charge until that date is confirmed explicitly; the text’s own date needs none', async () => {
    const m = await accept('pix de R$ 300 pra Ana Souza, vence dia 20', CHEGADA);
    fake.enqueue(toolUseReply('registrar_cobranca', dados({ ...PIX, vencimento: '2026-12-25' })));
    await processMessage(deps('2026-12-06T13:05:00Z'), m);
    const item = (
      await db.admin.query<{ id: number }>(
        'SELECT extracao_id AS id FROM mensagens WHERE id = $1',
        [m],
      )
    ).rows[0]!.id;
    const q = queueFor(db.app);
    const claim = await q.claim(item);
    if (!claim.claimed) throw new Error(claim.mensagem);
    const fixed = dados({ ...PIX, vencimento: '2026-12-25' });
    const base = { id: item, token: claim.token, dados: fixed };
    await expect(q.confirm(base)).rejects.toMatchObject({
      code: 'entrada_invalida',
      message:
        'O vencimento 25/12/2026 não é o que a mensagem diz («dia 20» → 20/12/2026). Confirme esse vencimento para criar a cobrança.',
    });
    // A confirmation of another date is no confirmation of this one.
    await expect(q.confirm({ ...base, vencimentoConfirmado: '2026-12-20' })).rejects.toMatchObject({
      code: 'entrada_invalida',
    });
    const none = await db.admin.query('SELECT 1 FROM cobrancas WHERE extracao_id = $1', [item]);
    expect(none.rows).toEqual([]);

    const r = await q.confirm({ ...base, vencimentoConfirmado: '2026-12-25' });
    expect(r).toMatchObject({ criada: true, cobranca: { vencimento: '2026-12-25' } });
  });

  it('with the text’s date in the form, no confirmation is asked', async () => {
    const m = await accept('pix de R$ 300 pra Ana Souza, vence dia 20', CHEGADA);
    fake.enqueue(toolUseReply('registrar_cobranca', dados({ ...PIX, vencimento: '2026-12-25' })));
    await processMessage(deps('2026-12-06T13:05:00Z'), m);
    const item = (
      await db.admin.query<{ id: number }>(
        'SELECT extracao_id AS id FROM mensagens WHERE id = $1',
        [m],
      )
    ).rows[0]!.id;
    const q = queueFor(db.app);
    const claim = await q.claim(item);
    if (!claim.claimed) throw new Error(claim.mensagem);
    const r = await q.confirm({
      id: item,
      token: claim.token,
      dados: dados({ ...PIX, vencimento: '2026-12-20' }),
    });
    expect(r).toMatchObject({ criada: true, cobranca: { vencimento: '2026-12-20' } });
  });
});

describe('a re-run from the queue (#42.1)', () => {
  it('reads the item’s text from when it was stored, not from the day it is reprocessed', async () => {
    // Stored Wednesday 25/11; reprocessed Monday 30/11, when the model resolves "amanhã" to 01/12.
    const id = await insertExtraction(db.admin, {
      status: 'completo',
      texto: 'pix de R$ 300 pra Ana Souza, vence amanhã',
      dados: dados({ ...PIX, vencimento: '2026-11-26' }),
      criadaEm: '2026-11-25T12:00:00-03:00',
    });
    const clock = fixedClock(new Date('2026-11-30T15:00:00Z'));
    const settings = createMemorySettings(
      { operator: 'Ana', timeZone: 'America/Sao_Paulo', anthropicBaseUrl: fake.url, maxRetries: 0 },
      { ANTHROPIC_API_KEY: KEY },
    );
    const q = createQueueService({
      pool: db.app,
      clock,
      settings,
      rules: extractionChargeRules,
      rerunner: createExtractionRerunner({ settings, clock }),
    });
    const claim = await q.claim(id);
    if (!claim.claimed) throw new Error(claim.mensagem);
    fake.enqueue(toolUseReply('registrar_cobranca', dados({ ...PIX, vencimento: '2026-12-01' })));
    const r = await q.reprocess({ id, token: claim.token });
    expect(r.executado).toBe(true);
    expect(r.detalhe.alertas).toEqual([
      expect.objectContaining({
        codigo: 'vencimento_divergente',
        frase: 'amanhã',
        data_no_texto: '2026-11-26',
      }),
    ]);
  });
});
