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
    server: { deps: { inline: ['electron-store'] } },
  },
});
