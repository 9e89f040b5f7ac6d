import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueueSort } from '../../src-shared/contract/review';
import { createTestDatabase, type TestDatabase } from '../support/db';
import {
  PIX_PARCELAS,
  VENC_PASSADO,
  dados,
  ensureMerchants,
  insertExtraction,
  queueFor,
} from '../support/queue-fixtures';

let db: TestDatabase;
let q: ReturnType<typeof queueFor>;
const ids = { pixOld: 0, vencRecent: 0, incompleto: 0, alerta: 0, concluida: 0 };

beforeAll(async () => {
  db = await createTestDatabase();
  q = queueFor(db.app);
  await ensureMerchants(db.admin, { 1: 'Padaria Central', 2: 'Farmácia Boa Vista' });
  // 60 rows sharing 6 distinct instants, some of them differing only in microseconds:
  // keyset pages must neither repeat nor skip rows.
  // A day before the test runs (the age filters compare with the database's now(): a fixed date
  // here made "older than 48 h" match these rows once the calendar passed 2026-12-01 12:00 UTC).
  const base = Math.floor((Date.now() - 24 * 3600_000) / 1000) * 1000;
  const rows = [];
  for (let i = 0; i < 60; i++) {
    const t = new Date(base + (i % 6) * 1000).toISOString().replace('Z', '');
    rows.push(
      `(${(i % 2) + 1}, 'pedido em lote ${i}', 'falhou', '[{"campo":"parcelas","regra":"parcelas_pix_boleto","mensagem":"x"}]', ${1 + (i % 3)}, '${t}${String(i % 4).padStart(3, '0')}Z')`,
    );
  }
  await db.admin.query(
    `INSERT INTO extracoes (merchant_id, texto, status, erros, tentativas, criada_em) VALUES ${rows.join(',')}`,
  );
  ids.pixOld = await insertExtraction(db.admin, {
    merchantId: 2,
    texto: 'pix de 100% do valor pra Ana_Costa em 3x',
    erros: [PIX_PARCELAS],
    criadaEm: new Date(Date.now() - 50 * 3600_000).toISOString(),
  });
  ids.vencRecent = await insertExtraction(db.admin, {
    texto: 'boleto vence ontem pro Carlos',
    erros: [VENC_PASSADO],
    criadaEm: new Date(Date.now() - 10 * 60_000).toISOString(),
  });
  ids.incompleto = await insertExtraction(db.admin, {
    status: 'incompleto',
    texto: 'cobra a Fernanda no cartão',
    dados: dados({ valor_centavos: null, vencimento: null }),
  });
  ids.alerta = await insertExtraction(db.admin, {
    status: 'completo',
    texto: 'pix de 150 reais pro Lucas',
    alertas: [
      {
        codigo: 'valor_divergente',
        mensagem: 'O valor extraído não bate.',
        valores_no_texto: [15000],
      },
    ],
  });
  ids.concluida = await insertExtraction(db.admin, { status: 'completo', filaEstado: 'concluida' });
});
afterAll(() => db.drop());

async function all(sort: QueueSort, extra: Record<string, unknown> = {}) {
  const seen: number[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page = await q.list({ limit: 7, view: 'aberta', sort, cursor, ...extra });
    seen.push(...page.items.map((x) => x.id));
    cursor = page.nextCursor;
    pages++;
  } while (cursor && pages < 100);
  return seen;
}

describe('queue list', () => {
  it.each(['recentes', 'antigas', 'tentativas'] as const)(
    'keyset pages in %s order cover every open item exactly once, in order',
    async (sort) => {
      const seen = await all(sort);
      expect(seen).toHaveLength(64);
      expect(new Set(seen).size).toBe(64);
      expect(seen).not.toContain(ids.concluida);
      const one = await q.list({ limit: 200, view: 'aberta', sort });
      expect(one.items.map((x) => x.id)).toEqual(seen);
      if (sort === 'tentativas') {
        const t = one.items.map((x) => x.tentativas);
        expect(t).toEqual([...t].sort((a, b) => b - a));
      } else {
        const at = one.items.map((x) => x.criadaEm);
        const sorted = [...at].sort();
        expect(at).toEqual(sort === 'antigas' ? sorted : sorted.reverse());
      }
    },
  );

  it('refuses a cursor from another sort or a forged one, in pt-BR', async () => {
    const page = await q.list({ limit: 5, view: 'aberta', sort: 'recentes' });
    await expect(
      q.list({ limit: 5, view: 'aberta', sort: 'tentativas', cursor: page.nextCursor }),
    ).rejects.toMatchObject({
      code: 'entrada_invalida',
      message: 'Cursor de paginação inválido. Recarregue a lista.',
    });
    await expect(
      q.list({ limit: 5, view: 'aberta', sort: 'recentes', cursor: "'; DROP TABLE extracoes; --" }),
    ).rejects.toMatchObject({ code: 'entrada_invalida' });
  });

  it('filters by status, merchant, reason, age and text, with counts per status', async () => {
    const base = { limit: 200, view: 'aberta' as const, sort: 'recentes' as const };
    const inc = await q.list({ ...base, status: ['incompleto'] });
    expect(inc.items.map((x) => x.id)).toEqual([ids.incompleto]);
    expect(inc.items[0]?.motivo).toBe('Faltando: valor, vencimento');
    // Counts ignore the status filter (they are the tabs at the top).
    // Per situation (migration 0800): the complete item has an amount alert.
    expect(inc.counts).toEqual({
      falhou: 62,
      incompleto: 1,
      com_alerta: 1,
      completo: 0,
      aguardando_lojista: 0,
    });
    // Later pages skip the counts (the tabs keep the first page's).
    const next = await q.list({ ...base, limit: 5 });
    expect((await q.list({ ...base, limit: 5, cursor: next.nextCursor })).counts).toBeNull();

    const m2 = await q.list({ ...base, merchantId: 2 });
    expect(m2.items.every((x) => x.merchantNome === 'Farmácia Boa Vista')).toBe(true);
    expect(m2.counts?.falhou).toBe(31);

    const venc = await q.list({ ...base, motivo: 'vencimento_passado' });
    expect(venc.items.map((x) => x.id)).toEqual([ids.vencRecent]);
    expect(venc.items[0]?.motivo).toBe(VENC_PASSADO.mensagem);
    const alert = await q.list({ ...base, motivo: 'valor_divergente' });
    expect(alert.items.map((x) => x.id)).toEqual([ids.alerta]);

    const old = await q.list({ ...base, idadeMinHoras: 48 });
    expect(old.items.map((x) => x.id)).toEqual([ids.pixOld]);
    const fresh = await q.list({ ...base, idadeMaxHoras: 1 });
    expect(new Set(fresh.items.map((x) => x.id))).toEqual(
      new Set([ids.vencRecent, ids.incompleto, ids.alerta]),
    );

    // Search is literal: % and _ are not wildcards.
    expect((await q.list({ ...base, search: '100%' })).items.map((x) => x.id)).toEqual([
      ids.pixOld,
    ]);
    expect((await q.list({ ...base, search: 'ana_costa' })).items.map((x) => x.id)).toEqual([
      ids.pixOld,
    ]);
    expect((await q.list({ ...base, search: 'em lote 1' })).items).toHaveLength(11);
    expect((await q.list({ ...base, search: 'nada disso' })).items).toEqual([]);
  });

  it('offers the merchants and reasons present as filter options', async () => {
    const o = await q.filterOptions({ view: 'aberta' });
    expect(o.merchants.map((m) => m.nome)).toEqual(['Padaria Central', 'Farmácia Boa Vista']);
    expect(o.motivos[0]).toEqual({
      codigo: 'parcelas_pix_boleto',
      rotulo: 'Pix ou boleto com mais de 1 parcela',
      abertas: 61,
    });
    expect(o.motivos.map((m) => m.codigo)).toEqual(
      expect.arrayContaining(['vencimento_passado', 'faltando', 'valor_divergente']),
    );
    expect(o.motivos.find((m) => m.codigo === 'faltando')?.rotulo).toBe('Informações faltando');
  });

  it('shows the attempt timeline with what changed, tokens and cost', async () => {
    const model = dados({ metodo: 'pix', parcelas: 3 });
    const id = await insertExtraction(db.admin, {
      dados: model,
      erros: [PIX_PARCELAS],
      tentativas: [
        { entrada: model, erros: [PIX_PARCELAS] },
        { entrada: { ...model, parcelas: 2, descricao: 'Parcelado' }, erros: [PIX_PARCELAS] },
      ],
    });
    const d = await q.get(id);
    expect(d.tentativasDetalhe).toHaveLength(2);
    expect(d.tentativasDetalhe[0]).toMatchObject({
      numero: 1,
      erros: [PIX_PARCELAS],
      mudancas: [],
    });
    expect(d.tentativasDetalhe[1]?.mudancas).toEqual([
      { campo: 'parcelas', antes: 3, depois: 2 },
      { campo: 'descricao', antes: null, depois: 'Parcelado' },
    ]);
    // (1500 in × $3 + 100 out × $15 + 1400 cache write × $3.75) per million tokens.
    expect(d.tentativasDetalhe[0]?.custoUsd).toBeCloseTo(0.01125, 8);
    expect(d.tentativasDetalhe[0]?.uso.input_tokens).toBe(1500);
  });
});
