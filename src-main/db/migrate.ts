import { join } from 'node:path';
import { runner } from 'node-pg-migrate';
import { AppError } from '@shared/errors';
import { resourcesDir } from '../util/paths';

export interface MigrateResult {
  applied: string[];
}

/**
 * Applies pending migrations from resources/migrations (SQL files, node-pg-migrate) in one
 * transaction. Idempotent; safe under concurrent starts (node-pg-migrate holds an advisory
 * lock). A database whose history disagrees with the files is refused with a pt-BR message.
 */
export async function migrate(databaseUrl: string): Promise<MigrateResult> {
  try {
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
  } catch (e) {
    const msg = e instanceof Error ? e.message : '';
    const order = /Not run migration (\S+) is preceding already run migration (\S+)/.exec(msg);
    if (order) {
      throw new AppError(
        'configuracao',
        `O histórico de migrações deste banco não bate com esta versão do Balcão: ${order[1]} ainda não foi aplicada, mas ${order[2]} (posterior) já foi. Use um banco novo ou restaure um backup compatível.`,
      );
    }
    const missing = /Migration (\S+) not found|migrations? .* not found/i.exec(msg);
    if (missing) {
      throw new AppError(
        'configuracao',
        'Este banco foi migrado por uma versão mais nova do Balcão. Atualize o aplicativo.',
      );
    }
    throw e;
  }
}
