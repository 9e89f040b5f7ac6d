import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { createPool, type Databases } from '../../src-main/db/pool';
import { ANALYTICS_ROLE, APP_ROLE } from '../../src-main/db/roles';
import { urlForDatabase, urlForRole } from '../../src-main/db/urls';

import { TEST_ROLE_PASSWORD } from './constants';

export { TEST_ROLE_PASSWORD };

export interface TestDatabase extends Databases {
  name: string;
  adminUrl: string;
  appUrl: string;
  analyticsUrl: string;
  /** Closes the pools and drops the database. */
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database for one test file (cloned from the run's template).
 * Usage: `let db: TestDatabase; beforeAll(async () => { db = await createTestDatabase(); });
 * afterAll(() => db.drop());`
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const server = inject('pgServerUrl');
  const template = inject('pgTemplateDb');
  const name = `balcao_t_${randomBytes(5).toString('hex')}`;
  const c = new pg.Client({ connectionString: server });
  await c.connect();
  try {
    await c.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  } finally {
    await c.end();
  }
  const adminUrl = urlForDatabase(server, name);
  const appUrl = urlForRole(adminUrl, APP_ROLE, TEST_ROLE_PASSWORD);
  const analyticsUrl = urlForRole(adminUrl, ANALYTICS_ROLE, TEST_ROLE_PASSWORD);
  const admin = createPool(adminUrl, { max: 4 });
  const app = createPool(appUrl, { max: 4 });
  const analytics = createPool(analyticsUrl, { max: 4 });
  return {
    name,
    adminUrl,
    appUrl,
    analyticsUrl,
    admin,
    app,
    analytics,
    async drop() {
      await Promise.allSettled([admin.end(), app.end(), analytics.end()]);
      const d = new pg.Client({ connectionString: server });
      await d.connect();
      try {
        await d.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await d.end();
      }
    },
  };
}
