/**
 * `balcao worker`: a headless process that drains the intake queue. Run as many as needed, on
 * as many machines: pg-boss hands each job to one worker (FOR UPDATE SKIP LOCKED, arrival
 * order), the shared limits live in PostgreSQL (limiter.ts), and a job whose worker vanished
 * is expired by pg-boss's maintenance and retried elsewhere — resuming from the stored attempts.
 *
 * A merchant's backlog drains in arrival order, one message at a time: a job whose message has
 * an earlier one of its merchant pending is put off (a new job, later — the backoff grows with
 * each put-off), and the worker that stores an outcome goes on with that merchant's next
 * message in line at once (up to DRAIN_MAX per job, then hands it to any worker), so the order
 * costs no waiting.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type PgBoss from 'pg-boss';
import type pg from 'pg';
import type { Clock } from '../clock';
import { createClaudeClient } from '../llm/client';
import { extractionChargeRules } from '../queue/rules';
import type { SettingsSource } from '../settings/types';
import type { Logger } from '../util/logger';
import {
  INTAKE_QUEUE,
  jobExpireSeconds,
  leaseMsFor,
  maintenanceSecondsFor,
  startBoss,
  type IntakeJobData,
} from './jobs';
import { createLimiter, type IntakeLimiter } from './limiter';
import { markFailed, processMessage, type ProcessDeps, type ProcessResult } from './process';
import { startVendasConsolidador } from '../sales/consolidate';

const round = (ms: number) => Math.round(ms * 1000) / 1000;

/** How many of a merchant's next messages a worker takes in one job after its own. */
export const DRAIN_MAX = 20;

/** Seconds a job waits when its message is not first in line: 1, 2, 4 … up to 30. */
export function putOffSeconds(putOffs: number): number {
  return Math.min(30, 2 ** Math.max(0, Math.min(putOffs, 5)));
}
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
    rules: extractionChargeRules,
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
  const expireInSeconds = jobExpireSeconds();
  // Where a message's time went (debug log 'intake: tempos', one line per message processed;
  // `balcao bench-intake` reads it): waiting for a slot or the shared pause, inside the model
  // calls (HTTP, SDK retries), and the rest — Balcão's own work (lease, stored attempts,
  // validation, the outcome's commit).
  const timed = async (jobId: string, mensagem: number): Promise<ProcessResult> => {
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
            job: jobId,
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
      opts.onJob?.({ mensagem, ok: false, erro: e instanceof Error ? e.message : String(e) });
      throw e;
    }
  };
  /**
   * After an outcome: the merchant's next messages in line, while they are free — up to
   * DRAIN_MAX, and for at most a third of the job's expiry; then the next one is handed to any
   * worker at once (a new job now), so the merchant's backlog never waits for a put-off job.
   */
  const drain = async (jobId: string, first: number | null, started: number) => {
    let next = first;
    for (let n = 0; next !== null; n++) {
      const budgetLeft = performance.now() - started < (expireInSeconds * 1000) / 3;
      if (n >= DRAIN_MAX || !budgetLeft || stopping.signal.aborted) {
        await boss
          // Ahead of the backlog (pg-boss fetches by priority, then age): it is first in line.
          .send(INTAKE_QUEUE, { mensagem: next } satisfies IntakeJobData, {
            expireInSeconds,
            priority: 1,
          })
          .catch((e: unknown) =>
            // Its own (put-off) job still takes it later.
            opts.logger.warn({ mensagem: next, err: e }, 'intake: não passou a próxima adiante'),
          );
        return;
      }
      try {
        const r = await timed(jobId, next);
        next = r.feito === 'processada' ? r.proxima : null;
      } catch (e) {
        // Its own job retries it (or marks it); this job's message is done.
        opts.logger.info(
          { mensagem: next, erro: e instanceof Error ? e.message : String(e) },
          'intake: próxima do lojista fica para o seu job',
        );
        return;
      }
    }
  };
  const handler = async (jobs: PgBoss.JobWithMetadata<IntakeJobData>[]) => {
    for (const job of jobs) {
      const mensagem = Number(job.data?.mensagem);
      const started = performance.now();
      try {
        const r = await timed(job.id, mensagem);
        if (r.feito === 'aguarda_anterior') {
          // Not its merchant's turn: a new job, later; this one completes. (A crash between
          // the two leaves both, and a second job for a message is a no-op.)
          const adiamentos = (job.data?.adiamentos ?? 0) + 1;
          await boss.send(INTAKE_QUEUE, { mensagem, adiamentos } satisfies IntakeJobData, {
            startAfter: putOffSeconds(adiamentos - 1),
            expireInSeconds,
          });
          return r;
        }
        if (r.feito === 'processada') await drain(job.id, r.proxima, started);
        return r;
      } catch (e) {
        const erro = e instanceof Error ? e.message : String(e);
        if (job.retryCount >= job.retryLimit) {
          // Last retry: marked `erro` unless a live worker holds it (then that one finishes it).
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
