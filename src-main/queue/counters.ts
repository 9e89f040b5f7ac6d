/**
 * The review queue's maintained counters (migration 0740): writers append deltas, this fold
 * moves them into `fila_contagens`. It runs on its own in the background fold of the app and of
 * every worker (src-main/sales/consolidate.ts), one process at a time (try-lock in SQL). Reads
 * never depend on it: they add the deltas not folded yet.
 */
import type pg from 'pg';

/** Folds every pending delta; -1 when another process is folding right now. */
export async function consolidarFila(pool: pg.Pool): Promise<number> {
  const r = await pool.query<{ k: number }>('SELECT balcao_fila_consolidar() AS k');
  return r.rows[0]?.k ?? 0;
}

/**
 * Drops the live queue's change log older than 10 minutes (migration 1060); on the same timer as
 * the counters' fold. Returns the rows removed.
 */
export async function podarMudancas(pool: pg.Pool): Promise<number> {
  const r = await pool.query<{ n: number }>('SELECT balcao_fila_mudancas_podar() AS n');
  return r.rows[0]?.n ?? 0;
}
