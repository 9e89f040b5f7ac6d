/**
 * The fixed query mix of the benchmark: DSL inputs as the model would send them (validated and
 * resolved by the sales answer at run time). Every metric, every grouping, every filter shape and the
 * four windows (today, last week, this month, the last 12 months — the longest window), asked of
 * each of the three merchants.
 */
import type { ConsultarVendasRaw } from '@shared/sales-dsl';
import { addDays } from '@shared/time';

export interface MixQuery {
  /** Stable name: metrica·agrupamento·janela·filtro[·top1]. */
  name: string;
  /** The longest window (the issue's ≥ 10× target applies to these for the biggest merchant). */
  anual: boolean;
  dsl: ConsultarVendasRaw;
}

type Janela = 'hoje' | 'semana_passada' | 'este_mes' | '12_meses';

const CREDITO = ['credito_avista', 'credito_parcelado'] as const;

function q(
  janela: Janela,
  hoje: string,
  metrica: NonNullable<ConsultarVendasRaw['metrica']>,
  agrupar_por: NonNullable<ConsultarVendasRaw['agrupar_por']>,
  extra: Pick<ConsultarVendasRaw, 'modalidades' | 'ordem' | 'limite'> = {},
): MixQuery {
  const periodo: Pick<ConsultarVendasRaw, 'periodo' | 'data_inicio' | 'data_fim'> =
    janela === '12_meses'
      ? { data_inicio: addDays(hoje, -364), data_fim: hoje }
      : { periodo: janela };
  const filtro = extra.modalidades?.length ? extra.modalidades.join('+') : 'todas';
  const top = extra.limite ? `·top${extra.limite}` : '';
  return {
    name: `${metrica}·${agrupar_por}·${janela}·${filtro}${top}`,
    anual: janela === '12_meses',
    dsl: { metrica, agrupar_por, ...periodo, ...extra },
  };
}

export function queryMix(hoje: string): MixQuery[] {
  const y = '12_meses' as const;
  return [
    // The longest window: every metric, every grouping, with and without filters, "best day".
    q(y, hoje, 'total_bruto', 'nenhum'),
    q(y, hoje, 'total_liquido', 'nenhum'),
    q(y, hoje, 'quantidade', 'nenhum'),
    q(y, hoje, 'ticket_medio', 'nenhum'),
    q(y, hoje, 'total_bruto', 'dia'),
    q(y, hoje, 'total_bruto', 'mes'),
    q(y, hoje, 'total_bruto', 'modalidade'),
    q(y, hoje, 'total_bruto', 'bandeira'),
    q(y, hoje, 'total_bruto', 'dia_da_semana'),
    q(y, hoje, 'total_bruto', 'hora'),
    q(y, hoje, 'total_liquido', 'nenhum', { modalidades: [...CREDITO] }),
    q(y, hoje, 'quantidade', 'hora', { modalidades: ['pix'] }),
    q(y, hoje, 'ticket_medio', 'mes', { modalidades: [...CREDITO] }),
    q(y, hoje, 'total_bruto', 'dia', {
      modalidades: [...CREDITO],
      ordem: 'decrescente',
      limite: 1,
    }),
    // This month.
    q('este_mes', hoje, 'total_bruto', 'nenhum'),
    q('este_mes', hoje, 'quantidade', 'dia'),
    q('este_mes', hoje, 'total_liquido', 'modalidade', { modalidades: [...CREDITO] }),
    q('este_mes', hoje, 'ticket_medio', 'hora'),
    // Last week (Monday–Sunday).
    q('semana_passada', hoje, 'total_bruto', 'dia_da_semana'),
    q('semana_passada', hoje, 'quantidade', 'nenhum', { modalidades: ['pix'] }),
    q('semana_passada', hoje, 'ticket_medio', 'bandeira'),
    q('semana_passada', hoje, 'total_liquido', 'dia'),
    // Today.
    q('hoje', hoje, 'total_bruto', 'nenhum'),
    q('hoje', hoje, 'quantidade', 'hora'),
    q('hoje', hoje, 'total_liquido', 'modalidade'),
    q('hoje', hoje, 'ticket_medio', 'nenhum', { modalidades: ['debito'] }),
  ];
}
