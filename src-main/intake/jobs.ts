/**
 * The intake's jobs live in PostgreSQL through pg-boss 10 (schema `pgboss`, installed by
 * migration 0621; queue `intake`). Workers, `enqueue` and `serve` share these helpers.
 * pg-boss fetches with FOR UPDATE SKIP LOCKED in arrival order (created_on) and retries a
 * failed or expired job with backoff; what makes a retry safe is ours (see process.ts).
 */
import PgBoss from 'pg-boss';
import type pg from 'pg';
import type { Logger } from '../util/logger';

export const INTAKE_QUEUE = 'intake';

/** The data of one intake job: the `mensagens` row to process. */
export interface IntakeJobData {
  mensagem: number;
  /** How often this message's job was put off because an earlier one of its merchant was pending. */
  adiamentos?: number;
}

/** pg-boss's database interface over one of our pools or clients (no second pool). */
export function bossDb(db: pg.Pool | pg.PoolClient): PgBoss.Db {
  return {
    executeSql: async (text: string, values: unknown[]) => {
      const r = await db.query(text, values?.length ? values : undefined);
      return { rows: r.rows };
    },
  };
}

export interface BossOptions {
  /** Run pg-boss maintenance here (expire jobs of dead workers, archive); workers do. */
  supervise?: boolean;
  maintenanceIntervalSeconds?: number;
  logger?: Logger;
}

/** A started pg-boss on `pool` (schema installed by our migrations: migrate off). */
export async function startBoss(pool: pg.Pool, opts: BossOptions = {}): Promise<PgBoss> {
  const boss = new PgBoss({
    db: bossDb(pool),
    schema: 'pgboss',
    migrate: false,
    schedule: false,
    supervise: opts.supervise ?? false,
    maintenanceIntervalSeconds: opts.maintenanceIntervalSeconds ?? 30,
  });
  boss.on('error', (err: unknown) => opts.logger?.warn({ err }, 'pg-boss: erro'));
  await boss.start();
  return boss;
}

/** Seconds after which pg-boss hands a job of a vanished worker to another (BALCAO_JOB_EXPIRA_S). */
export function jobExpireSeconds(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.BALCAO_JOB_EXPIRA_S);
  return Number.isInteger(n) && n >= 5 && n <= 3600 ? n : 120;
}

/**
 * A worker's lease of a message: half the job's expiry, at most 30 s (renewed every third of it
 * while the worker lives). A job pg-boss expires because its worker died then finds the lease
 * expired too, and the retry resumes at once instead of waiting for it.
 */
export function leaseMsFor(expireSeconds: number = jobExpireSeconds()): number {
  return Math.min(30_000, expireSeconds * 500);
}

/** How often a worker runs pg-boss's maintenance (which expires dead workers' jobs). */
export function maintenanceSecondsFor(expireSeconds: number = jobExpireSeconds()): number {
  return Math.max(1, Math.min(10, Math.floor(expireSeconds / 2)));
}

/** Inserts the jobs of newly accepted messages inside the caller's transaction. */
export async function insertJobs(
  boss: PgBoss,
  c: pg.PoolClient,
  mensagens: readonly number[],
  expireInSeconds: number = jobExpireSeconds(),
): Promise<void> {
  if (!mensagens.length) return;
  await boss.insert(
    mensagens.map((mensagem) => ({
      name: INTAKE_QUEUE,
      data: { mensagem } satisfies IntakeJobData,
      expireInSeconds,
    })),
    { db: bossDb(c) },
  );
}
