/**
 * Period presets of the sales DSL, resolved by our code from a reference local date ("hoje" in
 * the configured zone). Pure: the renderer uses the same functions for its editable chips.
 * Weeks run Monday–Sunday. All ranges are inclusive local calendar dates (YYYY-MM-DD).
 */
import { DateTime } from 'luxon';
import { z } from './zod';
import { addDays, daysBetween, isIsoDate, isoWeekday } from './time';

export const PERIODOS = [
  'hoje',
  'ontem',
  'esta_semana',
  'semana_passada',
  'este_mes',
  'mes_passado',
  'ultimos_7_dias',
  'ultimos_30_dias',
  'este_ano',
  'ano_passado',
] as const;
export type Periodo = (typeof PERIODOS)[number];

/** Labels for people (chips, interpretation). */
export const PERIODO_LABELS: Record<Periodo, string> = {
  hoje: 'hoje',
  ontem: 'ontem',
  esta_semana: 'esta semana',
  semana_passada: 'semana passada',
  este_mes: 'este mês',
  mes_passado: 'mês passado',
  ultimos_7_dias: 'últimos 7 dias',
  ultimos_30_dias: 'últimos 30 dias',
  este_ano: 'este ano',
  ano_passado: 'ano passado',
};

/** Longest period a question may cover, in days (inclusive count). */
export const MAX_PERIOD_DAYS = 366;

export interface DateRange {
  /** First local day, inclusive. */
  data_inicio: string;
  /** Last local day, inclusive. */
  data_fim: string;
}

function month(iso: string): DateTime {
  return DateTime.fromISO(iso, { zone: 'UTC' }).startOf('month');
}

function iso(dt: DateTime): string {
  return dt.toISODate() ?? '';
}

/** Monday of the week of `date`. */
export function startOfWeek(date: string): string {
  return addDays(date, 1 - isoWeekday(date));
}

/** Resolves a preset against today's local date. */
export function resolvePeriod(periodo: Periodo, hoje: string): DateRange {
  if (!isIsoDate(hoje)) throw new RangeError(`data de referência inválida: ${hoje}`);
  switch (periodo) {
    case 'hoje':
      return { data_inicio: hoje, data_fim: hoje };
    case 'ontem': {
      const d = addDays(hoje, -1);
      return { data_inicio: d, data_fim: d };
    }
    case 'esta_semana':
      return { data_inicio: startOfWeek(hoje), data_fim: hoje };
    case 'semana_passada': {
      const monday = addDays(startOfWeek(hoje), -7);
      return { data_inicio: monday, data_fim: addDays(monday, 6) };
    }
    case 'este_mes':
      return { data_inicio: iso(month(hoje)), data_fim: hoje };
    case 'mes_passado': {
      const first = month(hoje).minus({ months: 1 });
      return { data_inicio: iso(first), data_fim: iso(first.endOf('month')) };
    }
    case 'ultimos_7_dias':
      return { data_inicio: addDays(hoje, -6), data_fim: hoje };
    case 'ultimos_30_dias':
      return { data_inicio: addDays(hoje, -29), data_fim: hoje };
    case 'este_ano':
      return { data_inicio: `${hoje.slice(0, 4)}-01-01`, data_fim: hoje };
    case 'ano_passado': {
      const y = String(Number(hoje.slice(0, 4)) - 1).padStart(4, '0');
      return { data_inicio: `${y}-01-01`, data_fim: `${y}-12-31` };
    }
  }
}

/** Days in an inclusive range (1 for a single day). */
export function periodLength(range: DateRange): number {
  return daysBetween(range.data_inicio, range.data_fim) + 1;
}

/** Every local date of an inclusive range. */
export function datesInRange(range: DateRange): string[] {
  const out: string[] = [];
  for (let d = range.data_inicio; d <= range.data_fim; d = addDays(d, 1)) out.push(d);
  return out;
}

/** Every month (YYYY-MM) the inclusive range touches. */
export function monthsInRange(range: DateRange): string[] {
  const out: string[] = [];
  const last = range.data_fim.slice(0, 7);
  for (let m = month(range.data_inicio); iso(m).slice(0, 7) <= last; m = m.plus({ months: 1 })) {
    out.push(iso(m).slice(0, 7));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// One definition of a chosen period (`de`..`ate`) for every report and list that takes one: the
// IPC schemas refine with it, and the renderer's PeriodPicker shows the same messages in place.

export const IsoDate = z.string().refine(isIsoDate, 'Use uma data no formato AAAA-MM-DD.');

export interface PeriodProblem {
  path: 'de' | 'ate';
  message: string;
}

/** What is wrong with a period of valid ISO dates ([] when it is fine). */
export function periodProblems(de: string, ate: string, maxDays?: number): PeriodProblem[] {
  const out: PeriodProblem[] = [];
  if (de > ate) {
    out.push({ path: 'ate', message: 'A data inicial deve ser anterior ou igual à final.' });
  }
  if (de < '2000-01-01' || ate > '2100-12-31') {
    out.push({ path: 'de', message: 'Escolha um período entre 2000 e 2100.' });
  }
  if (maxDays !== undefined && de <= ate && daysBetween(de, ate) >= maxDays) {
    out.push({ path: 'ate', message: `Escolha um período de até ${maxDays} dias.` });
  }
  return out;
}

/** zod refinement of an object with `de` and `ate` (use with `.superRefine`). */
export function refinePeriod(maxDays?: number) {
  return (v: { de: string; ate: string }, ctx: z.RefinementCtx): void => {
    for (const p of periodProblems(v.de, v.ate, maxDays)) {
      ctx.addIssue({ code: 'custom', message: p.message, path: [p.path] });
    }
  };
}
