/**
 * One PostgreSQL server for a test run — DATABASE_URL when set, otherwise an embedded one
 * started here — plus a migrated template database that each test (file or worker) clones.
 * Used by vitest's global setup and by Playwright's, so both suites get the same database
 * logic. No vitest or playwright imports here.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startEmbedded, type EmbeddedServer } from '../../src-main/db/embedded';
import { migrate } from '../../src-main/db/migrate';
import { urlForDatabase } from '../../src-main/db/urls';
import { ANALYTICS_ROLE, APP_ROLE } from '../../src-main/db/roles';
import { TEST_ROLE_PASSWORD } from './constants';

/** Arbitrary constant key of the advisory lock that serialises template setup per server. */
const CLUSTER_SETUP_LOCK = 7_301_202_611;

export interface TestPgServer {
  /** Admin URL of the server's `postgres` database. */
  serverUrl: string;
  /** Name of the migrated template database. */
  template: string;
  mode: 'external' | 'embedded';
  /** Drops the template and stops the embedded server (if we started one). */
  stop(): Promise<void>;
}

export async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** One query on a connection of its own, opened and closed around it. */
export function queryOnce<T extends pg.QueryResultRow>(
  url: string,
  text: string,
  values: unknown[] = [],
): Promise<pg.QueryResult<T>> {
  return withClient(url, (c) => c.query<T>(text, values));
}

export async function startTestPgServer(
  env: NodeJS.ProcessEnv = process.env,
): Promise<TestPgServer> {
  let embedded: EmbeddedServer | undefined;
  let tmp: string | undefined;
  let serverUrl: string;
  if (env.DATABASE_URL) {
    serverUrl = urlForDatabase(env.DATABASE_URL, 'postgres');
  } else {
    tmp = mkdtempSync(join(tmpdir(), 'balcao-pg-'));
    chmodSync(tmp, 0o755); // the postgres system user (when we are root) must enter it
    embedded = await startEmbedded(tmp);
    serverUrl = urlForDatabase(embedded.adminUrl, 'postgres');
  }
  const template = `balcao_tpl_${randomBytes(4).toString('hex')}`;
  await withClient(serverUrl, async (c) => {
    await c.query(`CREATE DATABASE ${template}`);
  });
  // Roles and their settings are cluster-wide: two runs migrating at once on one server (several
  // developers or suites sharing DATABASE_URL) fail with "tuple concurrently updated". Advisory
  // locks are per database, so every run takes the same lock in the `postgres` database.
  await withClient(serverUrl, async (c) => {
    await c.query('SELECT pg_advisory_lock($1)', [CLUSTER_SETUP_LOCK]);
    try {
      await migrate(urlForDatabase(serverUrl, template));
      // Roles are created by the migration; give them a known test password.
      for (const role of [APP_ROLE, ANALYTICS_ROLE]) {
        await c.query(`ALTER ROLE ${role} PASSWORD ${c.escapeLiteral(TEST_ROLE_PASSWORD)}`);
      }
    } finally {
      await c.query('SELECT pg_advisory_unlock($1)', [CLUSTER_SETUP_LOCK]);
    }
  });
  return {
    serverUrl,
    template,
    mode: embedded ? 'embedded' : 'external',
    async stop() {
      await withClient(serverUrl, async (c) => {
        await c.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
      }).catch(() => undefined);
      if (embedded) await embedded.stop();
      if (tmp) rmSync(tmp, { recursive: true, force: true });
    },
  };
}
