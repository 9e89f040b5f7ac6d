import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

const root = resolve(__dirname, '..');

export default defineConfig({
  root,
  resolve: { alias: { '@shared': resolve(root, 'src-shared') } },
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/shell/**/*.test.ts'],
    globalSetup: [
      resolve(__dirname, 'support/global-db.ts'),
      resolve(__dirname, 'support/build-bundles.ts'),
    ],
    // Test servers share roles across many databases on purpose (one per test file): the #12
    // start-up check of the analytics role's reach is off here (tested on its own).
    env: { BALCAO_ANALYTICS_OUTROS_BANCOS: 'permitir' },
    testTimeout: 30_000,
    // No retries, on CI or anywhere: a retry hides exactly the failures users meet. Tests wait
    // for events, not for time, so a loaded machine makes them slower, never red (#40).
    retry: 0,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two test files at a time at least: most of their time is spent waiting on PostgreSQL,
    // workers and HTTP, not on the CPU (a 2-core machine: 593 s with vitest's default of one
    // worker, 323 s with two). Files share one server, so this also keeps them honest about it.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    server: { deps: { inline: ['electron-store'] } },
  },
});
