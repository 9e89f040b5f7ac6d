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
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    server: { deps: { inline: ['electron-store'] } },
  },
});
