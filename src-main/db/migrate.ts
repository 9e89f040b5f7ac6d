import { join } from 'node:path';
import { runner } from 'node-pg-migrate';
import { resourcesDir } from '../util/paths';

export interface MigrateResult {
  applied: string[];
}

/**
 * Applies pending migrations from resources/migrations (SQL files, node-pg-migrate).
 * Idempotent; safe under concurrent starts (node-pg-migrate holds an advisory lock).
 */
export async function migrate(databaseUrl: string): Promise<MigrateResult> {
  const applied = await runner({
    databaseUrl,
    dir: join(resourcesDir(), 'migrations'),
    migrationsTable: 'pgmigrations',
    direction: 'up',
    count: Infinity,
    checkOrder: true,
    singleTransaction: true,
    log: () => undefined,
    verbose: false,
  });
  return { applied: applied.map((m) => m.name) };
}
