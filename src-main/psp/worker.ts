/**
 * The dispatch's jobs (#36): queue `cobrancas` of pg-boss (created by migration 0900; the
 * charge's first job is written by the statement that creates it). A worker runs each job's
 * step ({@link syncCharge}) and, every `sweepS` seconds, the reconciliation: open charges with
 * no change for a bound get a step (a lost webhook, a dead worker's dispatch).
 */
import type PgBoss from 'pg-boss';
import type pg from 'pg';
import type { Clock } from '../clock';
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
  for (let i = 0; i < Math.max(1, opts.concurrency ?? 2); i++) {
    await opts.boss.work<CobrancaJobData>(
      COBRANCAS_QUEUE,
      { batchSize: 1, pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 0.5 },
      async ([job]) => {
        if (!job) return;
        const id = Number(job.data.cobranca);
        if (!Number.isSafeInteger(id) || id <= 0) return;
        const r = await syncCharge(deps, id);
        opts.logger.info({ cobranca: id, resultado: r }, 'psp: passo da cobrança');
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
