import { randomBytes } from 'node:crypto';
import { createPool, type Databases } from '../../src-main/db/pool';
import { ANALYTICS_ROLE, APP_ROLE } from '../../src-main/db/roles';
import { urlForDatabase, urlForRole } from '../../src-main/db/urls';
import { TEST_ROLE_PASSWORD } from './constants';
import { withClient } from './pg-server';

export interface TestDatabase extends Databases {
  name: string;
  adminUrl: string;
  appUrl: string;
  analyticsUrl: string;
  /** Closes the pools and drops the database. */
  drop(): Promise<void>;
}

/** A fresh database cloned from the run's migrated template (no vitest/playwright imports). */
export async function cloneTestDatabase(
  serverUrl: string,
  template: string,
): Promise<TestDatabase> {
  const name = `balcao_t_${randomBytes(5).toString('hex')}`;
  await withClient(serverUrl, (c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  const adminUrl = urlForDatabase(serverUrl, name);
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
      await withClient(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}
