/**
 * The retention pass as a pg-boss job (#38.3), run by `balcao worker`: every worker offers one
 * job per hour under one singleton key (so a team of workers runs one pass an hour, whichever
 * takes it), and the pass itself is batch-by-batch idempotent (retention.ts): a worker killed
 * mid-pass leaves the job to expire and be retried, which goes on where the last batch ended.
 */
import type PgBoss from 'pg-boss';
import type pg from 'pg';
import type { Clock } from '../clock';
import type { Logger } from '../util/logger';
import { retentionCutoff, runRetention, totalOf, type RetentionCounts } from './retention';

export const RETENCAO_QUEUE = 'lgpd-retencao';
/** Seconds between the passes a worker offers. */
export const RETENCAO_INTERVALO_S = 3600;

export interface RetentionJobOptions {
  pool: pg.Pool;
  boss: PgBoss;
  clock: Clock;
  logger: Logger;
  /** BALCAO_RETENCAO_DIAS, already read. */
  dias: number;
  lote?: number;
  intervaloS?: number;
  pollingIntervalSeconds?: number;
  /** After each pass (tests). */
  onPass?: (c: RetentionCounts) => void;
}

export interface RetentionJob {
  stop(): Promise<void>;
}

export async function startRetentionJob(opts: RetentionJobOptions): Promise<RetentionJob> {
  const stopping = new AbortController();
  await opts.boss.work(
    RETENCAO_QUEUE,
    { batchSize: 1, pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 30 },
    async () => {
      const antes = retentionCutoff(opts.clock, opts.dias);
      const c = await runRetention(opts.pool, {
        antes,
        ...(opts.lote ? { lote: opts.lote } : {}),
        signal: stopping.signal,
      });
      if (totalOf(c)) opts.logger.info({ retencao: c, dias: opts.dias }, 'lgpd: retenção');
      opts.onPass?.(c);
    },
  );
  const intervaloS = opts.intervaloS ?? RETENCAO_INTERVALO_S;
  const offer = () =>
    opts.boss
      .send(
        RETENCAO_QUEUE,
        {},
        { singletonKey: 'retencao', singletonSeconds: intervaloS, expireInSeconds: 3600 },
      )
      .catch((err: unknown) => opts.logger.warn({ err }, 'lgpd: retenção não agendada'));
  await offer();
  const timer = setInterval(() => void offer(), intervaloS * 1000);
  timer.unref();
  return {
    async stop() {
      stopping.abort();
      clearInterval(timer);
      await opts.boss.offWork(RETENCAO_QUEUE);
    },
  };
}
