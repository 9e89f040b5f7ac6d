/**
 * Period presets of the sales DSL, resolved by our code from a reference local date ("hoje" in
 * the configured zone). Pure: the renderer uses the same functions for its editable chips.
 * Weeks run Monday–Sunday. All ranges are inclusive local calendar dates (YYYY-MM-DD).
 */
import { z } from './zod';
import { addDays, daysBetween, firstOfMonth, isIsoDate, isoWeekday } from './time';

/** The presets, in the order the chips show them (label and dates: `PRESETS` below). */
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

/** Longest period a question may cover, in days (inclusive count). */
export const MAX_PERIOD_DAYS = 366;

export interface DateRange {
  /** First local day, inclusive. */
  data_inicio: string;
  /** Last local day, inclusive. */
  data_fim: string;
}

/** Monday of the week of `date`. */
export function startOfWeek(date: string): string {
  return addDays(date, 1 - isoWeekday(date));
}

const day = (d: string): DateRange => ({ data_inicio: d, data_fim: d });
const upTo = (hoje: string, from: string): DateRange => ({ data_inicio: from, data_fim: hoje });

/** Each preset: its label for people (chips, interpretation) and its dates from today. */
const PRESETS: Record<Periodo, { label: string; range: (hoje: string) => DateRange }> = {
  hoje: { label: 'hoje', range: (hoje) => day(hoje) },
  ontem: { label: 'ontem', range: (hoje) => day(addDays(hoje, -1)) },
  esta_semana: { label: 'esta semana', range: (hoje) => upTo(hoje, startOfWeek(hoje)) },
  semana_passada: {
    label: 'semana passada',
    range: (hoje) => {
      const monday = addDays(startOfWeek(hoje), -7);
      return { data_inicio: monday, data_fim: addDays(monday, 6) };
    },
  },
  este_mes: { label: 'este mês', range: (hoje) => upTo(hoje, firstOfMonth(hoje)) },
  mes_passado: {
    label: 'mês passado',
    range: (hoje) => ({
      data_inicio: firstOfMonth(hoje, -1),
      data_fim: addDays(firstOfMonth(hoje), -1),
    }),
  },
  ultimos_7_dias: { label: 'últimos 7 dias', range: (hoje) => upTo(hoje, addDays(hoje, -6)) },
  ultimos_30_dias: { label: 'últimos 30 dias', range: (hoje) => upTo(hoje, addDays(hoje, -29)) },
  este_ano: { label: 'este ano', range: (hoje) => upTo(hoje, `${hoje.slice(0, 4)}-01-01`) },
  ano_passado: {
    label: 'ano passado',
    range: (hoje) => {
      const y = String(Number(hoje.slice(0, 4)) - 1).padStart(4, '0');
      return { data_inicio: `${y}-01-01`, data_fim: `${y}-12-31` };
    },
  },
};

/** A preset as people read it ("semana passada"): chips, interpretation. */
export function periodoLabel(periodo: Periodo): string {
  return PRESETS[periodo].label;
}

/** Resolves a preset against today's local date. */
export function resolvePeriod(periodo: Periodo, hoje: string): DateRange {
  if (!isIsoDate(hoje)) throw new RangeError(`data de referência inválida: ${hoje}`);
  return PRESETS[periodo].range(hoje);
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
  for (let m = firstOfMonth(range.data_inicio); m && m <= range.data_fim; m = firstOfMonth(m, 1)) {
    out.push(m.slice(0, 7));
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
