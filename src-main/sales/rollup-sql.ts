/**
 * Sales aggregates from the exact per-merchant rollups (migration 0250): vendas_diarias (local
 * day × modality × brand), vendas_horarias (local day × hour × modality) and vendas_mes_hora
 * (month × hour × modality), read through their tenant views. Same answers as the base table
 * (status 'aprovada', local-day half-open periods, local buckets), reading a few thousand rows
 * at most instead of millions.
 *
 * The rollups bucket in ROLLUP_TIME_ZONE; use them only when the configured zone is that one
 * (`rollupsServeZone`), otherwise query transacoes.
 */
import { addDays } from '@shared/time';

/** Must equal balcao_rollup_zona() in the migration (checked by a test). */
export const ROLLUP_TIME_ZONE = 'America/Sao_Paulo';

export function rollupsServeZone(zone: string): boolean {
  return zone === ROLLUP_TIME_ZONE;
}

export type RollupMetrica = 'total_bruto' | 'total_liquido' | 'quantidade' | 'ticket_medio';
export type RollupAgrupamento =
  'nenhum' | 'dia' | 'mes' | 'modalidade' | 'bandeira' | 'dia_da_semana' | 'hora';
export type RollupModalidade = 'debito' | 'credito_avista' | 'credito_parcelado' | 'pix';

export interface RollupQuery {
  metrica: RollupMetrica;
  agrupar_por: RollupAgrupamento;
  /** Inclusive local dates, YYYY-MM-DD. */
  data_inicio: string;
  data_fim: string;
  /** Empty or absent: every modality. */
  modalidades?: readonly RollupModalidade[] | undefined;
}

export interface CompiledSql {
  text: string;
  values: unknown[];
}

/** Final value from the group's sums q (count), b (gross), l (net): integers, exact. */
export function metricFromSums(m: RollupMetrica): string {
  switch (m) {
    case 'total_bruto':
      return 'coalesce(a.b, 0)::bigint';
    case 'total_liquido':
      return 'coalesce(a.l, 0)::bigint';
    case 'quantidade':
      return 'coalesce(a.q, 0)::bigint';
    case 'ticket_medio':
      // Nearest centavo (halves away from zero); null for an empty group.
      return 'round(a.b::numeric / nullif(a.q, 0))::bigint';
  }
}

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
 * after them (read from vendas_horarias). With no whole month, everything is days.
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

/**
 * Parameterized SQL returning rows `{grupo text, valor bigint}`: one row for `nenhum`, every day
 * / month of the period for `dia` / `mes` (zero-filled), the groups with sales otherwise, ordered
 * by group. Run it on the analytics connection inside a tenant transaction (the views filter on
 * the transaction's merchant).
 */
export function compileRollupSql(q: RollupQuery): CompiledSql {
  const values: unknown[] = [];
  const p = (v: unknown) => `$${values.push(v)}`;
  const fimExcl = addDays(q.data_fim, 1);
  const mods = q.modalidades?.length ? [...q.modalidades] : null;
  const modFilter = () => (mods ? ` AND modalidade = ANY(${p(mods)}::text[])` : '');
  const sums = 'sum(quantidade) AS q, sum(bruto_centavos) AS b, sum(liquido_centavos) AS l';
  const daily = (key: string) =>
    `SELECT ${key} AS k, ${sums} FROM vendas_diarias_lojista
      WHERE dia >= ${p(q.data_inicio)}::date AND dia < ${p(fimExcl)}::date${modFilter()}
      GROUP BY 1`;
  const value = metricFromSums(q.metrica);

  switch (q.agrupar_por) {
    case 'nenhum':
      return {
        text: `SELECT NULL::text AS grupo, ${value} AS valor FROM (
                 SELECT ${sums} FROM vendas_diarias_lojista
                  WHERE dia >= ${p(q.data_inicio)}::date AND dia < ${p(fimExcl)}::date${modFilter()}
               ) a`,
        values,
      };
    case 'dia':
      return {
        text: `WITH a AS (${daily('dia')})
               SELECT to_char(s.k, 'YYYY-MM-DD') AS grupo, ${value} AS valor
                 FROM generate_series(${p(q.data_inicio)}::date, ${p(q.data_fim)}::date, interval '1 day') AS s(k)
                 LEFT JOIN a ON a.k = s.k::date
                ORDER BY s.k`,
        values,
      };
    case 'mes':
      return {
        text: `WITH a AS (${daily(`date_trunc('month', dia)::date`)})
               SELECT to_char(s.k, 'YYYY-MM') AS grupo, ${value} AS valor
                 FROM generate_series(date_trunc('month', ${p(q.data_inicio)}::date),
                                      ${p(q.data_fim)}::date, interval '1 month') AS s(k)
                 LEFT JOIN a ON a.k = s.k::date
                ORDER BY s.k`,
        values,
      };
    case 'modalidade':
      return {
        text: `WITH a AS (${daily('modalidade')})
               SELECT a.k AS grupo, ${value} AS valor FROM a ORDER BY a.k`,
        values,
      };
    case 'bandeira':
      return {
        text: `WITH a AS (${daily('bandeira')})
               SELECT a.k AS grupo, ${value} AS valor FROM a ORDER BY a.k NULLS LAST`,
        values,
      };
    case 'dia_da_semana':
      return {
        text: `WITH a AS (${daily('extract(isodow FROM dia)::int')})
               SELECT a.k::text AS grupo, ${value} AS valor FROM a ORDER BY a.k`,
        values,
      };
    case 'hora': {
      const { meses, cabeca, cauda } = splitMonths(q.data_inicio, fimExcl);
      const cols = 'hora, quantidade, bruto_centavos, liquido_centavos';
      return {
        text: `WITH a AS (
                 SELECT hora AS k, ${sums} FROM (
                   SELECT ${cols} FROM vendas_mes_hora_lojista
                    WHERE mes >= ${p(meses[0])}::date AND mes < ${p(meses[1])}::date${modFilter()}
                   UNION ALL
                   SELECT ${cols} FROM vendas_horarias_lojista
                    WHERE dia >= ${p(cabeca[0])}::date AND dia < ${p(cabeca[1])}::date${modFilter()}
                   UNION ALL
                   SELECT ${cols} FROM vendas_horarias_lojista
                    WHERE dia >= ${p(cauda[0])}::date AND dia < ${p(cauda[1])}::date${modFilter()}
                 ) x GROUP BY 1)
               SELECT a.k::text AS grupo, ${value} AS valor FROM a ORDER BY a.k`,
        values,
      };
    }
  }
}
