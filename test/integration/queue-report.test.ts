import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, localDate } from '@shared/time';
import { createTestDatabase, type TestDatabase } from '../support/db';
import {
  PIX_PARCELAS,
  USO,
  VENC_PASSADO,
  dados,
  ensureMerchants,
  insertExtraction,
  queueFor,
} from '../support/queue-fixtures';

let db: TestDatabase;
let q: ReturnType<typeof queueFor>;
beforeAll(async () => {
  db = await createTestDatabase();
  q = queueFor(db.app);
  await ensureMerchants(db.admin, { 1: 'Padaria Central', 2: 'Farmácia Boa Vista' });
  // 2026-11-10 01:30 UTC is still 2026-11-09 in São Paulo: it belongs to the 9th.
  await insertExtraction(db.admin, {
    texto: 'pix 3x pra Ana',
    erros: [PIX_PARCELAS],
    tentativas: [
      { entrada: dados(), erros: [PIX_PARCELAS] },
      { entrada: dados(), erros: [PIX_PARCELAS, VENC_PASSADO] },
      { entrada: dados(), erros: [PIX_PARCELAS] },
    ],
    criadaEm: '2026-11-10T01:30:00Z',
    custoUsd: 0.03,
  });
  await insertExtraction(db.admin, {
    texto: 'boleto ontem',
    erros: [VENC_PASSADO],
    tentativas: [
      { entrada: dados(), erros: [VENC_PASSADO] },
      { entrada: dados(), erros: [] },
    ],
    status: 'completo',
    filaEstado: 'concluida',
    criadaEm: '2026-11-10T14:00:00Z',
    custoUsd: 0.02,
  });
  await insertExtraction(db.admin, {
    status: 'incompleto',
    dados: dados({ valor_centavos: null }),
    criadaEm: '2026-11-10T15:00:00Z',
    custoUsd: 0.01,
  });
  await insertExtraction(db.admin, {
    status: 'completo',
    alertas: [{ codigo: 'valor_divergente', mensagem: 'diverge', valores_no_texto: [15000] }],
    criadaEm: '2026-11-11T15:00:00Z',
    custoUsd: 0.01,
  });
  // Outside the period.
  await insertExtraction(db.admin, { erros: [VENC_PASSADO], criadaEm: '2026-11-12T03:30:00Z' });
});
afterAll(() => db.drop());

describe('Falhas de validação report', () => {
  it('aggregates a period by local day in the configured zone', async () => {
    const r = await q.failureReport({ de: '2026-11-09', ate: '2026-11-11' });
    expect(r.total).toBe(4);
    expect(r.porStatus).toEqual({ falhou: 1, completo: 2, incompleto: 1 });
    expect(r.regras.map((x) => [x.regra, x.falhas, x.extracoes])).toEqual([
      ['parcelas_pix_boleto', 3, 1],
      ['vencimento_passado', 2, 2],
    ]);
    expect(r.regras[0]?.exemplos).toEqual([
      { extracaoId: expect.any(Number), texto: 'pix 3x pra Ana' },
    ]);
    expect(r.regras[0]?.mensagem).toBe(PIX_PARCELAS.mensagem);
    expect(r.tentativas).toEqual([
      { tentativas: 1, extracoes: 2 },
      { tentativas: 2, extracoes: 1 },
      { tentativas: 3, extracoes: 1 },
    ]);
    expect(r.mediaTentativas).toBe(1.75);
    expect(r.porDia.map((d) => [d.dia, d.extracoes, d.falhou, d.incompleto])).toEqual([
      ['2026-11-09', 1, 1, 0],
      ['2026-11-10', 2, 0, 1],
      ['2026-11-11', 1, 0, 0],
    ]);
    expect(r.porDia[0]?.inputTokens).toBe(3 * USO.input_tokens);
    expect(r.porDia[1]?.custoUsd).toBeCloseTo(0.03, 6);
    expect(r.custoTotalUsd).toBeCloseTo(0.07, 6);
    expect(r.comAlerta).toBe(1);
    expect(r.fracaoAlertas).toBe(0.25);
  });

  it('is empty, not broken, for a period without extractions; refuses a huge period', async () => {
    const r = await q.failureReport({ de: '2025-01-01', ate: '2025-01-02' });
    expect(r).toMatchObject({
      total: 0,
      regras: [],
      tentativas: [],
      fracaoAlertas: 0,
      mediaTentativas: 0,
    });
    expect(r.porDia).toHaveLength(2);
    await expect(q.failureReport({ de: '2020-01-01', ate: '2025-01-01' })).rejects.toMatchObject({
      code: 'entrada_invalida',
      message: 'Escolha um período de até 400 dias.',
    });
  });
});

describe('charges list', () => {
  it('lists created charges newest first with who, merchant and the overridden fields', async () => {
    const mk = async (valor: number, merchantId: number) => {
      const id = await insertExtraction(db.admin, {
        merchantId,
        dados: dados({ valor_centavos: 999 }),
      });
      const c = await q.claim(id);
      if (!c.claimed) throw new Error('claim');
      return q.confirm({ id, token: c.token, dados: dados({ valor_centavos: valor }) });
    };
    const a = await mk(10000, 1);
    const b = await mk(20000, 2);
    const c = await mk(30000, 1);
    const p1 = await q.charges({ limit: 2 });
    expect(p1.items.map((x) => x.id)).toEqual([c.cobranca.id, b.cobranca.id]);
    const p2 = await q.charges({ limit: 2, cursor: p1.nextCursor });
    expect(p2.items.map((x) => x.id)).toEqual([a.cobranca.id]);
    expect(p2.nextCursor).toBeNull();
    expect(p1.items[1]).toMatchObject({
      merchantNome: 'Farmácia Boa Vista',
      criadaPor: 'Ana',
      valorCentavos: 20000,
      metodo: 'cartao',
      vencimento: '2026-12-04',
      alteracoes: { valor_centavos: { modelo: 999, agente: 20000 } },
    });
    const only1 = await q.charges({ limit: 50, merchantId: 1 });
    expect(only1.items.map((x) => x.id)).toEqual([c.cobranca.id, a.cobranca.id]);

    // #13: number, free text, period and where the charge stands — filtered in SQL.
    const ids = async (f: Parameters<typeof q.charges>[0]) =>
      (await q.charges(f)).items.map((x) => x.id);
    expect(await ids({ limit: 50, numero: b.cobranca.id })).toEqual([b.cobranca.id]);
    expect(await ids({ limit: 50, search: 'boa VISTA' })).toEqual([b.cobranca.id]);
    expect(await ids({ limit: 50, search: 'ana' })).toHaveLength(3); // the agent who created them
    // Literal text: wildcards and quotes are data, not SQL.
    expect(await ids({ limit: 50, search: '%' })).toEqual([]);
    expect(await ids({ limit: 50, search: "'; DROP TABLE cobrancas; --" })).toEqual([]);
    // Due 04/12/2026, today 30/11/2026: every one is "a vencer".
    expect((await q.charges({ limit: 50 })).items.map((x) => x.situacao)).toEqual([
      'a_vencer',
      'a_vencer',
      'a_vencer',
    ]);
    expect(await ids({ limit: 50, situacao: 'vencida' })).toEqual([]);
    expect(await ids({ limit: 50, situacao: 'a_vencer', merchantId: 2 })).toEqual([b.cobranca.id]);
    const day = localDate(new Date(c.cobranca.criadaEm), 'America/Sao_Paulo');
    expect(await ids({ limit: 50, de: day, ate: day })).toHaveLength(3);
    expect(await ids({ limit: 50, de: addDays(day, -3), ate: addDays(day, -1) })).toEqual([]);
    // Filters and pages together: the cursor keeps the filter's order.
    const f1 = await q.charges({ limit: 1, merchantId: 1, de: day, ate: day });
    const f2 = await q.charges({
      limit: 1,
      merchantId: 1,
      de: day,
      ate: day,
      cursor: f1.nextCursor,
    });
    expect([...f1.items, ...f2.items].map((x) => x.id)).toEqual([c.cobranca.id, a.cobranca.id]);
  });
});
