import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DadosCobranca } from '@shared/extraction-types';
import { fixedClock } from '../../src-main/clock';
import { extractCharge, followUpExtraction, type ExtractionDeps } from '../../src-main/extraction';
import { listQueue } from '../../src-main/queue/list';
import { DEFAULT_MODEL } from '../../src-main/settings/defaults';
import { createMemorySettings } from '../../src-main/settings/memory';
import type { Settings } from '../../src-main/settings/types';
import { chargeData, CHARGE_TEXT } from '../support/charges';
import { createTestDatabase, type TestDatabase } from '../support/db';
import {
  startFakeAnthropic,
  statusReply,
  textReply,
  toolUseReply,
  type FakeAnthropic,
} from '../support/fake-anthropic';

const MERCHANT = 7;
// Monday 2026-03-16, 12:00 in São Paulo.
const NOON_SP = new Date('2026-03-16T15:00:00Z');

let db: TestDatabase;
let fake: FakeAnthropic;

beforeAll(async () => {
  [db, fake] = await Promise.all([createTestDatabase(), startFakeAnthropic()]);
  await db.admin.query(`INSERT INTO merchants (id, nome) VALUES (${MERCHANT}, 'Padaria Teste')`);
});
afterAll(async () => {
  await Promise.all([db.drop(), fake.close()]);
});
beforeEach(() => fake.reset());

function deps(
  over: Partial<Settings> = {},
  clock = fixedClock(NOON_SP),
  key: string | null = 'sk-teste',
): ExtractionDeps {
  const settings = createMemorySettings(
    { maxRetries: 1, requestTimeoutMs: 5_000, ...over },
    { ...(key ? { ANTHROPIC_API_KEY: key } : {}), ANTHROPIC_BASE_URL: fake.url },
  );
  return { settings, clock, pool: db.app };
}

const charge = chargeData;
const reply = (patch: Partial<DadosCobranca> = {}, usage = {}) =>
  toolUseReply('registrar_cobranca', charge(patch), { usage });

const TEXTO = CHARGE_TEXT;

async function row(id: number) {
  const r = await db.admin.query('SELECT * FROM extracoes WHERE id = $1', [id]);
  return r.rows[0];
}
async function attemptsOf(id: number) {
  const r = await db.admin.query(
    'SELECT * FROM extracao_tentativas WHERE extracao_id = $1 ORDER BY numero',
    [id],
  );
  return r.rows;
}
async function countRows(): Promise<number> {
  const r = await db.admin.query('SELECT count(*)::int AS n FROM extracoes');
  return r.rows[0].n;
}

describe('extractCharge end to end (fake API over HTTP, real SDK, real PostgreSQL, app role)', () => {
  it('completo on the first attempt: one request; row, attempt, usage and cost stored; not queued', async () => {
    fake.enqueue(
      reply({}, { input_tokens: 1200, output_tokens: 80, cache_creation_input_tokens: 1000 }),
    );
    const r = await extractCharge(deps(), { texto: TEXTO, merchantId: MERCHANT });
    expect(r.status).toBe('completo');
    expect(fake.requests).toHaveLength(1);
    const body = fake.requests[0]!.body;
    // system prompt: today and weekday from the clock and zone, conventions; cached
    expect(body.system[0].text).toContain('Hoje é segunda-feira, 16/03/2026 (2026-03-16)');
    expect(body.system[0].text).toContain('America/Sao_Paulo');
    expect(body.system[0].text).toContain('sexta-feira 2026-03-20');
    expect(body.system[0].text).toMatch(/Nunca invente valores/);
    expect(body.system[0].text).toMatch(/centavos/);
    expect(body.system[0].text).toMatch(/Nunca troque o método/);
    expect(body.system[0].cache_control).toEqual({ type: 'ephemeral' });
    expect(body.tools[0].name).toBe('registrar_cobranca');
    expect(body.tools[0].strict).toBe(true);
    expect(body.tools[0].cache_control).toEqual({ type: 'ephemeral' });
    expect(body.tool_choice).toMatchObject({ type: 'tool', name: 'registrar_cobranca' });
    expect(body.model).toBe(DEFAULT_MODEL);
    expect(body.messages[0].content).toContain(TEXTO);

    expect(r.extracao_id).toBeGreaterThan(0);
    const x = await row(r.extracao_id!);
    expect(x).toMatchObject({
      merchant_id: MERCHANT,
      texto: TEXTO,
      status: 'completo',
      dados: charge(),
      erros: [],
      alertas: [],
      tentativas: 1,
      modelo: DEFAULT_MODEL,
      hoje: '2026-03-16',
      fila_estado: 'concluida',
      uso: {
        input_tokens: 1200,
        output_tokens: 80,
        cache_read_input_tokens: 0,
        cache_creation_input_tokens: 1000,
      },
    });
    // 1200*3 + 80*15 + 1000*3.75 = 8550 micro-USD
    expect(x.custo_estimado_usd).toBeCloseTo(0.00855, 6);
    expect(r.custo_estimado_usd).toBeCloseTo(0.00855, 6);
    expect(x.duracao_ms).toBeGreaterThanOrEqual(0);
    expect(x.rodadas).toHaveLength(1);
    expect(x.rodadas[0]).toMatchObject({ rodada: 1, resposta: null, status: 'completo' });
    const [a1, ...rest] = await attemptsOf(r.extracao_id!);
    expect(rest).toHaveLength(0);
    expect(a1).toMatchObject({
      numero: 1,
      entrada: charge(),
      erros: [],
      stop_reason: 'tool_use',
      rodada: 1,
      uso: { input_tokens: 1200, output_tokens: 80 },
    });
  });

  it('correction accepted on attempt 2: request 2 carries the tool_use then the is_error tool_result; both attempts stored', async () => {
    fake.enqueue(
      toolUseReply('registrar_cobranca', charge({ metodo: 'pix', parcelas: 3 }), {
        id: 'toolu_pix3',
      }),
      reply({ metodo: 'pix', parcelas: 1 }),
    );
    const r = await extractCharge(deps(), {
      texto: 'pix de 150 reais pro João Silva em 3x, vence sexta',
      merchantId: MERCHANT,
    });
    expect(r.status).toBe('completo');
    expect(fake.requests).toHaveLength(2);
    const msgs = fake.requests[1]!.body.messages;
    expect(msgs.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(msgs[1].content).toEqual([
      {
        type: 'tool_use',
        id: 'toolu_pix3',
        name: 'registrar_cobranca',
        input: charge({ metodo: 'pix', parcelas: 3 }),
      },
    ]);
    expect(msgs[2].content[0]).toMatchObject({
      type: 'tool_result',
      tool_use_id: 'toolu_pix3',
      is_error: true,
    });
    expect(msgs[2].content[0].content).toContain(
      'parcelas: Pix e boleto aceitam só 1 parcela. Parcelamento só no cartão.',
    );
    const rows = await attemptsOf(r.extracao_id!);
    expect(rows.map((a) => a.numero)).toEqual([1, 2]);
    expect(rows[0].erros).toEqual([
      {
        campo: 'parcelas',
        regra: 'parcelas_pix_boleto',
        mensagem: 'Pix e boleto aceitam só 1 parcela. Parcelamento só no cartão.',
      },
    ]);
    expect(rows[0].entrada.parcelas).toBe(3);
    expect(rows[1].erros).toEqual([]);
    expect((await row(r.extracao_id!)).tentativas).toBe(2);
  });

  it('incompleto makes exactly one request and enters the queue', async () => {
    fake.enqueue(
      reply({ metodo: null, parcelas: null, faltando: ['metodo', 'parcelas'] }),
      reply(), // must not be requested
    );
    const r = await extractCharge(deps(), {
      texto: 'cobra 150 reais do João Silva, vence sexta',
      merchantId: MERCHANT,
    });
    expect(r.status).toBe('incompleto');
    expect(fake.requests).toHaveLength(1);
    expect(r.fila_estado).toBe('aberta');
    expect(await row(r.extracao_id!)).toMatchObject({
      status: 'incompleto',
      fila_estado: 'aberta',
      tentativas: 1,
    });
  });

  it('three invalid replies → falhou after exactly 3 requests, last errors and data stored, queued', async () => {
    fake.enqueue(
      reply({ vencimento: '2026-03-13' }),
      reply({ vencimento: '2026-03-13' }),
      reply({ vencimento: '2026-03-13', parcelas: 13 }),
      reply(),
    );
    const r = await extractCharge(deps(), { texto: TEXTO, merchantId: MERCHANT });
    expect(r.status).toBe('falhou');
    expect(fake.requests).toHaveLength(3);
    expect(r.erros.map((e) => e.regra)).toEqual(['parcelas_faixa', 'vencimento_passado']);
    const x = await row(r.extracao_id!);
    expect(x).toMatchObject({ status: 'falhou', fila_estado: 'aberta', tentativas: 3 });
    expect(x.erros.map((e: { regra: string }) => e.regra)).toEqual([
      'parcelas_faixa',
      'vencimento_passado',
    ]);
    expect(x.dados).toMatchObject({ parcelas: 13, vencimento: '2026-03-13' });
    expect(await attemptsOf(r.extracao_id!)).toHaveLength(3);
    expect(x.uso.input_tokens).toBe(300);
  });

  it('BALCAO_MAX_ATTEMPTS bounds the loop', async () => {
    fake.enqueue(reply({ parcelas: 13 }), reply());
    const r = await extractCharge(deps({ maxAttempts: 1 }), { texto: TEXTO, merchantId: MERCHANT });
    expect(r.status).toBe('falhou');
    expect(fake.requests).toHaveLength(1);
  });

  it('amount alert: "150 reais" extracted as 150 centavos is completo but goes to the queue', async () => {
    fake.enqueue(reply({ valor_centavos: 150 }));
    const r = await extractCharge(deps(), { texto: TEXTO, merchantId: MERCHANT });
    expect(r.status).toBe('completo');
    expect(r.alertas).toHaveLength(1);
    expect(r.alertas[0]).toMatchObject({ codigo: 'valor_divergente', valores_no_texto: [15000] });
    const x = await row(r.extracao_id!);
    expect(x.fila_estado).toBe('aberta');
    expect(x.alertas[0].codigo).toBe('valor_divergente');
    const page = await listQueue(db.app, { limit: 50 });
    const item = page.items.find((i) => i.id === r.extracao_id);
    expect(item?.motivo).toContain('não bate');
  });

  it('"today" comes from the clock in São Paulo: 22:30 on the 16th (already the 17th in UTC) accepts 2026-03-16', async () => {
    const lateEvening = fixedClock(new Date('2026-03-17T01:30:00Z'));
    fake.enqueue(reply({ vencimento: '2026-03-16' }));
    const r = await extractCharge(deps({}, lateEvening), {
      texto: 'R$ 150 no cartão em 3x pro João Silva, vence hoje',
      merchantId: MERCHANT,
    });
    expect(r.status).toBe('completo');
    expect(r.hoje).toBe('2026-03-16');
    expect(fake.requests[0]!.body.system[0].text).toContain('segunda-feira, 16/03/2026');
  });

  it('the configured zone is used: in UTC the same instant is the 17th and 2026-03-16 is refused', async () => {
    const lateEvening = fixedClock(new Date('2026-03-17T01:30:00Z'));
    fake.enqueue(reply({ vencimento: '2026-03-16' }));
    const r = await extractCharge(deps({ timeZone: 'UTC', maxAttempts: 1 }, lateEvening), {
      texto: 'R$ 150 no cartão em 3x pro João Silva, vence hoje',
      merchantId: MERCHANT,
    });
    expect(r.status).toBe('falhou');
    expect(r.erros[0]?.regra).toBe('vencimento_passado');
  });

  it('max_tokens: configuration error, nothing stored', async () => {
    const before = await countRows();
    fake.enqueue(toolUseReply('registrar_cobranca', charge(), { stopReason: 'max_tokens' }));
    await expect(
      extractCharge(deps(), { texto: TEXTO, merchantId: MERCHANT }),
    ).rejects.toMatchObject({ code: 'configuracao' });
    expect(fake.requests).toHaveLength(1);
    expect(await countRows()).toBe(before);
  });

  it('no tool call: error, nothing stored', async () => {
    const before = await countRows();
    fake.enqueue(textReply('Claro! Vou cobrar.'));
    await expect(
      extractCharge(deps(), { texto: TEXTO, merchantId: MERCHANT }),
    ).rejects.toMatchObject({ code: 'modelo_indisponivel' });
    expect(await countRows()).toBe(before);
  });

  it('429 then success: one attempt, two HTTP requests', async () => {
    fake.enqueue(statusReply(429, { retryAfterMs: 1 }), reply());
    const r = await extractCharge(deps(), { texto: TEXTO, merchantId: MERCHANT });
    expect(r.status).toBe('completo');
    expect(r.attempts).toHaveLength(1);
    expect(fake.requests).toHaveLength(2);
    expect(await attemptsOf(r.extracao_id!)).toHaveLength(1);
  });

  it('400 is not retried; nothing stored', async () => {
    const before = await countRows();
    fake.enqueue(statusReply(400), reply());
    await expect(
      extractCharge(deps(), { texto: TEXTO, merchantId: MERCHANT }),
    ).rejects.toMatchObject({ code: 'configuracao' });
    expect(fake.requests).toHaveLength(1);
    expect(await countRows()).toBe(before);
  });

  it('timeout: tempo_esgotado after the SDK retries, nothing stored', async () => {
    const before = await countRows();
    fake.enqueue(
      toolUseReply('registrar_cobranca', charge(), { delayMs: 1_500 }),
      toolUseReply('registrar_cobranca', charge(), { delayMs: 1_500 }),
    );
    await expect(
      extractCharge(deps({ requestTimeoutMs: 120, maxRetries: 1 }), {
        texto: TEXTO,
        merchantId: MERCHANT,
      }),
    ).rejects.toMatchObject({ code: 'tempo_esgotado' });
    expect(fake.requests).toHaveLength(2);
    expect(await countRows()).toBe(before);
  });

  it('without an API key: sem_chave_api, no request, nothing stored', async () => {
    const before = await countRows();
    await expect(
      extractCharge(deps({}, fixedClock(NOON_SP), null), {
        texto: TEXTO,
        merchantId: MERCHANT,
      }),
    ).rejects.toMatchObject({
      code: 'sem_chave_api',
      message: expect.stringContaining('ANTHROPIC_API_KEY'),
    });
    expect(fake.requests).toHaveLength(0);
    expect(await countRows()).toBe(before);
  });

  it('unknown merchant or empty text: refused before calling the model', async () => {
    await expect(extractCharge(deps(), { texto: TEXTO, merchantId: 999 })).rejects.toMatchObject({
      code: 'nao_encontrado',
      message: expect.stringContaining('Lojista 999 não encontrado'),
    });
    await expect(
      extractCharge(deps(), { texto: '  ', merchantId: MERCHANT }),
    ).rejects.toMatchObject({ code: 'entrada_invalida' });
    expect(fake.requests).toHaveLength(0);
  });

  it('persistence is one transaction: a failing attempt insert leaves no extraction behind', async () => {
    await db.admin.query(`
      CREATE FUNCTION falha_teste() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.entrada->>'descricao' = 'quebra-gravacao' THEN
          RAISE EXCEPTION 'falha simulada';
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER falha_teste BEFORE INSERT ON extracao_tentativas
        FOR EACH ROW EXECUTE FUNCTION falha_teste();`);
    try {
      const before = await countRows();
      fake.enqueue(reply({ descricao: 'quebra-gravacao' }));
      const e = await extractCharge(deps(), { texto: TEXTO, merchantId: MERCHANT }).catch(
        (x: unknown) => x,
      );
      expect(e).toMatchObject({ code: 'interno', message: 'Erro inesperado no banco de dados.' });
      expect(await countRows()).toBe(before);
    } finally {
      await db.admin.query(
        'DROP TRIGGER falha_teste ON extracao_tentativas; DROP FUNCTION falha_teste()',
      );
    }
  });

  it('model text with U+0000 is stored (cleaned), not lost', async () => {
    fake.enqueue(reply({ descricao: 'bolo\u0000 de cenoura' }));
    const r = await extractCharge(deps(), { texto: TEXTO, merchantId: MERCHANT });
    expect((await row(r.extracao_id!)).dados.descricao).toBe('bolo de cenoura');
  });
});

describe('follow-up of an incompleto extraction', () => {
  it('re-runs on the original text + the answer, same row, history kept, audited', async () => {
    fake.enqueue(
      reply(
        { metodo: null, parcelas: null, faltando: ['metodo', 'parcelas'] },
        { input_tokens: 100, output_tokens: 10 },
      ),
    );
    const first = await extractCharge(deps(), {
      texto: 'cobra 150 reais do João Silva, vence sexta',
      merchantId: MERCHANT,
    });
    expect(first.status).toBe('incompleto');
    const id = first.extracao_id!;

    fake.enqueue(
      reply({ metodo: 'cartao', parcelas: 2 }, { input_tokens: 200, output_tokens: 20 }),
    );
    const second = await followUpExtraction(
      { ...deps(), pool: db.app, operator: 'ana' },
      { extracaoId: id, resposta: 'no cartão em 2x' },
    );
    expect(second).toMatchObject({ status: 'completo', extracao_id: id, rodada: 2 });
    const user = fake.requests[1]!.body.messages[0].content as string;
    expect(user).toContain('cobra 150 reais do João Silva, vence sexta');
    expect(user).toContain('no cartão em 2x');
    expect(user.indexOf('cobra 150')).toBeLessThan(user.indexOf('no cartão em 2x'));

    const x = await row(id);
    expect(x).toMatchObject({
      status: 'completo',
      fila_estado: 'concluida',
      tentativas: 2,
      dados: charge({ parcelas: 2 }),
      uso: { input_tokens: 300, output_tokens: 30 },
    });
    expect(
      x.rodadas.map((r: { rodada: number; status: string; resposta: string | null }) => [
        r.rodada,
        r.status,
        r.resposta,
      ]),
    ).toEqual([
      [1, 'incompleto', null],
      [2, 'completo', 'no cartão em 2x'],
    ]);
    expect((await attemptsOf(id)).map((a) => [a.numero, a.rodada])).toEqual([
      [1, 1],
      [2, 2],
    ]);
    const audit = await db.admin.query(
      "SELECT operador, antes, depois, detalhes FROM auditoria WHERE extracao_id = $1 AND acao = 'extracao_complementada'",
      [id],
    );
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0]).toMatchObject({
      operador: 'ana',
      antes: { status: 'incompleto' },
      depois: { status: 'completo' },
      detalhes: { rodada: 2, resposta: 'no cartão em 2x' },
    });

    // a completed extraction takes no more answers, and nothing is sent to the model
    const n = fake.requests.length;
    await expect(
      followUpExtraction({ ...deps(), pool: db.app }, { extracaoId: id, resposta: 'outra coisa' }),
    ).rejects.toMatchObject({ code: 'conflito' });
    expect(fake.requests).toHaveLength(n);
  });

  it('a second answer carries all earlier answers in order', async () => {
    fake.enqueue(
      reply({ metodo: null, parcelas: null, faltando: ['metodo', 'parcelas'] }),
      reply({ parcelas: null, faltando: ['parcelas'] }),
      reply({ parcelas: 4 }),
    );
    const first = await extractCharge(deps(), {
      texto: 'cobra 150 reais do João Silva, vence sexta',
      merchantId: MERCHANT,
    });
    const d = { ...deps(), pool: db.app };
    const r2 = await followUpExtraction(d, { extracaoId: first.extracao_id!, resposta: 'cartão' });
    expect(r2).toMatchObject({ status: 'incompleto', rodada: 2 });
    const r3 = await followUpExtraction(d, { extracaoId: first.extracao_id!, resposta: 'em 4x' });
    expect(r3).toMatchObject({ status: 'completo', rodada: 3 });
    const user = fake.requests[2]!.body.messages[0].content as string;
    expect(user.indexOf('cartão')).toBeLessThan(user.indexOf('em 4x'));
    expect((await row(first.extracao_id!)).rodadas).toHaveLength(3);
  });

  it('unknown extraction → nao_encontrado', async () => {
    await expect(
      followUpExtraction({ ...deps(), pool: db.app }, { extracaoId: 987654, resposta: 'x' }),
    ).rejects.toMatchObject({ code: 'nao_encontrado' });
  });
});
