/** Types and helpers the benchmark modules share (kept apart so they import no cycle). */
import type pg from 'pg';

export interface BenchPools {
  admin: pg.Pool;
  app: pg.Pool;
  analytics: pg.Pool;
}

export interface BenchMerchant {
  id: number;
  papel: 'maior' | 'mediano' | 'pequeno';
  vendas_aprovadas_12_meses: number;
}

/** Nearest-rank percentile of sorted samples. */
export function percentile(sorted: readonly number[], p: number): number {
  if (!sorted.length) return 0;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] ?? 0;
}

export interface IntakeBenchOptions {
  /** A superuser URL of the server (DATABASE_URL). */
  serverUrl: string;
  /** APP_DATABASE_URL / DIRECT_DATABASE_URL when set (pointed at the bench database). */
  appUrl?: string;
  directUrl?: string;
  banco: string;
  mensagens: number;
  workers: number;
  /** Jobs in parallel per worker (`balcao worker --concurrency`). */
  concorrencia: number;
  /** BALCAO_MAX_EM_VOO for the run. */
  emVoo: number;
  matar: boolean;
  latenciaMs: number;
  jitterMs: number;
  taxa429: number;
  taxa5xx: number;
  retryAfterS: number;
  /** BALCAO_JOB_EXPIRA_S for the run: how soon a dead worker's jobs are handed out again. */
  jobExpiraS: number;
  /** Longest the whole run may take (s). */
  prazoS: number;
  timeZone: string;
  /** Base environment of the workers (PATH etc.; database and API variables are set here). */
  env: NodeJS.ProcessEnv;
  onProgress?: (text: string) => void;
}

/**
 * Waits, at most `boundMs`, until no client of `pool` is checked out. A tenant transaction hands
 * its answer back first and releases its connection only after the rollback and session reset
 * that follow (db/tenant.ts, resetAndRelease): a timed unit started right away runs on the other
 * connection while that clean-up still runs on the other core, and pays for it. Called before
 * each timed unit, outside its timing, so no unit pays for the previous one's clean-up (the
 * textbook's, in the interleaved runs). Event-driven: nothing spins while the reset runs.
 */
export async function quiesce(pool: pg.Pool, boundMs = 2_000): Promise<void> {
  const deadline = performance.now() + boundMs;
  while (pool.totalCount > pool.idleCount) {
    const left = deadline - performance.now();
    if (left <= 0) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        pool.off('release', done);
        pool.off('remove', done);
        resolve();
      };
      const timer = setTimeout(done, left);
      pool.on('release', done);
      pool.on('remove', done);
    });
  }
}
