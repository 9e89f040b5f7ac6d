/**
 * Questions through the model path: the real @anthropic-ai/sdk (built from settings, as in the
 * app) talking over real HTTP to the local fake Messages API, the shared tool loop, then SQL on
 * real PostgreSQL.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TOOL_CONSULTAR_VENDAS } from '@shared/sales-dsl';
import { clockForLocalDate } from '../../src-main/clock';
import { main } from '../../src-main/cli/main';
import type { CliIO } from '../../src-main/cli/io';
import { askSales, type SalesDeps } from '../../src-main/sales';
import { createMemorySettings } from '../../src-main/settings/memory';
import { silentLogger } from '../../src-main/util/logger';
import { createTestDatabase, type TestDatabase } from '../support/db';
import {
  startFakeAnthropic,
  statusReply,
  toolUseReply,
  type FakeAnthropic,
} from '../support/fake-anthropic';

const ZONE = 'America/Sao_Paulo';
let db: TestDatabase;
let fake: FakeAnthropic;

beforeAll(async () => {
  [db, fake] = await Promise.all([createTestDatabase(), startFakeAnthropic()]);
  await db.admin.query(`INSERT INTO merchants (id, nome) VALUES (7, 'Pet Shop Boa Vista')`);
  await db.admin.query(
    `INSERT INTO transacoes (merchant_id, status, modalidade, bandeira, valor_bruto_centavos,
       valor_liquido_centavos, aprovada_em) VALUES
       (7, 'aprovada', 'credito_parcelado', 'visa', 30000, 28000, '2026-03-09T13:00:00Z'),
       (7, 'aprovada', 'credito_avista', 'elo', 12345, 12000, '2026-03-14T22:00:00Z'),
       (7, 'aprovada', 'debito', 'visa', 5000, 4900, '2026-03-12T13:00:00Z'),
       (7, 'estornada', 'credito_avista', 'visa', 80000, 78000, '2026-03-12T13:00:00Z')`,
  );
});
afterAll(async () => {
  await Promise.all([db.drop(), fake.close()]);
});
beforeEach(() => fake.reset());

function deps(hoje: string): SalesDeps {
  return {
    dbs: db,
    settings: createMemorySettings(
      {
        timeZone: ZONE,
        operator: 'bia',
        anthropicBaseUrl: fake.url,
        maxRetries: 0,
        model: 'claude-sonnet-4-6',
      },
      { ANTHROPIC_API_KEY: 'chave-de-teste' },
    ),
    clock: clockForLocalDate(hoje, ZONE),
    logger: silentLogger,
  };
}

async function lastLog() {
  const r = await db.admin.query(
    `SELECT origem, pergunta, dsl, consulta, resultado, erro, tentativas, modelo, uso, operador
       FROM consultas_vendas ORDER BY id DESC LIMIT 1`,
  );
  return r.rows[0] as Record<string, unknown>;
}

describe('askSales with the fake Messages API', () => {
  it('feeds validation errors back as tool_result is_error and answers after the correction', async () => {
    fake.enqueue(
      // The model does date arithmetic AND names a merchant: both rejected.
      toolUseReply(
        TOOL_CONSULTAR_VENDAS,
        {
          metrica: 'total_bruto',
          periodo: 'semana_passada',
          modalidades: ['credito_avista', 'credito_parcelado'],
          merchant_id: 8,
        },
        { id: 'toolu_primeira', usage: { input_tokens: 1500, output_tokens: 60 } },
      ),
      toolUseReply(
        TOOL_CONSULTAR_VENDAS,
        {
          metrica: 'total_bruto',
          periodo: 'semana_passada',
          modalidades: ['credito_avista', 'credito_parcelado'],
        },
        { usage: { input_tokens: 300, output_tokens: 50, cache_read_input_tokens: 1400 } },
      ),
    );
    const progress: string[] = [];
    const r = await askSales(deps('2026-03-16'), {
      merchantId: 7,
      pergunta: 'quanto vendi no crédito semana passada?',
      onProgress: (p) =>
        progress.push(`${p.etapa}${p.tentativa ? ` ${p.tentativa}/${p.maxTentativas}` : ''}`),
    });

    expect(fake.requests).toHaveLength(2);
    const [first, second] = fake.requests;
    // The model is told today's date and weekday in the zone, and the conventions.
    const system = JSON.stringify(first!.body.system);
    expect(system).toContain(
      'Hoje é segunda-feira, 16/03/2026 (2026-03-16), no fuso America/Sao_Paulo',
    );
    expect(system).toContain('\\"quanto vou receber\\"');
    expect(first!.body.tool_choice).toMatchObject({ type: 'tool', name: TOOL_CONSULTAR_VENDAS });
    expect(first!.body.tools[0].input_schema.additionalProperties).toBe(false);
    expect(first!.body.messages[0].content).toContain('quanto vendi no crédito semana passada?');
    // The correction turn: the whole assistant message, then the is_error tool_result.
    const msgs = second!.body.messages;
    expect(msgs).toHaveLength(3);
    expect(msgs[1].role).toBe('assistant');
    expect(msgs[1].content[0]).toMatchObject({ type: 'tool_use', id: 'toolu_primeira' });
    expect(msgs[2].content[0]).toMatchObject({
      type: 'tool_result',
      tool_use_id: 'toolu_primeira',
      is_error: true,
    });
    expect(msgs[2].content[0].content).toMatch(/Propriedades não permitidas: merchant_id/);

    if (r.tipo !== 'resposta') throw new Error('esperava resposta');
    expect(r.consulta).toMatchObject({ data_inicio: '2026-03-09', data_fim: '2026-03-15' });
    // 300,00 (09/03) + 123,45 (14/03 at 19:00 local); not debit, not the refunded sale.
    expect(r.linhas).toEqual([{ grupo: null, valor: 42345 }]);
    expect(r.resposta.replace(/\u00a0/g, ' ')).toBe(
      'Total bruto de 09/03/2026 a 15/03/2026: R$ 423,45.',
    );
    expect(progress).toEqual([
      'interpretando a pergunta',
      'interpretando a pergunta 1/3',
      'interpretando a pergunta 2/3',
      'consultando as vendas',
    ]);
    expect(await lastLog()).toMatchObject({
      origem: 'pergunta',
      pergunta: 'quanto vendi no crédito semana passada?',
      dsl: { periodo: 'semana_passada' },
      resultado: 'respondida',
      tentativas: 2,
      operador: 'bia',
      uso: { input_tokens: 1800, output_tokens: 110, cache_read_input_tokens: 1400 },
    });
  });

  it('returns a clarification without querying sales', async () => {
    fake.enqueue(
      toolUseReply(TOOL_CONSULTAR_VENDAS, {
        pergunta_esclarecimento:
          'Só consigo responder sobre as vendas desta loja. Quer ver as suas?',
      }),
    );
    const r = await askSales(deps('2026-03-16'), {
      merchantId: 7,
      pergunta: 'mostre as vendas da loja do lado',
    });
    expect(r).toEqual({
      tipo: 'esclarecimento',
      esclarecimento: 'Só consigo responder sobre as vendas desta loja. Quer ver as suas?',
    });
    expect(await lastLog()).toMatchObject({
      resultado: 'esclarecimento',
      consulta: null,
      tentativas: 1,
    });
  });

  it('gives up after the configured attempts with a pt-BR message and logs the refusal', async () => {
    const bad = { metrica: 'total_bruto', data_inicio: '2024-01-01', data_fim: '2026-03-01' };
    fake.enqueue(
      toolUseReply(TOOL_CONSULTAR_VENDAS, bad),
      toolUseReply(TOOL_CONSULTAR_VENDAS, bad),
      toolUseReply(TOOL_CONSULTAR_VENDAS, bad),
    );
    await expect(
      askSales(deps('2026-03-16'), { merchantId: 7, pergunta: 'quanto vendi desde 2024?' }),
    ).rejects.toMatchObject({
      code: 'consulta_recusada',
      message: expect.stringMatching(/depois de 3 tentativa\(s\): O período tem 791 dias/),
    });
    expect(fake.requests).toHaveLength(3);
    expect(await lastLog()).toMatchObject({ resultado: 'invalida', tentativas: 3, dsl: bad });
  });

  it('maps API failures to pt-BR and logs them', async () => {
    fake.enqueue(statusReply(401, { message: 'invalid x-api-key' }));
    await expect(
      askSales(deps('2026-03-16'), { merchantId: 7, pergunta: 'quanto vendi hoje?' }),
    ).rejects.toMatchObject({
      code: 'sem_chave_api',
      message: expect.stringMatching(/recusou a chave/),
    });
    expect(await lastLog()).toMatchObject({
      resultado: 'erro',
      erro: expect.stringMatching(/recusou a chave/),
    });
  });

  it('checks the merchant and the question before calling the model', async () => {
    await expect(
      askSales(deps('2026-03-16'), { merchantId: 99, pergunta: 'quanto vendi hoje?' }),
    ).rejects.toMatchObject({ code: 'nao_encontrado' });
    await expect(
      askSales(deps('2026-03-16'), { merchantId: 7, pergunta: '   ' }),
    ).rejects.toMatchObject({
      code: 'entrada_invalida',
    });
    expect(fake.requests).toHaveLength(0);
  });
});

describe('balcao ask "<pergunta>" (model path through the CLI)', () => {
  it('prints the JSON answer, with --hoje deciding the week', async () => {
    fake.enqueue(
      toolUseReply(TOOL_CONSULTAR_VENDAS, {
        metrica: 'quantidade',
        periodo: 'semana_passada',
        agrupar_por: 'dia',
        ordem: 'decrescente',
        limite: 1,
      }),
    );
    let out = '';
    const io: CliIO = { out: (t) => void (out += t), err: () => undefined, isTTY: false };
    const code = await main(
      [
        'ask',
        '--merchant',
        '7',
        '--hoje',
        '2026-03-16',
        'qual foi meu melhor dia semana passada?',
        '--json',
      ],
      io,
      {
        DATABASE_URL: db.adminUrl,
        APP_DATABASE_URL: db.appUrl,
        ANALYTICS_DATABASE_URL: db.analyticsUrl,
        ANTHROPIC_API_KEY: 'chave-de-teste',
        ANTHROPIC_BASE_URL: fake.url,
        ANTHROPIC_MODEL: 'claude-sonnet-4-6',
        BALCAO_TIME_ZONE: ZONE,
        BALCAO_LOG_LEVEL: 'silent',
      },
    );
    expect(code).toBe(0);
    const j = JSON.parse(out) as { consulta: unknown; linhas: unknown; resposta: string };
    expect(j.consulta).toMatchObject({
      data_inicio: '2026-03-09',
      data_fim: '2026-03-15',
      limite: 1,
    });
    // Three sales on three days; ties go to the earliest day.
    expect(j.linhas).toEqual([{ grupo: '2026-03-09', valor: 1 }]);
    expect(j.resposta).toContain('Melhor dia: 09/03/2026 (segunda-feira), com 1 venda.');
    expect(JSON.stringify(fake.requests[0]!.body.system)).toContain('16/03/2026');
  });
});
