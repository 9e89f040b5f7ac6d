import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../src-main/clock';
import { createExtractionRerunner } from '../../src-main/queue/rerunner';
import { extractionChargeRules } from '../../src-main/queue/rules';
import { createQueueService } from '../../src-main/queue/service';
import { createMemorySettings } from '../../src-main/settings/memory';
import type { DadosCobranca } from '../../src-shared/extraction-types';
import { createTestDatabase, type TestDatabase } from '../support/db';
import {
  startFakeAnthropic,
  heldReply,
  statusReply,
  toolUseReply,
  type FakeAnthropic,
} from '../support/fake-anthropic';
import { PIX_PARCELAS, dados, ensureMerchants, insertExtraction } from '../support/queue-fixtures';

let db: TestDatabase;
let fake: FakeAnthropic;
beforeAll(async () => {
  [db, fake] = await Promise.all([createTestDatabase(), startFakeAnthropic()]);
  await ensureMerchants(db.admin, { 1: 'Padaria Central' });
});
afterAll(async () => {
  await Promise.all([db.drop(), fake.close()]);
});
beforeEach(() => fake.reset());

/** An agent whose app has an API key and talks to the fake Messages API (real SDK, real HTTP). */
function agent(name: string, withKey = true) {
  const settings = createMemorySettings(
    {
      operator: name,
      timeZone: 'America/Sao_Paulo',
      anthropicBaseUrl: fake.url,
      maxRetries: 0,
      requestTimeoutMs: 5_000,
    },
    withKey ? { ANTHROPIC_API_KEY: 'sk-ant-teste-000000000000000000' } : {},
  );
  const clock = fixedClock(new Date('2026-11-30T15:00:00Z'));
  return createQueueService({
    pool: db.app,
    clock,
    settings,
    rules: extractionChargeRules,
    rerunner: createExtractionRerunner({ settings, clock }),
  });
}

const reply = (d: DadosCobranca) =>
  toolUseReply('registrar_cobranca', d, {
    usage: { input_tokens: 1600, output_tokens: 90, cache_read_input_tokens: 1400 },
  });

async function claimed(svc: ReturnType<typeof agent>, id: number) {
  const r = await svc.claim(id);
  if (!r.claimed) throw new Error(r.mensagem);
  return r.token;
}

async function trail(id: number) {
  const r = await db.admin.query<{
    operador: string;
    acao: string;
    antes: unknown;
    depois: unknown;
    detalhes: unknown;
  }>(
    `SELECT operador, acao, antes, depois, detalhes FROM auditoria
      WHERE extracao_id = $1 AND acao NOT IN ('assumiu', 'liberou') ORDER BY id`,
    [id],
  );
  return r.rows;
}

describe('merchant answer → the engine re-runs on the same item', () => {
  it('sends the original text plus the answer, stores a new round, keeps the item with the agent', async () => {
    const texto = 'cobra a Fernanda, 3 camisetas, no cartão';
    const model = dados({
      valor_centavos: null,
      parcelas: null,
      vencimento: null,
      cliente_nome: 'Fernanda',
    });
    const id = await insertExtraction(db.admin, { status: 'incompleto', texto, dados: model });
    const ana = agent('Ana');
    const token = await claimed(ana, id);
    const complete = dados({
      valor_centavos: 9000,
      parcelas: 2,
      cliente_nome: 'Fernanda',
      vencimento: '2026-12-10',
      descricao: '3 camisetas',
    });
    fake.enqueue(reply(complete));

    const r = await ana.recordAnswer({ id, token, resposta: 'são 90 reais em 2x, vence dia 10' });

    expect(fake.requests).toHaveLength(1);
    const user = JSON.stringify(fake.requests[0]!.body.messages[0]);
    expect(user).toContain(texto);
    expect(user).toContain('são 90 reais em 2x, vence dia 10');
    expect(r.executado).toBe(true);
    const d = r.detalhe;
    expect(d).toMatchObject({
      status: 'completo',
      filaEstado: 'aberta',
      emAnalisePor: 'Ana',
      tentativas: 2,
      dados: { valor_centavos: 9000, parcelas: 2, vencimento: '2026-12-10' },
    });
    expect(d.tentativasDetalhe.map((a) => [a.numero, a.rodada])).toEqual([
      [1, 1],
      [2, 2],
    ]);
    expect(d.respostas).toEqual([{ rodada: 2, resposta: 'são 90 reais em 2x, vence dia 10' }]);
    expect(d.pergunta).toBeNull();
    const t = await trail(id);
    expect(t.map((x) => `${x.operador}:${x.acao}`)).toEqual([
      'Ana:resposta_registrada',
      'Ana:extracao_complementada',
    ]);
    expect(t[1]).toMatchObject({
      antes: { status: 'incompleto', dados: { valor_centavos: null } },
      depois: { status: 'completo', dados: { valor_centavos: 9000 } },
      detalhes: { tentativas: 1, resposta: 'são 90 reais em 2x, vence dia 10' },
    });
    // Usage accumulates over the rounds.
    const row = (await db.admin.query('SELECT uso, rodadas FROM extracoes WHERE id = $1', [id]))
      .rows[0];
    expect(row.uso.input_tokens).toBe(1500 + 1600);
    expect(row.rodadas).toHaveLength(1);

    // The agent confirms the model's new version: no overrides.
    const c = await ana.confirm({ id, token, dados: d.dados! });
    expect(c).toMatchObject({ criada: true, cobranca: { valorCentavos: 9000, alteracoes: {} } });
  });

  it('a second answer carries every earlier answer, in order', async () => {
    const id = await insertExtraction(db.admin, {
      status: 'incompleto',
      texto: 'manda um pix pro seu Antônio',
      dados: dados({
        valor_centavos: null,
        vencimento: null,
        metodo: 'pix',
        parcelas: 1,
        cliente_nome: 'Antônio',
      }),
    });
    const ana = agent('Ana');
    const token = await claimed(ana, id);
    fake.enqueue(
      reply(
        dados({
          valor_centavos: 5000,
          vencimento: null,
          metodo: 'pix',
          parcelas: 1,
          cliente_nome: 'Antônio',
        }),
      ),
    );
    const first = await ana.recordAnswer({ id, token, resposta: '50 reais' });
    expect(first.detalhe).toMatchObject({
      status: 'incompleto',
      pergunta: 'Qual a data de vencimento?',
    });
    fake.enqueue(
      reply(
        dados({
          valor_centavos: 5000,
          vencimento: '2026-12-01',
          metodo: 'pix',
          parcelas: 1,
          cliente_nome: 'Antônio',
        }),
      ),
    );
    const second = await ana.recordAnswer({ id, token, resposta: 'vence amanhã' });
    const user = JSON.stringify(fake.requests[1]!.body.messages[0]);
    expect(user.indexOf('50 reais')).toBeGreaterThan(-1);
    expect(user.indexOf('vence amanhã')).toBeGreaterThan(user.indexOf('50 reais'));
    expect(second.detalhe.status).toBe('completo');
    expect(second.detalhe.tentativasDetalhe.map((a) => a.rodada)).toEqual([1, 2, 3]);
  });

  it('reprocess re-runs a failed item on its original text', async () => {
    const model = dados({ metodo: 'pix', parcelas: 3 });
    const id = await insertExtraction(db.admin, { dados: model, erros: [PIX_PARCELAS] });
    const ana = agent('Ana');
    const token = await claimed(ana, id);
    fake.enqueue(reply(dados({ metodo: 'cartao', parcelas: 3 })));
    const r = await ana.reprocess({ id, token });
    expect(r.executado && r.detalhe.status).toBe('completo');
    expect((await trail(id)).map((x) => x.acao)).toEqual(['reprocessada']);
  });

  it('without a key: a clear pt-BR message, the answer kept, no request made', async () => {
    const id = await insertExtraction(db.admin, {
      status: 'incompleto',
      dados: dados({ valor_centavos: null }),
    });
    const ana = agent('Ana', false);
    const token = await claimed(ana, id);
    const r = await ana.recordAnswer({ id, token, resposta: '150 reais' });
    expect(r.executado).toBe(false);
    if (!r.executado) {
      expect(r.mensagem).toMatch(/^Nenhuma chave da API da Anthropic configurada\./);
      expect(r.mensagem).toMatch(
        /A resposta foi registrada, mas a extração não foi refeita: preencha os campos à mão\.$/,
      );
    }
    expect(fake.requests).toHaveLength(0);
    expect((await trail(id)).map((x) => x.acao)).toEqual(['resposta_registrada']);
  });

  it('an API error leaves the item as it was (the answer stays recorded)', async () => {
    const id = await insertExtraction(db.admin, {
      status: 'incompleto',
      dados: dados({ valor_centavos: null }),
    });
    const ana = agent('Ana');
    const token = await claimed(ana, id);
    fake.enqueue(statusReply(400, { message: 'bad request secreto' }));
    await expect(ana.recordAnswer({ id, token, resposta: '150 reais' })).rejects.toMatchObject({
      code: 'configuracao',
      message: expect.stringMatching(/^A API da Anthropic recusou a requisição/),
    });
    const d = await ana.get(id);
    expect(d).toMatchObject({ status: 'incompleto', tentativas: 1 });
    expect((await trail(id)).map((x) => x.acao)).toEqual(['resposta_registrada']);
  });

  it('if the lease is lost while the model answers, nothing is stored', async () => {
    const id = await insertExtraction(db.admin, {
      status: 'incompleto',
      dados: dados({ valor_centavos: null }),
    });
    const ana = agent('Ana');
    const bia = agent('Bia');
    const token = await claimed(ana, id);
    const held = heldReply(reply(dados()));
    fake.enqueue(held.reply);
    const pending = ana.recordAnswer({ id, token, resposta: '150 reais' });
    // Ana's re-extraction is at the model (until released) when her lease runs out.
    await expect.poll(() => fake.requests.length).toBe(1);
    await db.admin.query(
      `UPDATE extracoes SET lease_expira_em = now() - interval '1 second' WHERE id = $1`,
      [id],
    );
    expect((await bia.claim(id)).claimed).toBe(true);
    held.release();
    await expect(pending).rejects.toMatchObject({
      code: 'conflito',
      message: 'Este item está em análise por Bia. Só quem está com o item pode agir.',
    });
    const d = await bia.get(id);
    expect(d).toMatchObject({ status: 'incompleto', tentativas: 1 });
    expect(d.tentativasDetalhe).toHaveLength(1);
  });
});
