/**
 * The dispatch's jobs (#36): queue `cobrancas` of pg-boss (created by migration 0900; the
 * charge's first job is written by the statement that creates it). A worker runs each job's
 * step ({@link syncCharge}) and, every `sweepS` seconds, the reconciliation: open charges with
 * no change for a bound get a step (a lost webhook, a dead worker's dispatch).
 */
import type PgBoss from 'pg-boss';
import type pg from 'pg';
import type { Clock } from '../clock';
import { Semaphore } from '../db/pool';
import type { Logger } from '../util/logger';
import type { PixClient } from './client';
import type { LinkClient } from './links';
import { reconcile, syncCharge, type DispatchDeps } from './dispatch';

export const COBRANCAS_QUEUE = 'cobrancas';

export interface CobrancaJobData {
  cobranca: number;
}

/** A job for the next step of a charge, after `seconds`. */
export async function scheduleStep(boss: PgBoss, cobranca: number, seconds = 0): Promise<void> {
  await boss.send(COBRANCAS_QUEUE, { cobranca } satisfies CobrancaJobData, {
    startAfter: Math.max(0, Math.round(seconds)),
  });
}

/** Seconds between reconciliation sweeps (BALCAO_PSP_VARREDURA_S, 1–3600; default 60). */
export function sweepSeconds(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.BALCAO_PSP_VARREDURA_S);
  return Number.isInteger(n) && n >= 1 && n <= 3600 ? n : 60;
}

/** Charges' steps in flight towards the PSP per process (BALCAO_PSP_CONCORRENCIA, 1–64). */
export const PSP_CONCORRENCIA_PADRAO = 16;

export function pspConcurrency(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.BALCAO_PSP_CONCORRENCIA);
  return Number.isInteger(n) && n >= 1 && n <= 64 ? n : PSP_CONCORRENCIA_PADRAO;
}

/** pg-boss work loops of the queue: a batch held up by one slow step does not stop the other. */
const LOOPS = 2;

/** An open charge with no change for this long is checked with the PSP (5 min). */
export const RECONCILIAR_APOS_S = 300;

export interface PspWorkerOptions {
  pool: pg.Pool;
  boss: PgBoss;
  client: PixClient | null;
  /** The payment-link service (card, boleto, #36.4); null when BALCAO_LINK_URL is unset. */
  links?: LinkClient | null;
  clock: Clock;
  zone: string;
  logger: Logger;
  leaseMs: number;
  /** Steps (calls to the PSP) in flight at once in this process; default {@link pspConcurrency}. */
  concurrency?: number;
  sweepS?: number;
  pollingIntervalSeconds?: number;
}

export interface PspWorker {
  deps: DispatchDeps;
  stop(): Promise<void>;
}

export async function startPspWorker(opts: PspWorkerOptions): Promise<PspWorker> {
  const deps: DispatchDeps = {
    pool: opts.pool,
    client: opts.client,
    links: opts.links ?? null,
    clock: opts.clock,
    zone: opts.zone,
    leaseMs: opts.leaseMs,
    logger: opts.logger,
    schedule: (id, s) => scheduleStep(opts.boss, id, s),
  };
  // pg-boss 10 fetches `batchSize` jobs per poll and waits out the polling interval after each
  // batch; with one job per poll a loop ran 2 steps a second whatever the PSP's speed. Here each
  // loop fetches up to `concurrency` jobs, a full batch fetches again at once (notifyWorker), and
  // one semaphore bounds the steps running across the loops: at most `concurrency` calls to the
  // PSP at a time. Each job is completed or failed on its own (a failed step is retried by
  // pg-boss; the row decides what a step does, so a repeat is harmless).
  const concurrency = Math.max(1, opts.concurrency ?? pspConcurrency());
  const slots = new Semaphore(concurrency);
  const step = async (job: PgBoss.Job<CobrancaJobData>): Promise<void> => {
    const id = Number(job.data.cobranca);
    if (!Number.isSafeInteger(id) || id <= 0) return;
    const release = await slots.acquire(0, () => new Error('sem vaga'));
    try {
      const r = await syncCharge(deps, id);
      opts.logger.info({ cobranca: id, resultado: r }, 'psp: passo da cobrança');
    } finally {
      release();
    }
  };
  for (let i = 0; i < Math.min(LOOPS, concurrency); i++) {
    let worker = '';
    worker = await opts.boss.work<CobrancaJobData>(
      COBRANCAS_QUEUE,
      { batchSize: concurrency, pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 0.5 },
      async (jobs) => {
        const results = await Promise.allSettled(jobs.map(step));
        await Promise.all(
          results.map((r, j) =>
            r.status === 'rejected'
              ? opts.boss.fail(COBRANCAS_QUEUE, jobs[j]!.id, { message: String(r.reason) })
              : undefined,
          ),
        );
        if (worker && jobs.length >= concurrency) opts.boss.notifyWorker(worker);
      },
    );
  }
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const sweepMs = (opts.sweepS ?? 60) * 1000;
  const sweep = () => {
    running = reconcile(deps, {
      olderThanS: RECONCILIAR_APOS_S,
      pendenteS: Math.ceil(opts.leaseMs / 1000),
    })
      .then((r) => {
        if (Object.keys(r).length) opts.logger.info({ reconciliacao: r }, 'psp: reconciliação');
      })
      .catch((err: unknown) => opts.logger.warn({ err }, 'psp: reconciliação falhou'))
      .finally(() => {
        if (!stopped) timer = setTimeout(sweep, sweepMs);
      });
  };
  if (opts.client || opts.links) timer = setTimeout(sweep, Math.min(sweepMs, 1000));
  return {
    deps,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      await opts.boss.offWork(COBRANCAS_QUEUE);
      opts.client?.close();
    },
  };
}
