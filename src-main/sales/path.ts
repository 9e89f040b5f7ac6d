/**
 * Which path answers a sales question (#40.8): the exact rollups or the base table through the
 * tenant view `vendas_aprovadas` (the textbook index `(merchant_id, status, aprovada_em)`). Both
 * are exact in the same snapshot, pending sales included; the choice only decides what is read.
 *
 * What each path costs on the server (measured at 2M rows, `EXPLAIN ANALYZE`, best of 7):
 * - the base table reads every approved sale of the merchant in the period: ~0.04 ms plus
 *   ~0.6 µs per sale (a count without a modality filter is answered from the index alone:
 *   ~0.13 µs per sale);
 * - the rollups call one tenant function per part of the period (whole months, edge days:
 *   `rollupCalls`), each ~0.05 ms with its tenant and pending checks, and read a few rows.
 * So the base table wins only while the period holds few sales — a day or a week of a small
 * merchant (by 0.01–0.02 ms) — and loses by seconds on a big merchant's year. A wrong "base" is the
 * costly mistake; a wrong "rollups" costs at most those hundredths of a millisecond.
 *
 * The choice costs nothing on the answer's path: no extra statement, no round trip. It is made in
 * the process from the question and the merchant's volume — its busiest month in the 13 months
 * up to the period's end (`MerchantVolume`), which the first answer for that merchant reads in
 * its own statement (an extra column, see compile.ts) and every later one reuses. Without a
 * volume (first answer), or for a period outside the months it covers, the rollups answer.
 *
 * Bound: "base" is chosen only when the busiest month's daily rate times the period's days is
 * within `baseLimit`; no month holds more than that month, so a day read on the base table holds
 * at most 28 × the limit sales and a year at most ~the limit — never a big merchant's year.
 */
import { MODALIDADES, type ConsultaVendas } from '@shared/sales-dsl';
import { periodLength } from '@shared/periods';
import { firstOfMonth } from '@shared/time';
import { rollupCalls } from './rollup-sql';

export type SalesPath = 'rollups' | 'base';

/** Sales the base table reads in the time of one rollup tenant-function call. */
export const BASE_SALES_PER_ROLLUP_CALL = 40;

/** A count without a modality filter reads the index alone: this many times cheaper per sale. */
export const INDEX_ONLY_COUNT_FACTOR = 5;

/** Answers after which the merchant's volume is read again (in the answer's own statement). */
export const VOLUME_REFRESH_ANSWERS = 200;

/** Days of the shortest month: a month's sales over it bound its daily rate from above. */
const SHORTEST_MONTH_DAYS = 28;

/** What the chooser knows of a merchant: its busiest month over a 13-month horizon. */
export interface MerchantVolume {
  /** Approved sales (current state) of the busiest month of `horizonte`. */
  maiorMes: number;
  /** Months read, half-open first days: [first, after last). */
  horizonte: readonly [string, string];
  /** Answers given with this volume since it was read. */
  usos: number;
}

function filtersModality(q: ConsultaVendas): boolean {
  return q.modalidades.length > 0 && q.modalidades.length < MODALIDADES.length;
}

/** The most sales of the period for which the base table is the cheaper path. */
export function baseLimit(q: ConsultaVendas): number {
  const perCall =
    q.metrica === 'quantidade' && q.agrupar_por === 'nenhum' && !filtersModality(q)
      ? BASE_SALES_PER_ROLLUP_CALL * INDEX_ONLY_COUNT_FACTOR
      : BASE_SALES_PER_ROLLUP_CALL;
  return rollupCalls(q, q.agrupar_por) * perCall;
}

/** The months whose busiest one is read for a question: the 13 up to the period's end. */
export function volumeHorizon(q: ConsultaVendas): [string, string] {
  return [firstOfMonth(q.data_fim, -12), firstOfMonth(q.data_fim, 1)];
}

function within(q: ConsultaVendas, v: MerchantVolume): boolean {
  return q.data_inicio >= v.horizonte[0] && q.data_fim < v.horizonte[1];
}

/** Sales the period may hold at the busiest month's daily rate (rounded up). */
export function estimateSales(q: ConsultaVendas, v: Pick<MerchantVolume, 'maiorMes'>): number {
  return Math.ceil((v.maiorMes * periodLength(q)) / SHORTEST_MONTH_DAYS);
}

/** The path for a question, given what is known of the merchant (nothing: the rollups). */
export function choosePath(q: ConsultaVendas, v: MerchantVolume | undefined): SalesPath {
  if (!v || !within(q, v)) return 'rollups';
  return estimateSales(q, v) <= baseLimit(q) ? 'base' : 'rollups';
}

/** Whether this answer should read the merchant's volume again (in its own statement). */
export function needsVolume(q: ConsultaVendas, v: MerchantVolume | undefined): boolean {
  return !v || !within(q, v) || v.usos >= VOLUME_REFRESH_ANSWERS;
}
