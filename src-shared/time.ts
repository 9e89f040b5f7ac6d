import { DateTime } from 'luxon';

/** Default business time zone. Every date decision goes through a zone and one clock. */
export const DEFAULT_TIME_ZONE = 'America/Sao_Paulo';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** True when s is a real calendar date in YYYY-MM-DD form. */
export function isIsoDate(s: string): boolean {
  return ISO_DATE.test(s) && DateTime.fromISO(s, { zone: 'UTC' }).isValid;
}

/** The local calendar date (YYYY-MM-DD) of an instant in a zone. */
export function localDate(instant: Date, zone: string): string {
  return DateTime.fromJSDate(instant, { zone }).toISODate() ?? '';
}

/** The instant a local day starts in a zone (handles DST gaps). */
export function startOfLocalDay(isoDate: string, zone: string): Date {
  return DateTime.fromISO(isoDate, { zone }).startOf('day').toJSDate();
}

/** Adds whole days to a YYYY-MM-DD date. */
export function addDays(isoDate: string, days: number): string {
  return DateTime.fromISO(isoDate, { zone: 'UTC' }).plus({ days }).toISODate() ?? '';
}

/** Whole days from a to b (b - a). */
export function daysBetween(a: string, b: string): number {
  return Math.round(
    DateTime.fromISO(b, { zone: 'UTC' }).diff(DateTime.fromISO(a, { zone: 'UTC' }), 'days').days,
  );
}

const WEEKDAYS = [
  'segunda-feira',
  'terça-feira',
  'quarta-feira',
  'quinta-feira',
  'sexta-feira',
  'sábado',
  'domingo',
] as const;

/** pt-BR weekday name of a YYYY-MM-DD date ("segunda-feira"). */
export function weekdayName(isoDate: string): string {
  const wd = DateTime.fromISO(isoDate, { zone: 'UTC' }).weekday; // 1 = Monday
  return WEEKDAYS[wd - 1] ?? '';
}

/** 1 = Monday … 7 = Sunday. */
export function isoWeekday(isoDate: string): number {
  return DateTime.fromISO(isoDate, { zone: 'UTC' }).weekday;
}

/** DD/MM/YYYY for people. */
export function formatDateBR(isoDate: string): string {
  const [y, m, d] = isoDate.split('-');
  return `${d}/${m}/${y}`;
}

/** A valid IANA zone name? */
export function isValidZone(zone: string): boolean {
  return DateTime.now().setZone(zone).isValid;
}
