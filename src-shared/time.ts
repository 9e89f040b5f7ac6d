import { DateTime } from 'luxon';

/** Default business time zone. Every date decision goes through a zone and one clock. */
export const DEFAULT_TIME_ZONE = 'America/Sao_Paulo';

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

// Plain calendar dates (no zone) are reckoned as UTC days with Date's own arithmetic: exact,
// and ~10× cheaper than building a zoned DateTime on the per-message path (issue #17). Zoned
// questions (a local day's start, DST) stay with luxon.

/** Days since 1970-01-01 of a valid YYYY-MM-DD date, or null. */
function dayNumber(s: string): number | null {
  const m = ISO_DATE.exec(s);
  if (!m) return null;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  // setUTCFullYear, unlike Date.UTC, keeps years 0–99; a rolled-over day (2026-02-30) is refused.
  const back = new Date(0);
  const t = back.setUTCFullYear(y, mo - 1, d);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) {
    return null;
  }
  return t / DAY_MS;
}

function fromDayNumber(n: number): string {
  const d = new Date(n * DAY_MS);
  const y = d.getUTCFullYear();
  if (y < 0 || y > 9999) return '';
  const p2 = (v: number) => String(v).padStart(2, '0');
  return `${String(y).padStart(4, '0')}-${p2(d.getUTCMonth() + 1)}-${p2(d.getUTCDate())}`;
}

/** True when s is a real calendar date in YYYY-MM-DD form. */
export function isIsoDate(s: string): boolean {
  return dayNumber(s) !== null;
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The local calendar date (YYYY-MM-DD) of an instant in a zone. */
export function localDate(instant: Date, zone: string): string {
  if (Number.isNaN(instant.getTime())) return '';
  let f = dayFormats.get(zone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        calendar: 'iso8601',
        numberingSystem: 'latn',
      });
    } catch {
      return '';
    }
    dayFormats.set(zone, f);
  }
  let y = '';
  let m = '';
  let d = '';
  for (const part of f.formatToParts(instant)) {
    if (part.type === 'year') y = part.value;
    else if (part.type === 'month') m = part.value;
    else if (part.type === 'day') d = part.value;
  }
  return y.length === 4 && m && d ? `${y}-${m}-${d}` : '';
}

/** The instant a local day starts in a zone (handles DST gaps). */
export function startOfLocalDay(isoDate: string, zone: string): Date {
  return DateTime.fromISO(isoDate, { zone }).startOf('day').toJSDate();
}

/** Adds whole days to a YYYY-MM-DD date ('' for an invalid date). */
export function addDays(isoDate: string, days: number): string {
  const n = dayNumber(isoDate);
  return n === null || !Number.isFinite(days) ? '' : fromDayNumber(n + Math.trunc(days));
}

/** Whole days from a to b (b - a). */
export function daysBetween(a: string, b: string): number {
  const x = dayNumber(a);
  const y = dayNumber(b);
  return x === null || y === null ? NaN : y - x;
}

/**
 * First day (YYYY-MM-01) of the month `months` after the month of a YYYY-MM(-DD) date
 * ('' when it is not one): plain month arithmetic, no DateTime per call.
 */
export function firstOfMonth(isoDate: string, months = 0): string {
  const m = /^(\d{4})-(\d{2})/.exec(isoDate);
  if (!m || !Number.isInteger(months)) return '';
  const n = Number(m[1]) * 12 + Number(m[2]) - 1 + months;
  const y = Math.floor(n / 12);
  if (y < 0 || y > 9999) return '';
  return `${String(y).padStart(4, '0')}-${String(n - y * 12 + 1).padStart(2, '0')}-01`;
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
  return WEEKDAYS[isoWeekday(isoDate) - 1] ?? '';
}

/** 1 = Monday … 7 = Sunday (NaN for an invalid date). */
export function isoWeekday(isoDate: string): number {
  const n = dayNumber(isoDate);
  // 1970-01-01 was a Thursday (4).
  return n === null ? NaN : ((((n + 3) % 7) + 7) % 7) + 1;
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
