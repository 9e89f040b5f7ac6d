/**
 * Aggregates of a sales query read from the exact per-merchant rollups (migrations 0250, 0840,
 * 0860), plus the sales and changes the background fold has not moved into them yet (migration
 * 0580), instead of transacoes, through the tenant functions `vendas_*_atuais(inicio, fim)`
 * (folded + unfolded, netted, current only; migrations 0790, 0820, 0840, 0860):
 * - by day: vendas_dia_totais (day), vendas_dia_modalidade (day × modality), vendas_diarias
 *   (day × modality × brand), vendas_horarias (day × hour × modality);
 * - by month: vendas_mensais (month × modality × brand), vendas_mes_hora (month × hour × modality).
 * A period is read as its whole months from a month rollup and its edge days from a day rollup;
 * an edge month mostly inside the period is read whole, minus the few days outside it (signed
 * rows), which is exact because every value is a sum. Same numbers as the base table (approved
 * sales, local-day half-open periods, local buckets); a year of the biggest merchant reads ~1,500
 * rollup rows at most instead of ~2M sales.
 *
 * The rollups bucket days and hours in ROLLUP_TIME_ZONE: use them only when the configured zone
 * is that one (`rollupsServeZone`); the compiler falls back to the base table otherwise.
 * Every piece of SQL text here is fixed; dates and modalities are bind parameters.
 */
import { addDays, daysBetween, firstOfMonth } from '@shared/time';

/** Must equal balcao_rollup_zona() in the migration (checked by a test). */
export const ROLLUP_TIME_ZONE = 'America/Sao_Paulo';

export function rollupsServeZone(zone: string): boolean {
  return zone === ROLLUP_TIME_ZONE;
}

type Metrica = 'total_bruto' | 'total_liquido' | 'quantidade' | 'ticket_medio';
type Agrupamento = 'nenhum' | 'dia' | 'mes' | 'modalidade' | 'bandeira' | 'dia_da_semana' | 'hora';

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

const SUMS = 'sum(quantidade) AS q, sum(bruto_centavos) AS b, sum(liquido_centavos) AS l';

type Range = [string, string];

/** A rollup read through its tenant function, and the group key over its rows. */
interface Source {
  fn: string;
  key: string;
}

/**
 * Where each grouping reads: its day-grain rollup, and its month rollup when a month bucket can
 * answer it (no day or weekday inside a month). Keys have the types the base-table compiler uses
 * (date, date, int, int, text, text).
 */
const SOURCES: Record<Agrupamento, { dias: Source; meses: Source | null }> = {
  nenhum: {
    dias: { fn: 'vendas_dia_modalidade_atuais', key: 'NULL::int' },
    meses: { fn: 'vendas_mensais_atuais', key: 'NULL::int' },
  },
  mes: {
    dias: { fn: 'vendas_dia_modalidade_atuais', key: "date_trunc('month', dia)::date" },
    meses: { fn: 'vendas_mensais_atuais', key: 'mes' },
  },
  modalidade: {
    dias: { fn: 'vendas_dia_modalidade_atuais', key: 'modalidade' },
    meses: { fn: 'vendas_mensais_atuais', key: 'modalidade' },
  },
  bandeira: {
    dias: { fn: 'vendas_diarias_atuais', key: 'bandeira' },
    meses: { fn: 'vendas_mensais_atuais', key: 'bandeira' },
  },
  hora: {
    dias: { fn: 'vendas_horarias_atuais', key: 'hora::int' },
    meses: { fn: 'vendas_mes_hora_atuais', key: 'hora::int' },
  },
  dia: { dias: { fn: 'vendas_dia_modalidade_atuais', key: 'dia' }, meses: null },
  dia_da_semana: {
    dias: { fn: 'vendas_dia_modalidade_atuais', key: 'extract(isodow FROM dia)::int' },
    meses: null,
  },
};

/**
 * Groupings whose day-grain rows need neither modality nor brand: without a modality filter they
 * read the day totals (vendas_dia_totais, migration 0860: one row per day instead of one per day
 * and modality).
 */
const DAY_TOTALS: ReadonlySet<Agrupamento> = new Set(['nenhum', 'mes', 'dia', 'dia_da_semana']);
const DAY_TOTALS_FN = 'vendas_dia_totais_atuais';

/**
 * Splits [inicio, fimExcl) into whole months (read from a month rollup) and the days before and
 * after them (read from a day rollup). With no whole month inside, everything is days.
 */
export function splitMonths(
  inicio: string,
  fimExcl: string,
): { meses: Range; cabeca: Range; cauda: Range } {
  const m1 = inicio === firstOfMonth(inicio) ? inicio : firstOfMonth(inicio, 1);
  const m2 = firstOfMonth(fimExcl);
  if (m1 >= m2) return { meses: [m1, m1], cabeca: [inicio, fimExcl], cauda: [fimExcl, fimExcl] };
  return { meses: [m1, m2], cabeca: [inicio, m1], cauda: [m2, fimExcl] };
}

export interface MonthPlan {
  /** Months (first days, half-open) read whole from the month rollup; null: none. */
  meses: Range | null;
  /** Day ranges (half-open) added from the day rollup. */
  somar: Range[];
  /** Day ranges inside `meses` but outside the period, subtracted. */
  subtrair: Range[];
}

const nonEmpty = (...rs: Range[]): Range[] => rs.filter((r) => r[0] < r[1]);

/**
 * `splitMonths`, then each partial edge month read the cheaper way: its days inside the period,
 * or the whole month minus its days outside (fewer days to read). The year ending today starts
 * the day after today's date a year ago: its first month is read whole minus a day or two.
 */
export function planMonths(inicio: string, fimExcl: string): MonthPlan {
  const { meses, cabeca, cauda } = splitMonths(inicio, fimExcl);
  if (meses[0] === meses[1]) {
    const mo = firstOfMonth(inicio);
    const nx = firstOfMonth(mo, 1);
    const outside = daysBetween(mo, inicio) + daysBetween(fimExcl, nx);
    if (fimExcl <= nx && outside < daysBetween(inicio, fimExcl)) {
      return { meses: [mo, nx], somar: [], subtrair: nonEmpty([mo, inicio], [fimExcl, nx]) };
    }
    return { meses: null, somar: nonEmpty([inicio, fimExcl]), subtrair: [] };
  }
  let [a, b] = meses;
  const somar: Range[] = [];
  const subtrair: Range[] = [];
  if (cabeca[0] < cabeca[1]) {
    const mo = firstOfMonth(inicio);
    if (daysBetween(mo, inicio) < daysBetween(inicio, cabeca[1])) {
      a = mo;
      subtrair.push([mo, inicio]);
    } else somar.push(cabeca);
  }
  if (cauda[0] < cauda[1]) {
    const nx = firstOfMonth(cauda[0], 1);
    if (daysBetween(fimExcl, nx) < daysBetween(cauda[0], fimExcl)) {
      b = nx;
      subtrair.push([fimExcl, nx]);
    } else somar.push(cauda);
  }
  return { meses: [a, b], somar, subtrair };
}

/**
 * Rows `(k, quantidade, bruto_centavos, liquido_centavos)` of the period for a grouping: signed
 * rows whose sums per key are the period's (see planMonths).
 */
/** The month plan a grouping reads the period with (day ranges only when it has no months). */
function rollupPlan(q: RollupQuery, agrupar: Agrupamento): MonthPlan {
  const fimExcl = addDays(q.data_fim, 1);
  return SOURCES[agrupar].meses
    ? planMonths(q.data_inicio, fimExcl)
    : { meses: null, somar: [[q.data_inicio, fimExcl]], subtrair: [] };
}

/** Tenant-function calls the rollup SQL of a query makes (one per part of its period; ≥ 1). */
export function rollupCalls(q: RollupQuery, agrupar: Agrupamento): number {
  const plan = rollupPlan(q, agrupar);
  return Math.max(1, (plan.meses ? 1 : 0) + plan.somar.length + plan.subtrair.length);
}

function periodRows(q: RollupQuery, agrupar: Agrupamento, param: Param): string {
  const { meses } = SOURCES[agrupar];
  const dias =
    q.modalidades.length === 0 && DAY_TOTALS.has(agrupar)
      ? { ...SOURCES[agrupar].dias, fn: DAY_TOTALS_FN }
      : SOURCES[agrupar].dias;
  const plan = rollupPlan(q, agrupar);
  let mods: string | undefined;
  const filter = () =>
    q.modalidades.length
      ? ` WHERE modalidade = ANY(${(mods ??= param([...q.modalidades]))}::text[])`
      : '';
  const range = (r: Range) => `${param(r[0])}::date, ${param(r[1])}::date`;
  const pos = 'quantidade, bruto_centavos, liquido_centavos';
  const neg =
    '-quantidade AS quantidade, -bruto_centavos AS bruto_centavos, -liquido_centavos AS liquido_centavos';
  const parts: string[] = [];
  if (plan.meses && meses) {
    parts.push(
      `SELECT ${meses.key} AS k, ${pos} FROM ${meses.fn}(${range(plan.meses)}) r${filter()}`,
    );
  }
  for (const r of plan.somar) {
    parts.push(`SELECT ${dias.key} AS k, ${pos} FROM ${dias.fn}(${range(r)}) r${filter()}`);
  }
  for (const r of plan.subtrair) {
    parts.push(`SELECT ${dias.key} AS k, ${neg} FROM ${dias.fn}(${range(r)}) r${filter()}`);
  }
  // An empty period (never produced by the resolver) still yields a well-typed empty source.
  if (!parts.length) {
    parts.push(`SELECT ${dias.key} AS k, ${pos} FROM ${dias.fn}(NULL, NULL) r`);
  }
  return `(${parts.join('\n UNION ALL ')}) s`;
}

/**
 * `SELECT NULL::text AS grupo, <valor>`: the whole period in one row. `extra`: more output
 * columns (`, expr AS name`), e.g. the merchant's volume for the path chooser (compile.ts).
 */
export function rollupTotalSql(q: RollupQuery, param: Param, extra = ''): string {
  return `SELECT NULL::text AS grupo, ${METRIC_FROM_SUMS[q.metrica]} AS valor${extra}
            FROM (SELECT ${SUMS} FROM ${periodRows(q, 'nenhum', param)}) a`;
}

/** `SELECT g, valor`: one row per group with sales (key types as in the base-table compiler). */
export function rollupGroupSql(
  q: RollupQuery,
  agrupar: Exclude<Agrupamento, 'nenhum'>,
  param: Param,
): string {
  return `SELECT a.k AS g, ${METRIC_FROM_SUMS[q.metrica]} AS valor FROM (
            SELECT k, ${SUMS} FROM ${periodRows(q, agrupar, param)}
             GROUP BY 1 HAVING sum(quantidade) <> 0) a`;
}
