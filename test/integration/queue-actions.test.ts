import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '../../src-main/db/pool';
import type { ExtractionRerunner } from '../../src-main/queue/service';
import { createTestDatabase, type TestDatabase } from '../support/db';
import {
  PIX_PARCELAS,
  dados,
  ensureMerchants,
  insertExtraction,
  queueFor,
} from '../support/queue-fixtures';
import { whileRefusing } from '../support/refusing-trigger';

let db: TestDatabase;
let wide: pg.Pool;
beforeAll(async () => {
  db = await createTestDatabase();
  wide = createPool(db.appUrl, { max: 16 });
  await ensureMerchants(db.admin, { 1: 'Padaria Central' });
});
afterAll(async () => {
  await wide.end();
  await db.drop();
});

function agent(name: string, opts: { pool?: pg.Pool; rerunner?: ExtractionRerunner | null } = {}) {
  return queueFor(opts.pool ?? db.app, { operator: name, rerunner: opts.rerunner ?? null });
}

async function claimed(svc: ReturnType<typeof agent>, id: number): Promise<string> {
  const r = await svc.claim(id);
  if (!r.claimed) throw new Error(r.mensagem);
  return r.token;
}

async function audit(id: number) {
  const r = await db.admin.query<{
    operador: string;
    acao: string;
    antes: unknown;
    depois: unknown;
    detalhes: Record<string, unknown>;
  }>(
    'SELECT operador, acao, antes, depois, detalhes FROM auditoria WHERE extracao_id = $1 ORDER BY id',
    [id],
  );
  return r.rows;
}

/** A pix charge the model split in 3 (a rule failure); the agent fixes it to 1 parcela. */
async function failedPix(): Promise<number> {
  const model = dados({
    metodo: 'pix',
    parcelas: 3,
    valor_centavos: 120000,
    cliente_nome: 'Ana Costa',
  });
  return insertExtraction(db.admin, {
    texto: 'faz um pix de R$ 1.200 parcelado em 3x pra Ana Costa, vencimento dia 4',
    status: 'falhou',
    dados: model,
    erros: [PIX_PARCELAS],
    tentativas: [
      { entrada: model, erros: [PIX_PARCELAS] },
      { entrada: { ...model, parcelas: 2 }, erros: [PIX_PARCELAS] },
      { entrada: model, erros: [PIX_PARCELAS] },
    ],
  });
}

describe('confirm and create the charge', () => {
  it('N parallel confirms (double clicks, retries) give one charge and one audit entry', async () => {
    const id = await failedPix();
    const ana = agent('Ana', { pool: wide });
    const token = await claimed(ana, id);
    const fixed = dados({
      metodo: 'pix',
      parcelas: 1,
      valor_centavos: 120000,
      cliente_nome: 'Ana Costa',
    });
    const results = await Promise.all(
      Array.from({ length: 12 }, () => ana.confirm({ id, token, dados: fixed })),
    );
    expect(results.filter((r) => r.criada)).toHaveLength(1);
    expect(new Set(results.map((r) => r.cobranca.id)).size).toBe(1);
    const charges = await db.admin.query('SELECT * FROM cobrancas WHERE extracao_id = $1', [id]);
    expect(charges.rowCount).toBe(1);
    expect(charges.rows[0]).toMatchObject({
      valor_centavos: 120000,
      parcelas: 1,
      metodo: 'pix',
      cliente_nome: 'Ana Costa',
      vencimento: '2026-12-04',
      criada_por: 'Ana',
      // The override diff against the model's version.
      alteracoes: { parcelas: { modelo: 3, agente: 1 } },
    });
    const created = (await audit(id)).filter((a) => a.acao === 'cobranca_criada');
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({
      operador: 'Ana',
      antes: { parcelas: 3, metodo: 'pix' },
      depois: { parcelas: 1, metodo: 'pix', faltando: [] },
      detalhes: {
        cobranca_id: results[0]!.cobranca.id,
        alteracoes: { parcelas: { modelo: 3, agente: 1 } },
      },
    });
    const d = await ana.get(id);
    expect(d.filaEstado).toBe('resolvida');
    expect(d.emAnalisePor).toBeNull();
    expect(d.cobranca?.id).toBe(results[0]!.cobranca.id);
  });

  it('two agents confirming at once: one charge; the other gets it back or a pt-BR conflict', async () => {
    const id = await failedPix();
    const ana = agent('Ana', { pool: wide });
    const bia = agent('Bia', { pool: wide });
    const token = await claimed(ana, id);
    const fixed = dados({
      metodo: 'cartao',
      parcelas: 3,
      valor_centavos: 120000,
      cliente_nome: 'Ana Costa',
    });
    const biaToken = '11111111-1111-4111-8111-111111111111';
    const [a, b] = await Promise.allSettled([
      ana.confirm({ id, token, dados: fixed }),
      bia.confirm({ id, token: biaToken, dados: fixed }),
    ]);
    expect(a.status).toBe('fulfilled');
    if (b.status === 'fulfilled') {
      expect(b.value.criada).toBe(false);
      expect(b.value.cobranca.criadaPor).toBe('Ana');
    } else {
      expect(b.reason).toMatchObject({
        code: 'conflito',
        message: 'Este item está em análise por Ana. Só quem está com o item pode agir.',
      });
    }
    expect(
      (await db.admin.query('SELECT 1 FROM cobrancas WHERE extracao_id = $1', [id])).rowCount,
    ).toBe(1);
    // After the fact anyone retrying gets the existing charge, never a second one.
    const again = await bia.confirm({ id, token: biaToken, dados: fixed });
    expect(again).toMatchObject({
      criada: false,
      cobranca: { criadaPor: 'Ana', metodo: 'cartao' },
    });
  });

  it('refuses a charge with missing fields, per field, in pt-BR, and writes nothing', async () => {
    const id = await insertExtraction(db.admin, {
      status: 'incompleto',
      dados: dados({ valor_centavos: null, vencimento: null }),
    });
    const ana = agent('Ana');
    const token = await claimed(ana, id);
    await expect(
      ana.confirm({ id, token, dados: dados({ valor_centavos: null, vencimento: null }) }),
    ).rejects.toMatchObject({
      code: 'entrada_invalida',
      fields: {
        valor_centavos: ['Informe o valor para criar a cobrança.'],
        vencimento: ['Informe o vencimento para criar a cobrança.'],
      },
    });
    expect(
      (await db.admin.query('SELECT 1 FROM cobrancas WHERE extracao_id = $1', [id])).rowCount,
    ).toBe(0);
    expect((await audit(id)).map((a) => a.acao)).toEqual(['assumiu']);
    expect((await ana.get(id)).emAnalisePor).toBe('Ana');
  });
});

describe('other actions and the audit trail', () => {
  it('records who did what, with before/after, for a whole triage', async () => {
    const model = dados({ valor_centavos: null, vencimento: null });
    const id = await insertExtraction(db.admin, { status: 'incompleto', dados: model });
    const ana = agent('Ana');
    const token = await claimed(ana, id);
    const detail = await ana.get(id);
    expect(detail.pergunta).toBe('Qual o valor da cobrança e a data de vencimento?');
    expect(await ana.askMerchant({ id, token })).toEqual({
      pergunta: 'Qual o valor da cobrança e a data de vencimento?',
    });
    const draft = { ...model, valor_centavos: 15000, faltando: [] as never[] };
    const saved = await ana.save({ id, token, dados: draft });
    expect(saved.dadosRevisados).toMatchObject({ valor_centavos: 15000, faltando: ['vencimento'] });
    expect(saved.pergunta).toBe('Qual a data de vencimento?');
    const r = await ana.recordAnswer({ id, token, resposta: 'vence dia 10' });
    expect(r.executado).toBe(false);
    if (!r.executado)
      expect(r.mensagem).toMatch(
        /A resposta foi registrada, mas a extração não foi refeita: preencha os campos à mão\./,
      );
    const done = await ana.discard({ id, token, motivo: 'outro', detalhe: '  cliente desistiu  ' });
    expect(done).toMatchObject({
      filaEstado: 'descartada',
      descarte: { motivo: 'outro', detalhe: 'cliente desistiu', por: 'Ana' },
      emAnalisePor: null,
    });
    const trail = await audit(id);
    expect(trail.map((a) => `${a.operador}:${a.acao}`)).toEqual([
      'Ana:assumiu',
      'Ana:pergunta_ao_lojista',
      'Ana:rascunho_salvo',
      'Ana:resposta_registrada',
      'Ana:descartada',
    ]);
    expect(trail[1]?.detalhes).toMatchObject({
      pergunta: 'Qual o valor da cobrança e a data de vencimento?',
    });
    expect(trail[2]).toMatchObject({
      antes: { valor_centavos: null },
      depois: { valor_centavos: 15000 },
      detalhes: { campos: ['valor_centavos', 'faltando'] },
    });
    expect(trail[3]?.detalhes).toEqual({ resposta: 'vence dia 10' });
    expect(trail[4]).toMatchObject({
      antes: { fila_estado: 'aberta' },
      depois: { fila_estado: 'descartada', motivo: 'outro', detalhe: 'cliente desistiu' },
    });
    // The item view shows the same trail.
    expect((await ana.get(id)).eventos.map((e) => e.acao)).toHaveLength(5);
  });

  it('the change and its audit entry commit together (a failing audit write undoes the action)', async () => {
    const id = await insertExtraction(db.admin);
    const ana = agent('Ana');
    const token = await claimed(ana, id);
    await whileRefusing(db.admin, 'auditoria', `NEW.acao = 'descartada'`, async () => {
      await expect(ana.discard({ id, token, motivo: 'teste' })).rejects.toMatchObject({
        code: 'interno',
        message: 'Erro inesperado no banco de dados.',
      });
    });
    const d = await ana.get(id);
    expect(d.filaEstado).toBe('aberta');
    expect(d.descarte).toBeNull();
    expect(d.emAnalisePor).toBe('Ana');
  });

  it('the app role cannot rewrite the audit log or created charges', async () => {
    await expect(db.app.query(`UPDATE auditoria SET operador = 'x'`)).rejects.toThrow(
      /permission denied/,
    );
    await expect(db.app.query(`DELETE FROM auditoria`)).rejects.toThrow(/permission denied/);
    await expect(db.app.query(`UPDATE cobrancas SET valor_centavos = 100`)).rejects.toThrow(
      /permission denied/,
    );
    await expect(db.app.query(`DELETE FROM cobrancas`)).rejects.toThrow(/permission denied/);
  });

  it('reprocess without the engine explains and keeps the item with the agent', async () => {
    const id = await insertExtraction(db.admin);
    const ana = agent('Ana', {
      rerunner: {
        unavailableReason: () => 'Nenhuma chave da API configurada.',
        run: () => Promise.reject(new Error('não deve chamar o modelo')),
      },
    });
    const token = await claimed(ana, id);
    const r = await ana.reprocess({ id, token });
    expect(r).toMatchObject({
      executado: false,
      mensagem:
        'Nenhuma chave da API configurada. A extração não foi refeita: preencha os campos à mão.',
      detalhe: { emAnalisePor: 'Ana', filaEstado: 'aberta' },
    });
  });

  it('discard requires a description for "outro"', async () => {
    const { reviewContract } = await import('../../src-shared/contract/review');
    const r = reviewContract['review/discard'].input.safeParse({
      id: 1,
      token: '00000000-0000-4000-8000-000000000000',
      motivo: 'outro',
    });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe('Descreva o motivo quando escolher "Outro motivo".');
  });
});
