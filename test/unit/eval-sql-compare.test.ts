import { describe, expect, it } from 'vitest';
import { canonical, compareResults } from '../../src-main/evals/sql-compare';

describe('canonical cells', () => {
  it('treats numbers and numeric strings by value, timestamps by instant', () => {
    expect(canonical(150)).toBe(canonical('150.00'));
    expect(canonical('0150.500')).toBe('150.5');
    expect(canonical('-0.0')).toBe('0');
    expect(canonical('12345678901234567.89')).toBe('12345678901234567.89');
    expect(canonical('2026-03-01T12:00:00-03:00')).toBe(canonical('2026-03-01T15:00:00+00:00'));
    expect(canonical('2026-03-01')).not.toBe(canonical('2026-03-02'));
    expect(canonical(null)).not.toBe(canonical('null'));
    expect(canonical(true)).not.toBe(canonical('true'));
  });
});

describe('compareResults: by rows and values, not by SQL text or names', () => {
  const ref = {
    colunas: ['parcelas', 'quantidade'],
    linhas: [
      [1, 10],
      [3, 4],
      [6, 2],
    ],
  };

  it('equal: other column names, other column order, other row order', () => {
    const got = {
      colunas: ['vendas', 'numero_de_parcelas'],
      linhas: [
        ['2', '6'],
        ['10', '1'],
        ['4', '3'],
      ],
    };
    expect(compareResults(ref, got)).toEqual({ igual: true });
  });

  it('different: one value off (an off-by-one date range counts one sale more)', () => {
    const got = {
      colunas: ['parcelas', 'quantidade'],
      linhas: [
        [1, 11],
        [3, 4],
        [6, 2],
      ],
    };
    const r = compareResults(ref, got);
    expect(r.igual).toBe(false);
    expect(r.motivo).toContain('referência (1, 10), obtido (1, 11)');
  });

  it('different: a missing or an extra row, or an extra column', () => {
    expect(compareResults(ref, { ...ref, linhas: ref.linhas.slice(1) })).toMatchObject({
      igual: false,
      motivo: '2 linha(s) no resultado, 3 na referência.',
    });
    expect(
      compareResults(ref, {
        colunas: ['a', 'b', 'c'],
        linhas: ref.linhas.map((l) => [...l, 0]),
      }),
    ).toMatchObject({ igual: false, motivo: '3 coluna(s) no resultado, 2 na referência.' });
  });

  it('ordered questions: the same rows in another order are different', () => {
    const top = { colunas: ['valor'], linhas: [[900], [800], [700]] };
    const shuffled = { colunas: ['valor'], linhas: [[800], [900], [700]] };
    expect(compareResults(top, shuffled).igual).toBe(true);
    expect(compareResults(top, shuffled, { ordenado: true }).igual).toBe(false);
    expect(compareResults(top, top, { ordenado: true }).igual).toBe(true);
  });

  it('float rounding in non-integers is tolerated; integers and text must match exactly', () => {
    const a = { colunas: ['m'], linhas: [[0.1 + 0.2]] };
    expect(compareResults(a, { colunas: ['x'], linhas: [['0.3']] }).igual).toBe(true);
    expect(compareResults(a, { colunas: ['x'], linhas: [['0.31']] }).igual).toBe(false);
    expect(
      compareResults(
        { colunas: ['n'], linhas: [['9007199254740993']] },
        { colunas: ['n'], linhas: [['9007199254740992']] },
      ).igual,
    ).toBe(false);
    expect(
      compareResults({ colunas: ['b'], linhas: [['visa']] }, { colunas: ['b'], linhas: [['Visa']] })
        .igual,
    ).toBe(false);
  });

  it('a value moved to another row is different even when each column holds the same values', () => {
    const got = {
      colunas: ['parcelas', 'quantidade'],
      linhas: [
        [1, 4],
        [3, 10],
        [6, 2],
      ],
    };
    expect(compareResults(ref, got).igual).toBe(false);
  });
});
