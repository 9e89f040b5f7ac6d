/** Free-SQL flow pieces that need no model or database. */
import { describe, expect, it } from 'vitest';
import { formatBRL } from '@shared/money';
import { validateConsulta } from '@shared/sales-dsl';
import { describeRows, toFreeAnswer } from '../../src-main/sales/free-sql/fallback';
import { freeSqlSystemPrompt, freeSqlTool } from '../../src-main/sales/free-sql/prompt';

describe('DSL way out', () => {
  it('nao_expressavel: true is a valid, query-free outcome', () => {
    expect(validateConsulta({ nao_expressavel: true }, '2026-03-16')).toEqual({
      ok: true,
      value: { tipo: 'nao_expressavel' },
    });
    // false (or absent) keeps the normal rules.
    expect(validateConsulta({ nao_expressavel: false }, '2026-03-16').ok).toBe(false);
  });
});

describe('answer text written by code', () => {
  it('one row: every column, money columns (…_centavos) as BRL', () => {
    expect(describeRows(['total_centavos', 'vendas', 'media'], [[123456, 3, 2.5]], false)).toBe(
      `Consulta livre (confira o SQL): total centavos: ${formatBRL(123456)}; vendas: 3; media: 2,5.`,
    );
  });

  it('no rows, many rows, truncated', () => {
    expect(describeRows(['x'], [], false)).toBe(
      'Consulta livre (confira o SQL): nenhuma venda atende à consulta.',
    );
    const linhas = Array.from({ length: 500 }, (_, i) => [`2026-03-${i}`, i]);
    expect(describeRows(['dia', 'n'], linhas, true)).toBe(
      'Consulta livre (confira o SQL): 500 linhas (resultado cortado no limite; mostrando as primeiras), com as colunas dia, n.',
    );
  });
});

describe('second tool', () => {
  it('the system prompt holds only the view definition; the tool takes only sql', () => {
    const text = JSON.stringify(freeSqlSystemPrompt('America/Sao_Paulo'));
    expect(text).toContain('CREATE VIEW vendas_ia');
    for (const col of [
      'valor_bruto_centavos',
      'valor_liquido_centavos',
      'aprovada_em',
      'parcelas',
    ]) {
      expect(text).toContain(col);
    }
    expect(text).not.toMatch(/transacoes|merchant_id|balcao_/);
    const tool = freeSqlTool(true);
    expect(tool.name).toBe('escrever_sql');
    expect(Object.keys(tool.input_schema.properties ?? {})).toEqual(['sql']);
  });
});

describe('panel shape', () => {
  it('maps a free result to SalesFreeAnswer with the SQL visible', () => {
    const a = toFreeAnswer(
      {
        tipo: 'livre',
        sql: 'select 1',
        colunas: ['x'],
        linhas: [[1]],
        truncado: false,
        resposta: 'r',
      },
      { merchant: { id: 1, nome: 'Loja' }, pergunta: 'p?', startedAt: performance.now() },
    );
    expect(a).toMatchObject({
      tipo: 'livre',
      sql: 'select 1',
      colunas: ['x'],
      linhas: [[1]],
      resposta: 'r',
      truncado: false,
      pergunta: 'p?',
    });
    expect(a.duracaoMs).toBeGreaterThanOrEqual(0);
  });
});
