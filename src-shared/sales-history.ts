/**
 * A window's question history, one rule for both sides: main records every question a window
 * asks; the panel applies the same rule to the `pergunta` a `sales/ask` answer returns, instead
 * of fetching the session again.
 */

/** Questions kept per window (most recent last). */
export const HISTORY_LIMIT = 50;

/** The history with `question` added: a repeated question moves to the end, never duplicates. */
export function withHistoryEntry(history: readonly string[], question: string): string[] {
  const q = question.trim();
  if (!q) return [...history];
  const next = history.filter((h) => h !== q);
  next.push(q);
  return next.length > HISTORY_LIMIT ? next.slice(next.length - HISTORY_LIMIT) : next;
}
