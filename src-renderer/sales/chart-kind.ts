/**
 * Which chart fits a grouped result (pure: no DOM).
 * - time-like groupings (day, month, weekday, hour) → bars in the groups' natural order;
 * - categories (modality, brand) → share of the whole (pie) when the metric adds up
 *   (gross, net, count) and there is something to share; averages do not add up → bars;
 * - no grouping, or no rows → no chart.
 */
import { DIAS_DA_SEMANA } from '@shared/sales-dsl';
import type { Agrupamento as Grouping, LinhaVenda, Metrica as Metric } from '@shared/sales-dsl';

export type ChartKind =
  | { tipo: 'barras'; eixo: Grouping }
  | { tipo: 'participacao'; eixo: 'modalidade' | 'bandeira' }
  | { tipo: 'nenhum' };

export type GroupValue = LinhaVenda;

export function isAdditive(metrica: Metric): boolean {
  return metrica !== 'ticket_medio';
}

export function chartKindFor(
  agrupar: Grouping,
  metrica: Metric,
  rows: readonly GroupValue[],
): ChartKind {
  if (agrupar === 'nenhum' || rows.length === 0) return { tipo: 'nenhum' };
  if (agrupar === 'modalidade' || agrupar === 'bandeira') {
    const values = rows.map((r) => r.valor ?? 0);
    const total = values.reduce((a, b) => a + b, 0);
    if (isAdditive(metrica) && total > 0 && values.every((v) => v >= 0) && rows.length > 1) {
      return { tipo: 'participacao', eixo: agrupar };
    }
    return { tipo: 'barras', eixo: agrupar };
  }
  return { tipo: 'barras', eixo: agrupar };
}

/**
 * The index of the best group (highest value) to highlight; null when there is nothing to
 * highlight (no grouping, a single group, or no group with a positive value). Ties: the first.
 */
export function bestGroupIndex(agrupar: Grouping, rows: readonly GroupValue[]): number | null {
  if (agrupar === 'nenhum' || rows.length < 2) return null;
  let best: number | null = null;
  rows.forEach((r, i) => {
    if (r.valor === null || r.valor <= 0) return;
    const cur = best === null ? null : rows[best]?.valor;
    if (cur === null || cur === undefined || r.valor > cur) best = i;
  });
  return best;
}

/** Share of each group in the whole, 0..1 (null for groups without a value or a zero total). */
export function shares(rows: readonly GroupValue[]): (number | null)[] {
  const total = rows.reduce((a, r) => a + (r.valor ?? 0), 0);
  return rows.map((r) => (r.valor === null || total <= 0 ? null : r.valor / total));
}

/**
 * Rows of a time-like grouping in time order (a chart axis runs Monday→Sunday, 0h→23h, day by
 * day), whatever order the answer uses (e.g. "biggest first"). Other groupings keep their order.
 */
export function chartOrder<R extends GroupValue>(agrupar: Grouping, rows: readonly R[]): R[] {
  const key = (g: string | null): number | string => {
    if (g === null) return '';
    if (agrupar === 'dia_da_semana') return (DIAS_DA_SEMANA as readonly string[]).indexOf(g);
    if (agrupar === 'hora') return Number(g);
    return g;
  };
  if (!['dia', 'mes', 'dia_da_semana', 'hora'].includes(agrupar)) return [...rows];
  return [...rows].sort((a, b) => {
    const ka = key(a.grupo);
    const kb = key(b.grupo);
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
}
