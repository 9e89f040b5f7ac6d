import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  daysBetween,
  firstOfMonth,
  isIsoDate,
  isoWeekday,
  localDate,
  weekdayName,
} from '../../src-shared/time';

// luxon is the oracle: the calendar helpers do the same arithmetic without a DateTime per call.
const ZONES = ['America/Sao_Paulo', 'America/Noronha', 'America/Manaus', 'UTC', 'Asia/Tokyo'];

function* instants(): Generator<Date> {
  let seed = 20261202;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < 3000; i++) {
    yield new Date(Date.UTC(2000, 0, 1) + Math.floor(next() * 100 * 365.25 * 86_400_000));
  }
  // Around the last São Paulo DST changes and midnight.
  for (const s of [
    '2018-11-04T02:59:59Z',
    '2018-11-04T03:00:00Z',
    '2019-02-17T01:59:59Z',
    '2019-02-17T02:00:00Z',
    '2026-12-02T02:59:59.999Z',
    '2026-12-02T03:00:00Z',
  ]) {
    yield new Date(s);
  }
}

describe('calendar dates (src-shared/time)', () => {
  it('localDate equals luxon in every zone, across DST changes and local midnight', () => {
    for (const t of instants()) {
      for (const z of ZONES) {
        expect(localDate(t, z)).toBe(DateTime.fromJSDate(t, { zone: z }).toISODate());
      }
    }
    expect(localDate(new Date('2026-12-02T02:59:59Z'), 'America/Sao_Paulo')).toBe('2026-12-01');
    expect(localDate(new Date(NaN), 'America/Sao_Paulo')).toBe('');
    expect(localDate(new Date(), 'Nao/Existe')).toBe('');
  });

  it('isIsoDate, addDays, daysBetween and weekdays equal luxon; invalid dates are refused', () => {
    for (const t of instants()) {
      const d = DateTime.fromJSDate(t, { zone: 'UTC' });
      const iso = d.toISODate()!;
      expect(isIsoDate(iso)).toBe(true);
      const k = Math.floor((t.getTime() / 1000) % 800) - 400;
      expect(addDays(iso, k)).toBe(d.plus({ days: k }).toISODate());
      expect(daysBetween(iso, addDays(iso, k))).toBe(k);
      expect(isoWeekday(iso)).toBe(d.weekday);
    }
    for (const bad of [
      '2026-02-29',
      '2026-13-01',
      '2026-00-10',
      '2026-04-31',
      '0099-01-01x',
      '26-01-01',
      '',
    ]) {
      expect(isIsoDate(bad)).toBe(false);
    }
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isIsoDate('0099-01-01')).toBe(true);
    expect(addDays('2026-02-30', 1)).toBe('');
    expect(weekdayName('2026-12-02')).toBe('quarta-feira');
    expect(weekdayName('2026-12-06')).toBe('domingo');
  });

  it('firstOfMonth equals luxon, any number of months either way; invalid input gives ""', () => {
    for (const t of instants()) {
      const d = DateTime.fromJSDate(t, { zone: 'UTC' });
      const k = Math.floor((t.getTime() / 1000) % 60) - 30;
      const want = d.startOf('month').plus({ months: k }).toISODate();
      expect(firstOfMonth(d.toISODate()!, k)).toBe(want);
      expect(firstOfMonth(d.toISODate()!.slice(0, 7), k)).toBe(want);
    }
    expect(firstOfMonth('2026-12-04', 1)).toBe('2027-01-01');
    expect(firstOfMonth('2026-01-31', -1)).toBe('2025-12-01');
    expect(firstOfMonth('', 1)).toBe('');
    expect(firstOfMonth('2026-12-04', 0.5)).toBe('');
    expect(firstOfMonth('0000-01-01', -1)).toBe('');
  });
});
