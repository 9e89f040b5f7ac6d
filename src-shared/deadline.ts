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

/** What the queue's Prazo column says of an open item: the mark, or the time left. */
export interface DeadlineStatus {
  kind: 'no_prazo' | DeadlineMark['kind'];
  text: string;
}

/** Minutes left, as people say them: "45 min", "1 h 40 min", "12 h", "3 d". */
function left(min: number): string {
  if (min < 60 || min >= 48 * 60) return span(min);
  const h = Math.floor(min / 60);
  const m = min % 60;
  return h < 10 && m ? `${h} h ${m} min` : `${h} h`;
}

/**
 * The deadline as the Prazo column shows it (#39.2): "atrasado há 1 h" and "vence em 12 min"
 * (the marks), otherwise the time left in other words ("faltam 1 h 40 min", "falta 1 d"), so
 * only a marked item reads "vence em". Null without a deadline (closed items).
 */
export function deadlineStatus(
  p: ItemDeadline | null | undefined,
  now: number,
): DeadlineStatus | null {
  if (!p) return null;
  const mark = deadlineMark(p, now);
  if (mark) return mark;
  const t = left(Math.ceil((Date.parse(p.ate) - now) / 60_000));
  return { kind: 'no_prazo', text: `${t.startsWith('1 ') ? 'falta' : 'faltam'} ${t}` };
}
