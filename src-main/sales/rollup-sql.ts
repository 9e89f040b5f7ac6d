/**
 * Aggregates of a sales query read from the exact per-merchant rollups (migration 0250), plus
 * the sales and changes the background fold has not moved into them yet (migration 0580), instead
 * of transacoes: vendas_diarias (local day × modality × brand), vendas_horarias (local day ×
 * hour × modality) and vendas_mes_hora (month × hour × modality), through the tenant functions
 * of migration 0790 (`vendas_*_atuais(inicio, fim)`: folded + unfolded, netted, current only).
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
  return q.modalidades.length
    ? ` WHERE modalidade = ANY(${param([...q.modalidades])}::text[])`
    : '';
}

/**
 * The day rollup as it is now (migration 0790): vendas_diarias_atuais folds in, for the tenant and
 * the period, the sales and logged changes the background fold has not moved yet, netted per
 * bucket in one snapshot — so a sale written a moment ago is in the answer, and the analytics role
 * never sees the parts apart.
 */
function daily(q: RollupQuery, param: Param): string {
  return `vendas_diarias_atuais(${param(q.data_inicio)}::date, ${param(addDays(q.data_fim, 1))}::date) s`;
}

/** Groupings a month bucket can answer (no day, weekday or brand inside a month × hour row). */
type MonthKey = 'nenhum' | 'mes' | 'modalidade';
const MONTH_KEY: Record<MonthKey, { mes: string; dia: string }> = {
  nenhum: { mes: 'NULL::int', dia: 'NULL::int' },
  mes: { mes: 'mes', dia: "date_trunc('month', dia)::date" },
  modalidade: { mes: 'modalidade', dia: 'modalidade' },
};

/**
 * Rows `(k, quantidade, bruto_centavos, liquido_centavos)` for a period that holds whole months:
 * the months from vendas_mes_hora_atuais (month × hour × modality: ~1,000 rows for the biggest
 * merchant's year instead of ~6,000 day × modality × brand rows) and the edge days from
 * vendas_diarias_atuais. Null when the period holds no whole month (the days alone then).
 */
function monthsAndDays(q: RollupQuery, key: MonthKey, param: Param): string | null {
  const { meses, cabeca, cauda } = splitMonths(q.data_inicio, addDays(q.data_fim, 1));
  if (meses[0] === meses[1]) return null;
  const cols = 'quantidade, bruto_centavos, liquido_centavos';
  const range = (r: [string, string]) => `${param(r[0])}::date, ${param(r[1])}::date`;
  const parts = [
    `SELECT ${MONTH_KEY[key].mes} AS k, ${cols} FROM vendas_mes_hora_atuais(${range(meses)}) r${modFilter(q, param)}`,
  ];
  for (const edge of [cabeca, cauda]) {
    if (edge[0] === edge[1]) continue;
    parts.push(
      `SELECT ${MONTH_KEY[key].dia} AS k, ${cols} FROM vendas_diarias_atuais(${range(edge)}) d${modFilter(q, param)}`,
    );
  }
  return `(${parts.join('\n UNION ALL ')}) s`;
}

/** `SELECT NULL::text AS grupo, <valor>`: the whole period in one row. */
export function rollupTotalSql(q: RollupQuery, param: Param): string {
  const months = monthsAndDays(q, 'nenhum', param);
  const source = months ?? `${daily(q, param)}${modFilter(q, param)}`;
  return `SELECT NULL::text AS grupo, ${METRIC_FROM_SUMS[q.metrica]} AS valor
            FROM (SELECT ${SUMS} FROM ${source}) a`;
}

/** `SELECT g, valor`: one row per group with sales (key types as in the base-table compiler). */
export function rollupGroupSql(q: RollupQuery, agrupar: Agrupamento, param: Param): string {
  const value = METRIC_FROM_SUMS[q.metrica];
  if (agrupar === 'mes' || agrupar === 'modalidade') {
    const months = monthsAndDays(q, agrupar, param);
    if (months) {
      return `SELECT a.k AS g, ${value} AS valor FROM (
                SELECT k, ${SUMS} FROM ${months} GROUP BY 1 HAVING sum(quantidade) <> 0) a`;
    }
  }
  if (agrupar !== 'hora') {
    return `SELECT a.k AS g, ${value} AS valor FROM (
              SELECT ${DAILY_KEY[agrupar]} AS k, ${SUMS} FROM ${daily(q, param)}
              ${modFilter(q, param)} GROUP BY 1 HAVING sum(quantidade) <> 0) a`;
  }
  const { meses, cabeca, cauda } = splitMonths(q.data_inicio, addDays(q.data_fim, 1));
  const cols = 'hora, quantidade, bruto_centavos, liquido_centavos';
  const range = (r: [string, string]) => `${param(r[0])}::date, ${param(r[1])}::date`;
  return `SELECT a.k::int AS g, ${value} AS valor FROM (
            SELECT hora AS k, ${SUMS} FROM (
              SELECT ${cols} FROM vendas_mes_hora_atuais(${range(meses)}) r
              ${modFilter(q, param)}
              UNION ALL
              SELECT ${cols} FROM vendas_horarias_atuais(${range(cabeca)}) h
              ${modFilter(q, param)}
              UNION ALL
              SELECT ${cols} FROM vendas_horarias_atuais(${range(cauda)}) h
              ${modFilter(q, param)}
            ) x GROUP BY 1 HAVING sum(quantidade) <> 0) a`;
}
