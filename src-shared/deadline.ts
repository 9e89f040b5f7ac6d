/**
 * The deadline mark of a queue item (#39.2): "vence em 12 min" when less than a quarter of its
 * deadline is left, "atrasado há 1 h" past it; nothing otherwise. Pure: the caller passes now
 * (from the one clock).
 */
export interface ItemDeadline {
  /** When the item entered its situation (ISO). */
  desde: string;
  /** Its deadline (ISO). */
  ate: string;
}

export interface DeadlineMark {
  kind: 'vencendo' | 'atrasado';
  text: string;
}

/** Share of the deadline under which an item is "near". */
export const VENCENDO_FRACAO = 0.25;

function span(min: number): string {
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  return h < 48 ? `${h} h` : `${Math.floor(h / 24)} d`;
}

export function deadlineMark(p: ItemDeadline | null | undefined, now: number): DeadlineMark | null {
  if (!p) return null;
  const ate = Date.parse(p.ate);
  const total = ate - Date.parse(p.desde);
  const left = ate - now;
  if (left <= 0)
    return { kind: 'atrasado', text: `atrasado há ${span(Math.floor(-left / 60_000))}` };
  if (left < total * VENCENDO_FRACAO)
    return { kind: 'vencendo', text: `vence em ${span(Math.ceil(left / 60_000))}` };
  return null;
}
