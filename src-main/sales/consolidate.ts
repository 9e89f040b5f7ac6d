/**
 * The background fold of the sales rollups (migration 0580): moves the sales above the watermark
 * and the logged updates/deletes into the rollups, so writers of transacoes never touch them.
 *
 * One fold = two transactions on one connection:
 * 1. `balcao_vendas_candidata_segura()` (autocommit): is the recorded candidate watermark safe,
 *    i.e. have all transactions that held a write lock on transacoes when it was taken ended?
 *    Checked BEFORE step 2's snapshot, so their commits are visible to it.
 * 2. REPEATABLE READ: `balcao_vendas_consolidar(segura)` folds up to the safe candidate, applies
 *    the log, records the next candidate, in one transaction — killed midway, nothing of it stays.
 * Safe from any number of processes at once (app, worker): a try-lock skips a fold while another
 * runs, and the state row locked FOR UPDATE turns an overlapping fold into a serialization error
 * (reported as `ocupado`), never a double count.
 */
import type pg from 'pg';
import type { Logger } from '../util/logger';
import { consolidarFila, podarMudancas } from '../queue/counters';

export interface FoldResult {
  /** Another fold was running (or finished after this one's snapshot): nothing done. */
  ocupado: boolean;
  /** Highest transacoes id now in the rollups. */
  marca: number;
  /** Rows folded from above the old watermark. */
  novas: number;
  /** Log entries consumed (applied or made moot). */
  ajustes: number;
  /** Next candidate watermark (null: none pending). */
  candidata: number | null;
}

export interface FoldOptions {
  /** Most rows folded from above the watermark in one fold (bounded transaction). */
  lote?: number;
  /** statement_timeout of the fold transaction, ms. */
  timeoutMs?: number;
  /** lock_timeout, ms (e.g. an ALTER TABLE holding transacoes). */
  lockTimeoutMs?: number;
}

const clampMs = (n: number) => Math.max(1, Math.min(Math.trunc(n), 3_600_000));

/** Serialization failure / lock not available / deadlock: another fold or a DDL got there first. */
const SKIP_CODES = new Set(['40001', '55P03', '40P01']);

/** One fold (see the module comment). Throws on database errors other than a lost race. */
export async function consolidarVendas(pool: pg.Pool, opts: FoldOptions = {}): Promise<FoldResult> {
  const lote = Math.max(1, Math.trunc(opts.lote ?? 500_000));
  const client = await pool.connect();
  let broken: Error | undefined;
  // A connection lost mid-fold rejects the query below; the client's own 'error' event must not
  // become an uncaught exception meanwhile.
  const onError = (e: Error) => {
    broken ??= e;
  };
  client.on('error', onError);
  try {
    const s = await client.query<{ segura: string | null }>(
      'SELECT balcao_vendas_candidata_segura() AS segura',
    );
    const segura = s.rows[0]?.segura ?? null;
    // Constant text (clamped integers): one round trip. synchronous_commit off: the fold's COMMIT
    // does not wait for (nor force) a WAL flush of its own — the writers' commits, which are
    // WAL-flush bound, do not queue behind it. Safe: the fold is all-or-nothing with its
    // watermark in the same transaction, so one lost in a crash is simply folded again.
    await client.query(
      `BEGIN ISOLATION LEVEL REPEATABLE READ; SET LOCAL statement_timeout = ${clampMs(opts.timeoutMs ?? 120_000)}; SET LOCAL lock_timeout = ${clampMs(opts.lockTimeoutMs ?? 2_000)}; SET LOCAL synchronous_commit = off`,
    );
    try {
      const r = await client.query<{ r: Record<string, unknown> }>({
        text: 'SELECT balcao_vendas_consolidar($1::bigint, $2::bigint) AS r',
        values: [segura, lote],
      });
      await client.query('COMMIT');
      const o = r.rows[0]?.r ?? {};
      if (o.ocupado === true)
        return { ocupado: true, marca: 0, novas: 0, ajustes: 0, candidata: null };
      return {
        ocupado: false,
        marca: Number(o.marca),
        novas: Number(o.novas),
        ajustes: Number(o.ajustes),
        candidata: o.candidata === null || o.candidata === undefined ? null : Number(o.candidata),
      };
    } catch (e) {
      await client.query('ROLLBACK').catch((err: unknown) => {
        broken = err instanceof Error ? err : new Error(String(err));
      });
      const code = typeof e === 'object' && e && 'code' in e ? String(e.code) : '';
      if (SKIP_CODES.has(code))
        return { ocupado: true, marca: 0, novas: 0, ajustes: 0, candidata: null };
      throw e;
    }
  } catch (e) {
    broken ??= e instanceof Error ? e : new Error(String(e));
    throw e;
  } finally {
    client.removeListener('error', onError);
    client.release(broken);
  }
}

/** Folds until the watermark reaches every sale committed before the call (tests, bench). */
export async function consolidarTudo(pool: pg.Pool, maxRounds = 50): Promise<FoldResult> {
  let last: FoldResult | undefined;
  for (let i = 0; i < maxRounds; i++) {
    last = await consolidarVendas(pool);
    if (!last.ocupado && last.candidata === null && last.novas === 0 && last.ajustes === 0) {
      return last;
    }
    if (last.ocupado) await new Promise((r) => setTimeout(r, 20));
  }
  if (!last) throw new Error('consolidação não rodou');
  return last;
}

export interface Consolidador {
  /** Stops the timer and waits for a fold in progress. */
  stop(): Promise<void>;
}

/**
 * Runs the fold on its own every `intervalMs` (default 1 s), in this process: the app's main
 * process and the worker both start one. Back-to-back while a backlog remains (full batches);
 * errors are logged and retried with a growing pause (up to 30 s). The timer does not keep the
 * process alive.
 */
export function startVendasConsolidador(
  pool: pg.Pool,
  opts: FoldOptions & {
    intervalMs?: number;
    logger?: Logger;
    /** After each tick: how long it took (both folds), whether it failed. */
    onTick?: (t: { ms: number; ok: boolean }) => void;
  } = {},
): Consolidador {
  const interval = Math.max(10, opts.intervalMs ?? 1_000);
  const lote = Math.max(1, Math.trunc(opts.lote ?? 500_000));
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let failures = 0;

  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick().finally(() => {
        running = undefined;
      });
    }, ms);
    timer.unref();
  };

  const tick = async () => {
    let next = interval;
    const t0 = performance.now();
    let ok = false;
    try {
      const r = await consolidarVendas(pool, { ...opts, lote });
      // The review queue's counters (migration 0740) fold on the same timer.
      await consolidarFila(pool);
      // And the live queue's change log is pruned (migration 1060).
      await podarMudancas(pool);
      failures = 0;
      ok = true;
      if (!r.ocupado && r.novas >= lote) next = 0; // backlog: keep going
    } catch (e) {
      failures++;
      next = Math.min(30_000, interval * 2 ** Math.min(failures, 5));
      opts.logger?.warn({ err: e, falhas: failures }, 'consolidação das vendas falhou');
    }
    opts.onTick?.({ ms: performance.now() - t0, ok });
    schedule(next);
  };

  schedule(0);
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
