import type { Settings } from '../../settings/types';
import type { CliContext } from '../context';
import { CliError } from '../io';

/** The settings of a benchmark run, whose DATABASE_URL (a superuser's) is set and well-formed. */
export async function benchSettings(c: CliContext): Promise<Settings & { databaseUrl: string }> {
  const s = c.settings.get();
  if (!s.databaseUrl) {
    throw new CliError(
      'O benchmark precisa de um servidor PostgreSQL: defina DATABASE_URL com um superusuário (ex.: postgres://postgres@127.0.0.1:5432/postgres).',
    );
  }
  const { parseDatabaseUrl } = await import('../../db/urls');
  parseDatabaseUrl(s.databaseUrl);
  return { ...s, databaseUrl: s.databaseUrl };
}
