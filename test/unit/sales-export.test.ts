import { describe, expect, it } from 'vitest';
import type { SalesAnswer, SalesFreeAnswer } from '@shared/contract/sales';
import type { ConsultaVendas } from '@shared/sales-dsl';
import { answerCsv, csvFileName, freeCsv } from '../../src-renderer/sales/export';

const merchant = { id: 7, nome: 'Padaria' };
function answer(q: Partial<ConsultaVendas>, linhas: SalesAnswer['linhas'], total: number | null) {
  const consulta: ConsultaVendas = {
    metrica: 'total_bruto',
    agrupar_por: 'nenhum',
    periodo: null,
    data_inicio: '2026-03-01',
    data_fim: '2026-03-31',
    modalidades: [],
    ordem: null,
    limite: null,
    ...q,
  };
  const a: SalesAnswer = {
    tipo: 'resposta',
    origem: 'consulta',
    pergunta: null,
    merchant,
    consulta,
    linhas,
    total,
    interpretacao: '',
    resposta: '',
    partes: { titulo: null, itens: [], maisItens: 0, frases: [] },
    duracaoMs: 1,
  };
  return a;
}

describe('answerCsv', () => {
  it('one number: the period and the value', () => {
    const a = answer({}, [{ grupo: null, valor: 123_456 }], null);
    expect(answerCsv(a, 'pt-BR')).toBe(
      '\uFEFFLojista;Período;Total bruto (R$)\r\nPadaria (#7);2026-03-01 a 2026-03-31;1234,56\r\n',
    );
    expect(csvFileName(a)).toBe('vendas-lojista-7-total_bruto-2026-03-01-a-2026-03-31.csv');
  });

  it('by modality: readable labels, the totals row; counts stay integers', () => {
    const a = answer(
      { agrupar_por: 'modalidade', metrica: 'quantidade' },
      [
        { grupo: 'credito_parcelado', valor: 3 },
        { grupo: 'pix', valor: 2 },
      ],
      5,
    );
    expect(answerCsv(a, 'padrao')).toBe(
      'Lojista,Modalidade,Quantidade de vendas\r\nPadaria (#7),crédito parcelado,3\r\nPadaria (#7),Pix,2\r\nPadaria (#7),Total do período,5\r\n',
    );
  });

  it('by month and brand: month codes stay sortable; a Pix sale has no brand', () => {
    const m = answer(
      { agrupar_por: 'mes', data_inicio: '2026-01-01' },
      [
        { grupo: '2026-01', valor: 100 },
        { grupo: '2026-02', valor: 0 },
      ],
      100,
    );
    expect(answerCsv(m, 'padrao').split('\r\n')[1]).toBe('Padaria (#7),2026-01,1.00');
    const b = answer({ agrupar_por: 'bandeira' }, [{ grupo: null, valor: 990 }], 990);
    expect(answerCsv(b, 'pt-BR').split('\r\n')[1]).toBe('Padaria (#7);sem bandeira (Pix);9,90');
  });

  it('an average with an empty group leaves the cell blank', () => {
    const a = answer(
      { agrupar_por: 'dia', metrica: 'ticket_medio', data_fim: '2026-03-02' },
      [
        { grupo: '2026-03-01', valor: null },
        { grupo: '2026-03-02', valor: 2_500 },
      ],
      2_500,
    );
    expect(answerCsv(a, 'pt-BR')).toBe(
      '\uFEFFLojista;Dia;Ticket médio (R$)\r\nPadaria (#7);01/03/2026;\r\nPadaria (#7);02/03/2026;25,00\r\nPadaria (#7);Total do período;25,00\r\n',
    );
  });
});

describe('freeCsv', () => {
  it('rows as they came, in the column order of the query', () => {
    const a: SalesFreeAnswer = {
      tipo: 'livre',
      pergunta: 'p',
      merchant,
      sql: 'SELECT 1',
      colunas: ['bandeira', 'n', 'media'],
      linhas: [
        ['visa', 3, 12.5],
        [null, 1, 7],
      ],
      resposta: '',
      truncado: false,
      duracaoMs: 1,
    };
    expect(freeCsv(a, 'pt-BR')).toBe('\uFEFFbandeira;n;media\r\nvisa;3;12,5\r\n;1;7\r\n');
    expect(csvFileName(a)).toBe('vendas-lojista-7-consulta-livre.csv');
  });

  it('keeps repeated names, __proto__ and exact big numbers (positional rows)', () => {
    const a: SalesFreeAnswer = {
      tipo: 'livre',
      pergunta: 'p',
      merchant,
      sql: 'SELECT 1',
      colunas: ['__proto__', 'a', 'a_2', 'a', 'grande'],
      linhas: [[7, 1, 2, 3, '12345678901234567.89']],
      resposta: '',
      truncado: false,
      duracaoMs: 1,
    };
    expect(freeCsv(a, 'pt-BR')).toBe(
      '\uFEFF__proto__;a;a_2;a;grande\r\n7;1;2;3;12345678901234567,89\r\n',
    );
    expect(freeCsv(a, 'padrao')).toContain('7,1,2,3,12345678901234567.89');
  });
});
