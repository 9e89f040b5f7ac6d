/**
 * How fresh an answer's data is, when sales questions read a streaming replica (#16).
 * Present on an answer only when the analytics endpoint is a hot standby (or the answer fell
 * back from one to the primary); absent when analytics reads the primary itself.
 */
import { DateTime } from 'luxon';

export interface Frescor {
  /** ISO instant up to which the data is complete. */
  dados_ate: string;
  /** Seconds the replica is behind the primary (0 = caught up); null when unknown. */
  atraso_s: number | null;
  /** Above the configured limit (BALCAO_MAX_LAG_S) or unknown: possibly stale. */
  desatualizado: boolean;
  /** Where the answer was read: the replica, or the primary as the configured fallback. */
  fonte: 'replica' | 'primario';
  /** One pt-BR line for people ("dados até 14:32:05", or why it may be stale / came from the primary). */
  aviso: string;
}

/** "14:32:05" on the same local day as `agora`, else "30/11 14:32:05". */
export function formatDadosAte(dadosAte: Date, agora: Date, zone: string): string {
  const d = DateTime.fromJSDate(dadosAte, { zone });
  const hoje = DateTime.fromJSDate(agora, { zone });
  return d.hasSame(hoje, 'day') ? d.toFormat('HH:mm:ss') : d.toFormat('dd/MM HH:mm:ss');
}

/** "95 s", "12 min", "3 h 5 min". */
export function formatAtraso(s: number): string {
  const t = Math.max(0, Math.round(s));
  if (t < 120) return `${t} s`;
  const min = Math.round(t / 60);
  if (min < 120) return `${min} min`;
  const h = Math.floor(min / 60);
  const m = min % 60;
  return m ? `${h} h ${m} min` : `${h} h`;
}

export interface LeituraReplica {
  dadosAte: Date;
  atrasoS: number | null;
}

/** The freshness of an answer read on the replica. */
export function frescorDaReplica(
  l: LeituraReplica,
  opts: { maxLagS: number; agora: Date; zone: string },
): Frescor {
  const desatualizado = l.atrasoS === null || l.atrasoS > opts.maxLagS;
  const ate = `dados até ${formatDadosAte(l.dadosAte, opts.agora, opts.zone)}`;
  let aviso = ate;
  if (l.atrasoS === null) {
    aviso = `${ate} — podem estar desatualizados: não foi possível medir o atraso da réplica`;
  } else if (desatualizado) {
    aviso = `${ate} — podem estar desatualizados: a réplica está ${formatAtraso(l.atrasoS)} atrás do banco principal`;
  }
  return {
    dados_ate: l.dadosAte.toISOString(),
    atraso_s: l.atrasoS === null ? null : Math.round(l.atrasoS * 10) / 10,
    desatualizado,
    fonte: 'replica',
    aviso,
  };
}

/** Why the answer was read on the primary instead of the replica (fallback configured). */
export type MotivoFallback = { tipo: 'atraso'; atrasoS: number | null } | { tipo: 'indisponivel' };

export function frescorDoPrimario(
  motivo: MotivoFallback,
  opts: { agora: Date; zone: string },
): Frescor {
  const porque =
    motivo.tipo === 'indisponivel'
      ? 'a réplica não respondeu'
      : motivo.atrasoS === null
        ? 'não foi possível medir o atraso da réplica'
        : `a réplica está ${formatAtraso(motivo.atrasoS)} atrás`;
  return {
    dados_ate: opts.agora.toISOString(),
    atraso_s: 0,
    desatualizado: false,
    fonte: 'primario',
    aviso: `dados até ${formatDadosAte(opts.agora, opts.agora, opts.zone)}, lidos do banco principal porque ${porque}`,
  };
}
