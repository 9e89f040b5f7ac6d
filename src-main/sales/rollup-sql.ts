/**
 * Aggregates of a sales query read from the exact per-merchant rollups (migration 0250), plus
 * the sales and changes the background fold has not moved into them yet (migration 0580), instead
 * of transacoes: vendas_diarias (local day × modality × brand), vendas_horarias (local day ×
 * hour × modality) and vendas_mes_hora (month × hour × modality), through their tenant views.
 * Same numbers as the base table (approved sales, local-day half-open periods, local buckets);
 * a year of the biggest merchant reads a few thousand rollup rows instead of ~2M sales.
 *
 * The rollups bucket days and hours in ROLLUP_TIME_ZONE: use them only when the configured zone
 * is that one (`rollupsServeZone`); the compiler falls back to the base table otherwise.
 * Every piece of SQL text here is fixed; dates and modalities are bind parameters.
 */
import { addDays } from '@shared/time';

/** Must equal balcao_rollup_zona() in the migration (checked by a test). */
export const ROLLUP_TIME_ZONE = 'America/Sao_Paulo';

export function rollupsServeZone(zone: string): boolean {
  return zone === ROLLUP_TIME_ZONE;
}

type Metrica = 'total_bruto' | 'total_liquido' | 'quantidade' | 'ticket_medio';
type Agrupamento = 'dia' | 'mes' | 'modalidade' | 'bandeira' | 'dia_da_semana' | 'hora';

/** The part of a resolved ConsultaVendas the rollups need. */
export interface RollupQuery {
  metrica: Metrica;
  /** Inclusive local dates, YYYY-MM-DD. */
  data_inicio: string;
  data_fim: string;
  /** Empty: every modality. */
  modalidades: readonly string[];
}

/** Adds a bind parameter, returns its placeholder ($n). */
export type Param = (value: unknown) => string;

/** Final value from the group's sums q (count), b (gross), l (net) of alias `a`: exact integers. */
const METRIC_FROM_SUMS: Record<Metrica, string> = {
  total_bruto: 'coalesce(a.b, 0)::bigint',
  total_liquido: 'coalesce(a.l, 0)::bigint',
  quantidade: 'coalesce(a.q, 0)::bigint',
  // Same value as round(avg(valor_bruto_centavos)): numeric division of the same sum and count.
  ticket_medio: 'round(a.b::numeric / nullif(a.q, 0))::bigint',
};

/** Group keys, with the types the base-table compiler uses (date, date, int, int, text, text). */
const DAILY_KEY: Record<Exclude<Agrupamento, 'hora'>, string> = {
  dia: 'dia',
  mes: "date_trunc('month', dia)::date",
  dia_da_semana: 'extract(isodow FROM dia)::int',
  modalidade: 'modalidade',
  bandeira: 'bandeira',
};

const SUMS = 'sum(quantidade) AS q, sum(bruto_centavos) AS b, sum(liquido_centavos) AS l';

function firstOfMonth(iso: string): string {
  return `${iso.slice(0, 7)}-01`;
}

function nextMonth(iso: string): string {
  const y = Number(iso.slice(0, 4));
  const m = Number(iso.slice(5, 7));
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
}

/**
 * Splits [inicio, fimExcl) into whole months (read from vendas_mes_hora) and the days before and
 * after them (read from vendas_horarias). With no whole month inside, everything is days.
 */
export function splitMonths(
  inicio: string,
  fimExcl: string,
): { meses: [string, string]; cabeca: [string, string]; cauda: [string, string] } {
  const m1 = inicio === firstOfMonth(inicio) ? inicio : nextMonth(inicio);
  const m2 = firstOfMonth(fimExcl);
  if (m1 >= m2) return { meses: [m1, m1], cabeca: [inicio, fimExcl], cauda: [fimExcl, fimExcl] };
  return { meses: [m1, m2], cabeca: [inicio, m1], cauda: [m2, fimExcl] };
}

function modFilter(q: RollupQuery, param: Param): string {
  return q.modalidades.length ? ` AND modalidade = ANY(${param([...q.modalidades])}::text[])` : '';
}

function dailyRange(q: RollupQuery, param: Param): string {
  return `dia >= ${param(q.data_inicio)}::date AND dia < ${param(addDays(q.data_fim, 1))}::date${modFilter(q, param)}`;
}

const DAILY_COLS = 'dia, modalidade, bandeira, quantidade, bruto_centavos, liquido_centavos';

/**
 * The day rollup plus what it does not hold yet (migration 0580): the merchant's sales above the
 * fold's watermark and the logged changes not folded yet, as signed rows — read in the same
 * snapshot, so a sale written a moment ago is in the answer.
 */
const DAILY_WITH_PENDING = `(SELECT ${DAILY_COLS} FROM vendas_diarias_lojista
   UNION ALL SELECT ${DAILY_COLS} FROM vendas_pendentes_lojista()) s`;

/** `SELECT NULL::text AS grupo, <valor>`: the whole period in one row. */
export function rollupTotalSql(q: RollupQuery, param: Param): string {
  return `SELECT NULL::text AS grupo, ${METRIC_FROM_SUMS[q.metrica]} AS valor
            FROM (SELECT ${SUMS} FROM ${DAILY_WITH_PENDING} WHERE ${dailyRange(q, param)}) a`;
}

/** `SELECT g, valor`: one row per group with sales (key types as in the base-table compiler). */
export function rollupGroupSql(q: RollupQuery, agrupar: Agrupamento, param: Param): string {
  const value = METRIC_FROM_SUMS[q.metrica];
  if (agrupar !== 'hora') {
    return `SELECT a.k AS g, ${value} AS valor FROM (
              SELECT ${DAILY_KEY[agrupar]} AS k, ${SUMS} FROM ${DAILY_WITH_PENDING}
               WHERE ${dailyRange(q, param)} GROUP BY 1 HAVING sum(quantidade) <> 0) a`;
  }
  const { meses, cabeca, cauda } = splitMonths(q.data_inicio, addDays(q.data_fim, 1));
  const cols = 'hora, quantidade, bruto_centavos, liquido_centavos';
  return `SELECT a.k::int AS g, ${value} AS valor FROM (
            SELECT hora AS k, ${SUMS} FROM (
              SELECT ${cols} FROM vendas_mes_hora_lojista
               WHERE mes >= ${param(meses[0])}::date AND mes < ${param(meses[1])}::date${modFilter(q, param)}
              UNION ALL
              SELECT ${cols} FROM vendas_horarias_lojista
               WHERE dia >= ${param(cabeca[0])}::date AND dia < ${param(cabeca[1])}::date${modFilter(q, param)}
              UNION ALL
              SELECT ${cols} FROM vendas_horarias_lojista
               WHERE dia >= ${param(cauda[0])}::date AND dia < ${param(cauda[1])}::date${modFilter(q, param)}
              UNION ALL
              SELECT ${cols} FROM vendas_pendentes_lojista()
               WHERE ${dailyRange(q, param)}
            ) x GROUP BY 1 HAVING sum(quantidade) <> 0) a`;
}
