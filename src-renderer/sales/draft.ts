/**
 * The editable query behind the chips (pure: no DOM). The chips edit the raw DSL — the same
 * shape the model fills — and the main process validates and resolves it with the same rules.
 * A preset period stays a preset (resolved again against today); explicit dates stay dates.
 */
import { MAX_PERIOD_DAYS, periodLength, type Periodo } from '@shared/periods';
import type {
  Agrupamento,
  ConsultarVendasRaw,
  ConsultaVendas,
  Metrica,
  Modalidade,
} from '@shared/sales-dsl';
import { MODALIDADES } from '@shared/sales-dsl';
import { isIsoDate } from '@shared/time';

export type Draft = ConsultarVendasRaw;

/** What the builder starts with: gross sales of the last 7 days. */
export const DEFAULT_DRAFT: Draft = {
  metrica: 'total_bruto',
  agrupar_por: 'nenhum',
  periodo: 'ultimos_7_dias',
};

/** The raw DSL of a validated query (what re-runs it). */
export function draftOf(q: ConsultaVendas): Draft {
  const d: Draft = { metrica: q.metrica, agrupar_por: q.agrupar_por };
  if (q.periodo) d.periodo = q.periodo;
  else {
    d.data_inicio = q.data_inicio;
    d.data_fim = q.data_fim;
  }
  if (q.modalidades.length > 0 && q.modalidades.length < MODALIDADES.length) {
    d.modalidades = [...q.modalidades];
  }
  if (q.agrupar_por !== 'nenhum') {
    if (q.ordem) d.ordem = q.ordem;
    if (q.limite !== null) d.limite = q.limite;
  }
  return d;
}

export function withPeriodo(d: Draft, periodo: Periodo): Draft {
  const { data_inicio: _i, data_fim: _f, ...rest } = d;
  return { ...rest, periodo };
}

export function withRange(d: Draft, data_inicio: string, data_fim: string): Draft {
  const { periodo: _p, ...rest } = d;
  return { ...rest, data_inicio, data_fim };
}

export function withMetrica(d: Draft, metrica: Metrica): Draft {
  return { ...d, metrica };
}

/** Ordering and top-N only make sense with a grouping: dropped when grouping is removed. */
export function withAgrupamento(d: Draft, agrupar_por: Agrupamento): Draft {
  if (agrupar_por === 'nenhum') {
    const { ordem: _o, limite: _l, ...rest } = d;
    return { ...rest, agrupar_por };
  }
  return { ...d, agrupar_por };
}

/** Every modality (or none) means no filter. Kept in the canonical order. */
export function withModalidades(d: Draft, mods: readonly Modalidade[]): Draft {
  const set = new Set(mods);
  const chosen = MODALIDADES.filter((m) => set.has(m));
  const { modalidades: _m, ...rest } = d;
  return chosen.length === 0 || chosen.length === MODALIDADES.length
    ? rest
    : { ...rest, modalidades: chosen };
}

/** Removes the ordering/top-N (the "só o maior" chip). */
export function withoutRanking(d: Draft): Draft {
  const { ordem: _o, limite: _l, ...rest } = d;
  return rest;
}

/** pt-BR problem with a typed date range, or null when it can run. */
export function rangeProblem(inicio: string, fim: string): string | null {
  if (!isIsoDate(inicio)) return 'Informe a data inicial.';
  if (!isIsoDate(fim)) return 'Informe a data final.';
  if (fim < inicio) return 'A data final não pode ser anterior à inicial.';
  const days = periodLength({ data_inicio: inicio, data_fim: fim });
  if (days > MAX_PERIOD_DAYS) {
    return `O período tem ${days} dias; o máximo é ${MAX_PERIOD_DAYS}. Escolha um período menor.`;
  }
  return null;
}
