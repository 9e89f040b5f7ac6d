import { describe, expect, it } from 'vitest';
import { evenTicks, moneyTick, usdTick } from '../../src-renderer/charts';
import { monthTick } from '../../src-renderer/format';
import { timeZonePlace } from '@shared/choices';

const plain = (s: string) => s.replace(/\u00a0/g, ' ');

describe('chart formatting', () => {
  it('money ticks are round reais at an even step (never 6,5 / 19,5 mil)', () => {
    const t = evenTicks(2_345_678, { money: true }); // R$ 23.456,78
    const steps = t.slice(1).map((v, i) => v - t[i]!);
    expect(new Set(steps).size).toBe(1);
    expect(t[0]).toBe(0);
    expect(t.at(-1)!).toBeGreaterThanOrEqual(2_345_678);
    expect(t.map((v) => plain(moneyTick(v)))).toEqual([
      'R$ 0',
      'R$ 5 mil',
      'R$ 10 mil',
      'R$ 15 mil',
      'R$ 20 mil',
      'R$ 25 mil',
    ]);
    expect(plain(moneyTick(60_000))).toBe('R$ 600');
    expect(evenTicks(0, { money: true })).toEqual([0, 100]);
    expect(evenTicks(7)).toEqual([0, 2, 4, 6, 8]);
    expect(evenTicks(19)).toEqual([0, 5, 10, 15, 20]);
  });

  it('US$ with a decimal comma; months as "jan/2026"; zones by place', () => {
    expect(usdTick(0.1)).toBe('US$ 0,10');
    expect(monthTick('2026-01')).toBe('jan/2026');
    expect(monthTick('2025-12')).toBe('dez/2025');
    expect(timeZonePlace('America/Sao_Paulo')).toBe('Brasília');
    expect(timeZonePlace('America/Manaus')).toBe('Manaus');
    expect(timeZonePlace('Europe/Lisbon')).toBe('Europe/Lisbon');
  });
});
