/**
 * The dates a sales query may cover (and the reference "hoje" it may be resolved against):
 * checked at the boundary, so a date like 9999-12-31 or a year-1 "ontem" is refused in pt-BR
 * instead of reaching the database as an out-of-range timestamp. No imports: the CLI's argument
 * parsers use it before anything heavy loads.
 */
export const DATA_MINIMA = '2000-01-01';
export const DATA_MAXIMA = '2099-12-31';

/** Whether an ISO date (YYYY-MM-DD) lies in the range a query may cover. */
export function dataNoIntervalo(iso: string): boolean {
  return iso >= DATA_MINIMA && iso <= DATA_MAXIMA;
}

const br = (iso: string) => iso.split('-').reverse().join('/');

/** "01/01/2000 e 31/12/2099" */
export const FAIXA_DATAS_BR = `${br(DATA_MINIMA)} e ${br(DATA_MAXIMA)}`;

/** "Use datas entre 01/01/2000 e 31/12/2099." */
export const MSG_DATAS_ACEITAS = `Use datas entre ${FAIXA_DATAS_BR}.`;
