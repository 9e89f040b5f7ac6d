import { inject } from 'vitest';
import { cloneTestDatabase, type TestDatabase } from './testdb';
import { TEST_ROLE_PASSWORD } from './constants';

export { TEST_ROLE_PASSWORD };
export type { TestDatabase };

/**
 * A fresh, migrated database for one test file (cloned from the run's template).
 * Usage: `let db: TestDatabase; beforeAll(async () => { db = await createTestDatabase(); });
 * afterAll(() => db.drop());`
 */
export function createTestDatabase(): Promise<TestDatabase> {
  return cloneTestDatabase(inject('pgServerUrl'), inject('pgTemplateDb'));
}
