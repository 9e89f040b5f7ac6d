import { DateTime } from 'luxon';

/** The one clock source. Services never call `new Date()` for business decisions. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock frozen at an instant. */
export function fixedClock(instant: Date): Clock {
  return { now: () => new Date(instant.getTime()) };
}

/**
 * A clock for a reference date ("--hoje 2026-03-16"): noon of that local day in `zone`,
 * advancing with real time so durations still measure.
 */
export function clockForLocalDate(isoDate: string, zone: string): Clock {
  const start = DateTime.fromISO(isoDate, { zone }).set({ hour: 12 }).toMillis();
  const t0 = Date.now();
  return { now: () => new Date(start + (Date.now() - t0)) };
}
