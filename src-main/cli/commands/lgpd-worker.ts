/** `balcao worker`'s LGPD retention job (#38.3), with BALCAO_RETENCAO_DIAS read from the env. */
import type PgBoss from 'pg-boss';
import type pg from 'pg';
import { startRetentionJob, type RetentionJob } from '../../lgpd/job';
import { retentionDays } from '../../lgpd/retention';
import type { CliContext } from '../context';
import { CliError } from '../io';

export async function startRetentionFor(
  c: CliContext,
  pool: pg.Pool,
  boss: PgBoss,
): Promise<RetentionJob> {
  let dias: number;
  try {
    dias = retentionDays(c.env);
  } catch (e) {
    throw new CliError(e instanceof Error ? e.message : String(e), 2);
  }
  return startRetentionJob({ pool, boss, clock: c.clock, logger: c.logger, dias });
}
