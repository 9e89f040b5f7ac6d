import { SITUACAO_LABELS, type FilaEstado, type Situacao } from '@shared/extraction-types';
import type { Tone } from '../components/States';

/** The badge of an item's situation (`extracoes.situacao`, the one definition). */
export const SITUACAO_LABEL = SITUACAO_LABELS;
export const SITUACAO_TONE: Record<Situacao, Tone> = {
  falhou: 'danger',
  incompleto: 'warn',
  com_alerta: 'warn',
  completo: 'info',
  aguardando_lojista: 'info',
};

/** "agora", "12 min", "3 h", "2 d". */
export function formatAge(iso: string, now: number): string {
  const ms = now - Date.parse(iso);
  if (!Number.isFinite(ms) || ms < 60_000) return 'agora';
  const min = Math.floor(ms / 60_000);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 48) return `${h} h`;
  return `${Math.floor(h / 24)} d`;
}

/** "há 2 h" ("agora" under a minute). */
export function formatWaited(iso: string, now: number): string {
  const a = formatAge(iso, now);
  return a === 'agora' ? 'agora' : `há ${a}`;
}

/** The badge text: the situation, and how long the merchant has been waited for. */
export function situacaoText(
  it: { situacao: Situacao; aguardandoDesde: string | null },
  now: number,
): string {
  const label = SITUACAO_LABEL[it.situacao];
  return it.situacao === 'aguardando_lojista' && it.aguardandoDesde
    ? `${label} · ${formatWaited(it.aguardandoDesde, now)}`
    : label;
}

/**
 * The badge of an item as it stands now: a closed item says how it left the queue (#42.4),
 * never the situation it had while open ("Com alerta" after its charge, "Falhou" after a discard).
 */
export function itemBadge(
  it: { situacao: Situacao; aguardandoDesde: string | null; filaEstado: FilaEstado },
  now: number,
): { text: string; tone: Tone } {
  switch (it.filaEstado) {
    case 'resolvida':
      return { text: 'Cobrança criada', tone: 'ok' };
    case 'concluida':
      return { text: 'Cobrança criada automaticamente', tone: 'ok' };
    case 'descartada':
      return { text: 'Descartado', tone: 'neutral' };
    default:
      return { text: situacaoText(it, now), tone: SITUACAO_TONE[it.situacao] };
  }
}

/** USD with enough decimals for token costs. */
export function formatUsd(v: number): string {
  return `US$ ${v.toLocaleString('pt-BR', { minimumFractionDigits: 4, maximumFractionDigits: 4 })}`;
}

export function formatInt(n: number): string {
  return n.toLocaleString('pt-BR');
}
