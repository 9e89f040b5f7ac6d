import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import pg from 'pg';
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
export async function migrate(
  databaseUrl: string,
  opts: { lockWaitMs?: number } = {},
): Promise<MigrateResult> {
  // Several processes starting at once (workers on a fresh deploy): the ones that find the lock
  // taken wait for the first to finish — bounded — and then find nothing left to apply.
  const deadline = Date.now() + (opts.lockWaitMs ?? 60_000);
  for (;;) {
    try {
      return await migrateOnce(databaseUrl);
    } catch (e) {
      const busy =
        e instanceof Error &&
        (/Another migration is already running/.test(e.message) || sharedCatalogRace(e));
      if (!busy || Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 200 + Math.random() * 300));
    }
  }
}

/**
 * Roles (and their settings and memberships) belong to the whole server, not to one database:
 * two databases of one server migrated at the same moment (the bench's own database while the
 * app's starts; tests in parallel) update the same role rows, and the later one fails with
 * "tuple concurrently updated" (or a duplicate role) once the first commits. Its migration ran in
 * one transaction and rolled back whole: it is tried again, and then finds the roles in place.
 */
function sharedCatalogRace(e: unknown): boolean {
  const pgErr = e as { code?: unknown; message?: unknown; constraint?: unknown };
  const message = typeof pgErr.message === 'string' ? pgErr.message : '';
  if (pgErr.code === 'XX000') return /^tuple concurrently (updated|deleted)$/.test(message);
  if (pgErr.code === '23505') {
    const constraint = typeof pgErr.constraint === 'string' ? pgErr.constraint : message;
    return /\bpg_(authid|auth_members|db_role_setting|shdepend|shdescription)_/.test(constraint);
  }
  return false;
}

async function migrateOnce(databaseUrl: string): Promise<MigrateResult> {
  const dir = join(resourcesDir(), 'migrations');
  await refuseNewerDatabase(databaseUrl, dir);
  try {
    const applied = await runner({
      databaseUrl,
      dir,
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
    throw e;
  }
}

/** A database that ran migrations this version does not ship was migrated by a newer Balcão. */
async function refuseNewerDatabase(databaseUrl: string, dir: string): Promise<void> {
  const known = new Set(
    readdirSync(dir)
      .filter((f) => f.endsWith('.sql'))
      .map((f) => basename(f, '.sql')),
  );
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const exists = await client.query<{ t: string | null }>(
      "SELECT to_regclass('public.pgmigrations')::text AS t",
    );
    if (!exists.rows[0]?.t) return;
    const ran = await client.query<{ name: string }>('SELECT name FROM pgmigrations ORDER BY id');
    const unknown = ran.rows.map((r) => r.name).filter((n) => !known.has(n));
    if (unknown.length) {
      throw new AppError(
        'configuracao',
        `Este banco foi migrado por uma versão mais nova do Balcão (${unknown.join(', ')}). Atualize o aplicativo.`,
      );
    }
  } finally {
    await client.end();
  }
}
