import type { ExtractionStatus } from '@shared/extraction-types';
import type { Tone } from '../components/States';

export const STATUS_LABEL: Record<ExtractionStatus, string> = {
  falhou: 'Falhou',
  incompleto: 'Incompleto',
  completo: 'Com alerta',
};
export const STATUS_TONE: Record<ExtractionStatus, Tone> = {
  falhou: 'danger',
  incompleto: 'warn',
  completo: 'info',
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

/** USD with enough decimals for token costs. */
export function formatUsd(v: number): string {
  return `US$ ${v.toLocaleString('pt-BR', { minimumFractionDigits: 4, maximumFractionDigits: 4 })}`;
}

export function formatInt(n: number): string {
  return n.toLocaleString('pt-BR');
}
