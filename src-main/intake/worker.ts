/**
 * `balcao worker`: a headless process that drains the intake queue. Run as many as needed, on
 * as many machines: pg-boss hands each job to one worker (FOR UPDATE SKIP LOCKED, arrival
 * order), the shared limits live in PostgreSQL (limiter.ts), and a job whose worker vanished
 * is expired by pg-boss's maintenance and retried elsewhere — resuming from the stored attempts.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type PgBoss from 'pg-boss';
import type pg from 'pg';
import type { Clock } from '../clock';
import { createClaudeClient } from '../llm/client';
import { engineRules } from '../queue/rules-engine';
import type { SettingsSource } from '../settings/types';
import type { Logger } from '../util/logger';
import {
  INTAKE_QUEUE,
  leaseMsFor,
  maintenanceSecondsFor,
  startBoss,
  type IntakeJobData,
} from './jobs';
import { createLimiter, type IntakeLimiter } from './limiter';
import { markFailed, processMessage, RetryLater, type ProcessDeps } from './process';
import { startVendasConsolidador } from '../sales/consolidate';

const round = (ms: number) => Math.round(ms * 1000) / 1000;
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

export interface WorkerOptions {
  pool: pg.Pool;
  /** Session URL for the limiter (DIRECT_DATABASE_URL, else the app URL). */
  sessionUrl: string;
  settings: SettingsSource;
  clock: Clock;
  logger: Logger;
  concurrency: number;
  /** Injected client (tests); default: built from settings with the limiter's fetch. */
  client?: Anthropic;
  pollingIntervalSeconds?: number;
  maintenanceIntervalSeconds?: number;
  leaseMs?: number;
  faults?: ProcessDeps['faults'];
  /** Also run the sales rollups' background fold in this process (default true; #15). */
  consolidarVendas?: boolean;
  /** Called after each job (tests, bench). */
  onJob?: (r: { mensagem: number; ok: boolean; erro?: string }) => void;
}

export interface RunningWorker {
  limiter: IntakeLimiter;
  boss: PgBoss;
  stop(): Promise<void>;
}

export async function startWorker(opts: WorkerOptions): Promise<RunningWorker> {
  const s = opts.settings.get();
  const limiter = createLimiter({
    connectionString: opts.sessionUrl,
    cap: s.maxEmVoo,
    logger: opts.logger,
  });
  const client = opts.client ?? createClaudeClient(opts.settings, { fetch: limiter.fetch });
  const deps: ProcessDeps = {
    pool: opts.pool,
    settings: opts.settings,
    clock: opts.clock,
    rules: engineRules,
    client,
    gate: limiter.gate,
    logger: opts.logger,
    leaseMs: opts.leaseMs ?? leaseMsFor(),
    ...(opts.faults ? { faults: opts.faults } : {}),
  };
  const boss = await startBoss(opts.pool, {
    supervise: true,
    maintenanceIntervalSeconds: opts.maintenanceIntervalSeconds ?? maintenanceSecondsFor(),
    logger: opts.logger,
  });
  const stopping = new AbortController();
  const handler = async (jobs: PgBoss.JobWithMetadata<IntakeJobData>[]) => {
    for (const job of jobs) {
      const mensagem = Number(job.data?.mensagem);
      // Where the job's time went (debug log 'intake: tempos'; `balcao bench-intake` reads it):
      // waiting for a slot or the shared pause, inside the model calls (HTTP, SDK retries), and
      // the rest — Balcão's own work (lease, stored attempts, validation, the outcome's commit).
      const t = { inicio: performance.now(), espera: 0, api: 0, chamadas: 0 };
      const gate = <R>(call: () => Promise<R>): Promise<R> => {
        const asked = performance.now();
        return limiter.gate(async () => {
          const got = performance.now();
          t.espera += got - asked;
          try {
            return await call();
          } finally {
            t.api += performance.now() - got;
            t.chamadas++;
          }
        });
      };
      const tempos = (ok: boolean) => {
        const total = performance.now() - t.inicio;
        opts.logger.debug(
          {
            tempos: {
              job: job.id,
              mensagem,
              ok,
              total_ms: round(total),
              espera_ms: round(t.espera),
              api_ms: round(t.api),
              proprio_ms: round(total - t.espera - t.api),
              chamadas: t.chamadas,
              // This process's CPU so far (the bench divides its growth by the jobs between).
              pid: process.pid,
              cpu_ms: round(cpuMs()),
            },
          },
          'intake: tempos',
        );
      };
      try {
        const r = await processMessage({ ...deps, gate }, mensagem, stopping.signal);
        tempos(true);
        opts.onJob?.({ mensagem, ok: true });
        return r;
      } catch (e) {
        tempos(false);
        const erro = e instanceof Error ? e.message : String(e);
        opts.onJob?.({ mensagem, ok: false, erro });
        if (!(e instanceof RetryLater) && job.retryCount >= job.retryLimit) {
          await markFailed(opts.pool, mensagem, erro).catch(() => undefined);
        }
        opts.logger.warn({ mensagem, tentativa_job: job.retryCount, erro }, 'intake: job falhou');
        throw e;
      }
    }
    return undefined;
  };
  for (let i = 0; i < Math.max(1, opts.concurrency); i++) {
    await boss.work<IntakeJobData>(
      INTAKE_QUEUE,
      {
        batchSize: 1,
        includeMetadata: true,
        pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 0.5,
      },
      handler,
    );
  }
  // The sales rollups' fold (migration 0580) runs here too: safe next to the app's (try-lock).
  const fold =
    opts.consolidarVendas === false
      ? undefined
      : startVendasConsolidador(opts.pool, { logger: opts.logger });
  opts.logger.info({ concorrencia: opts.concurrency, em_voo: s.maxEmVoo }, 'intake: worker ativo');
  return {
    limiter,
    boss,
    async stop() {
      stopping.abort();
      await fold?.stop();
      await boss.stop({ graceful: true, timeout: 10_000, close: false, wait: true });
      await limiter.close();
    },
  };
}
