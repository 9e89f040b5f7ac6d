import { describe, expect, it } from 'vitest';
import {
  bestGroupIndex,
  chartKindFor,
  chartOrder,
  shares,
} from '../../src-renderer/sales/chart-kind';

const rows = (...v: (number | null)[]) => v.map((valor, i) => ({ grupo: String(i), valor }));

describe('chartKindFor', () => {
  it('bars for time-like groupings, whatever the metric', () => {
    for (const g of ['dia', 'mes', 'dia_da_semana', 'hora'] as const) {
      expect(chartKindFor(g, 'total_bruto', rows(1, 2))).toEqual({ tipo: 'barras', eixo: g });
      expect(chartKindFor(g, 'ticket_medio', rows(1, null))).toEqual({ tipo: 'barras', eixo: g });
    }
  });

  it('share of the whole for modality and brand when the metric adds up', () => {
    expect(chartKindFor('modalidade', 'total_bruto', rows(10, 30))).toEqual({
      tipo: 'participacao',
      eixo: 'modalidade',
    });
    expect(chartKindFor('bandeira', 'quantidade', rows(1, 2, 3))).toEqual({
      tipo: 'participacao',
      eixo: 'bandeira',
    });
  });

  it('bars, not shares, for averages, a single category or nothing sold', () => {
    expect(chartKindFor('modalidade', 'ticket_medio', rows(10, 30)).tipo).toBe('barras');
    expect(chartKindFor('bandeira', 'total_liquido', rows(10)).tipo).toBe('barras');
    expect(chartKindFor('modalidade', 'total_bruto', rows(0, 0)).tipo).toBe('barras');
  });

  it('no chart without grouping or rows', () => {
    expect(chartKindFor('nenhum', 'total_bruto', rows(10))).toEqual({ tipo: 'nenhum' });
    expect(chartKindFor('dia', 'total_bruto', [])).toEqual({ tipo: 'nenhum' });
  });
});

describe('bestGroupIndex', () => {
  it('the highest value, first on ties, ignoring empty groups', () => {
    expect(bestGroupIndex('dia', rows(5, 9, 9, 1))).toBe(1);
    expect(bestGroupIndex('modalidade', rows(null, 3, null))).toBe(1);
  });
  it('nothing to highlight without grouping, with one group, or nothing sold', () => {
    expect(bestGroupIndex('nenhum', rows(5, 9))).toBeNull();
    expect(bestGroupIndex('dia', rows(5))).toBeNull();
    expect(bestGroupIndex('dia', rows(0, 0, null))).toBeNull();
  });
});

describe('shares', () => {
  it('fractions of the total; null for empty groups or a zero total', () => {
    expect(shares(rows(1, 3, null))).toEqual([0.25, 0.75, null]);
    expect(shares(rows(0, 0))).toEqual([null, null]);
  });
});

describe('chartOrder', () => {
  it('time-like groups in time order, whatever the answer order', () => {
    const wd = ['domingo', 'segunda', 'sexta'].map((grupo, i) => ({ grupo, valor: 10 - i }));
    expect(chartOrder('dia_da_semana', wd).map((r) => r.grupo)).toEqual([
      'segunda',
      'sexta',
      'domingo',
    ]);
    const h = ['14', '09', '23', '00'].map((grupo) => ({ grupo, valor: 1 }));
    expect(chartOrder('hora', h).map((r) => r.grupo)).toEqual(['00', '09', '14', '23']);
    const d = ['2026-03-10', '2026-02-28'].map((grupo) => ({ grupo, valor: 1 }));
    expect(chartOrder('dia', d).map((r) => r.grupo)).toEqual(['2026-02-28', '2026-03-10']);
  });
  it('categories keep the answer order (biggest first)', () => {
    const m = ['pix', 'debito'].map((grupo) => ({ grupo, valor: 1 }));
    expect(chartOrder('modalidade', m).map((r) => r.grupo)).toEqual(['pix', 'debito']);
  });
});
