import { migrate } from '../db/migrate';
import { withClient } from '../db/client';
import { createPool } from '../db/pool';
import { urlForDatabase } from '../db/urls';
import { AppError } from '@shared/errors';
import {
  BENCH_FULL_ROWS,
  BENCH_MARK,
  isBenchMarked,
  ensureBenchData,
  readMeta,
  sameParams,
  type BenchMeta,
  type BenchParams,
  type GenerateProgress,
} from './generate';

/** `balcao_bench` for the full size; a separate database per smaller size. */
export function benchDatabaseName(rows: number): string {
  return rows === BENCH_FULL_ROWS ? 'balcao_bench' : `balcao_bench_${rows}`;
}

/** (Re)creates an empty benchmark database, JIT off (as in the team's measurements). */
async function recreate(serverUrl: string, name: string, exists: boolean): Promise<void> {
  await withClient(serverUrl, async (c) => {
    const id = c.escapeIdentifier(name);
    if (exists) await c.query(`DROP DATABASE ${id} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${id}`);
    // The mark that lets a later run drop it: bench never drops a database it did not create.
    await c.query(`COMMENT ON DATABASE ${id} IS ${c.escapeLiteral(JSON.stringify(BENCH_MARK))}`);
    await c.query(`ALTER DATABASE ${id} SET jit = off`);
  });
}

/**
 * Creates (or reuses) the benchmark database on the server of `serverUrl` (a superuser URL):
 * migrated like any Balcão database, holding the generated data for `params`. A database left
 * by other parameters, another generator version or an interrupted generation is recreated.
 * JIT is switched off for it (as in the team's measurements): plans here are short.
 */
export async function prepareBenchDatabase(
  serverUrl: string,
  name: string,
  params: BenchParams,
  opts: { now: Date; force?: boolean; onProgress?: GenerateProgress },
): Promise<{ url: string; meta: BenchMeta; reused: boolean }> {
  const url = urlForDatabase(serverUrl, name);
  const found = await withClient(serverUrl, async (c) => {
    const r = await c.query<{ c: string | null }>(
      "SELECT shobj_description(oid, 'pg_database') AS c FROM pg_database WHERE datname = $1",
      [name],
    );
    return r.rows[0];
  });
  const exists = found !== undefined;
  if (found && !isBenchMarked(found.c)) {
    throw new AppError(
      'conflito',
      `O banco "${name}" já existe e não foi criado pelo benchmark; o bench só apaga e recria bancos que ele mesmo criou. Escolha outro nome em --banco (ex.: balcao_bench_teste).`,
    );
  }
  let reusable = false;
  if (exists && !opts.force) {
    const pool = createPool(url, { max: 1 });
    try {
      const meta = await readMeta(pool);
      reusable = meta !== null && sameParams(params, meta);
    } finally {
      await pool.end();
    }
  }
  if (!reusable) {
    opts.onProgress?.('criando banco');
    await recreate(serverUrl, name, exists);
  }
  try {
    await migrate(url);
  } catch (e) {
    // A reused database that can no longer be migrated in order (a lower-numbered migration
    // arrived after higher ones ran) is rebuilt from scratch: it only holds generated data.
    if (!reusable) throw e;
    opts.onProgress?.('recriando banco (migrações fora de ordem)');
    await recreate(serverUrl, name, true);
    await migrate(url);
  }
  const pool = createPool(url, { max: 3 });
  try {
    const r = await ensureBenchData(pool, params, opts);
    return { url, ...r };
  } finally {
    await pool.end();
  }
}
