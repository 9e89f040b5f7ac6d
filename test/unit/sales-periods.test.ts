import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_PERIOD_DAYS,
  PERIODOS,
  datesInRange,
  monthsInRange,
  periodLength,
  resolvePeriod,
  type Periodo,
} from '@shared/periods';

// An independent calendar (JS Date in UTC), not the helpers the code uses.
const toDate = (iso: string) => new Date(`${iso}T00:00:00Z`);
const toIso = (d: Date) => d.toISOString().slice(0, 10);
const plus = (iso: string, n: number) => {
  const d = toDate(iso);
  d.setUTCDate(d.getUTCDate() + n);
  return toIso(d);
};
/** 0 = Monday … 6 = Sunday. */
const weekdayIndex = (iso: string) => (toDate(iso).getUTCDay() + 6) % 7;
const lastDayOfMonth = (y: number, m: number) => toIso(new Date(Date.UTC(y, m, 0)));

function oracle(p: Periodo, hoje: string): [string, string] {
  const y = Number(hoje.slice(0, 4));
  const m = Number(hoje.slice(5, 7));
  const monday = plus(hoje, -weekdayIndex(hoje));
  switch (p) {
    case 'hoje':
      return [hoje, hoje];
    case 'ontem':
      return [plus(hoje, -1), plus(hoje, -1)];
    case 'esta_semana':
      return [monday, hoje];
    case 'semana_passada':
      return [plus(monday, -7), plus(monday, -1)];
    case 'este_mes':
      return [`${hoje.slice(0, 7)}-01`, hoje];
    case 'mes_passado': {
      const py = m === 1 ? y - 1 : y;
      const pm = m === 1 ? 12 : m - 1;
      const first = `${py}-${String(pm).padStart(2, '0')}-01`;
      return [first, lastDayOfMonth(py, pm)];
    }
    case 'ultimos_7_dias':
      return [plus(hoje, -6), hoje];
    case 'ultimos_30_dias':
      return [plus(hoje, -29), hoje];
    case 'este_ano':
      return [`${y}-01-01`, hoje];
    case 'ano_passado':
      return [`${y - 1}-01-01`, `${y - 1}-12-31`];
  }
}

const range = (p: Periodo, hoje: string) => {
  const r = resolvePeriod(p, hoje);
  return [r.data_inicio, r.data_fim];
};

describe('period presets, hand-checked calendar cases', () => {
  it('resolves "semana passada" on a Monday to the full previous Monday–Sunday', () => {
    // 2026-03-16 is a Monday.
    expect(range('semana_passada', '2026-03-16')).toEqual(['2026-03-09', '2026-03-15']);
    expect(range('esta_semana', '2026-03-16')).toEqual(['2026-03-16', '2026-03-16']);
    expect(range('ontem', '2026-03-16')).toEqual(['2026-03-15', '2026-03-15']);
  });

  it('handles every weekday of one week the same way for weeks', () => {
    const week = [
      '2026-03-16',
      '2026-03-17',
      '2026-03-18',
      '2026-03-19',
      '2026-03-20',
      '2026-03-21',
      '2026-03-22',
    ];
    for (const hoje of week) {
      expect(range('semana_passada', hoje), hoje).toEqual(['2026-03-09', '2026-03-15']);
      expect(range('esta_semana', hoje), hoje).toEqual(['2026-03-16', hoje]);
    }
    // Sunday closes the week: the next Monday starts a new one.
    expect(range('semana_passada', '2026-03-23')).toEqual(['2026-03-16', '2026-03-22']);
  });

  it('crosses month and year ends', () => {
    // 2026-01-01 is a Thursday.
    expect(range('mes_passado', '2026-01-01')).toEqual(['2025-12-01', '2025-12-31']);
    expect(range('ano_passado', '2026-01-01')).toEqual(['2025-01-01', '2025-12-31']);
    expect(range('este_ano', '2026-01-01')).toEqual(['2026-01-01', '2026-01-01']);
    expect(range('semana_passada', '2026-01-01')).toEqual(['2025-12-22', '2025-12-28']);
    expect(range('esta_semana', '2026-01-01')).toEqual(['2025-12-29', '2026-01-01']);
    expect(range('ultimos_7_dias', '2026-01-01')).toEqual(['2025-12-26', '2026-01-01']);
    expect(range('ontem', '2026-01-01')).toEqual(['2025-12-31', '2025-12-31']);
    expect(range('este_mes', '2026-01-01')).toEqual(['2026-01-01', '2026-01-01']);
    // Leap year February.
    expect(range('mes_passado', '2024-03-01')).toEqual(['2024-02-01', '2024-02-29']);
    expect(range('ultimos_30_dias', '2024-03-01')).toEqual(['2024-02-01', '2024-03-01']);
    expect(range('mes_passado', '2026-03-31')).toEqual(['2026-02-01', '2026-02-28']);
    expect(range('ontem', '2026-03-01')).toEqual(['2026-02-28', '2026-02-28']);
  });

  it('counts "últimos 7/30 dias" with today included', () => {
    expect(periodLength(resolvePeriod('ultimos_7_dias', '2026-03-16'))).toBe(7);
    expect(periodLength(resolvePeriod('ultimos_30_dias', '2026-03-16'))).toBe(30);
    expect(range('ultimos_7_dias', '2026-03-16')).toEqual(['2026-03-10', '2026-03-16']);
  });

  it('rejects an unreal reference date', () => {
    expect(() => resolvePeriod('hoje', '2026-02-30')).toThrow();
  });
});

describe('period presets, any date (property)', () => {
  const dates = fc
    .date({ min: new Date('1999-01-01T00:00:00Z'), max: new Date('2101-12-31T00:00:00Z') })
    .filter((d) => !Number.isNaN(d.getTime()))
    .map(toIso);

  it('match an independent calendar for every preset, never exceed 366 days', () => {
    fc.assert(
      fc.property(dates, fc.constantFrom(...PERIODOS), (hoje, p) => {
        const got = range(p, hoje);
        expect(got).toEqual(oracle(p, hoje));
        const len = periodLength({ data_inicio: got[0]!, data_fim: got[1]! });
        expect(len).toBeGreaterThanOrEqual(1);
        expect(len).toBeLessThanOrEqual(MAX_PERIOD_DAYS);
        // Nothing in the future; weeks are Monday-based.
        expect(got[1]! <= hoje).toBe(true);
        if (p === 'semana_passada') {
          expect(weekdayIndex(got[0]!)).toBe(0);
          expect(weekdayIndex(got[1]!)).toBe(6);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe('range helpers', () => {
  it('lists days and months of a range', () => {
    expect(datesInRange({ data_inicio: '2025-12-30', data_fim: '2026-01-02' })).toEqual([
      '2025-12-30',
      '2025-12-31',
      '2026-01-01',
      '2026-01-02',
    ]);
    expect(monthsInRange({ data_inicio: '2025-11-15', data_fim: '2026-02-01' })).toEqual([
      '2025-11',
      '2025-12',
      '2026-01',
      '2026-02',
    ]);
  });

  it('lists the months of any range: the distinct months of its days', () => {
    const day = fc
      .date({ min: new Date('1999-01-01T00:00:00Z'), max: new Date('2101-12-31T00:00:00Z') })
      .filter((d) => !Number.isNaN(d.getTime()))
      .map(toIso);
    fc.assert(
      fc.property(day, fc.integer({ min: 0, max: 800 }), (inicio, n) => {
        const r = { data_inicio: inicio, data_fim: plus(inicio, n) };
        expect(monthsInRange(r)).toEqual([...new Set(datesInRange(r).map((d) => d.slice(0, 7)))]);
      }),
      { numRuns: 500 },
    );
  });
});
