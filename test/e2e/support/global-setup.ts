/**
 * Playwright global setup: refuse to run without Chromium or without a build (clear message,
 * never a silent skip), then start the run's PostgreSQL server — DATABASE_URL if set, else an
 * embedded one — with a migrated template that each worker clones.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_RENDERER_DIR } from '../../bridge/server';
import { startTestPgServer } from '../../support/pg-server';
import { assertChromium } from './chromium';

export const ENV_SERVER = 'BALCAO_E2E_PG_SERVER';
export const ENV_TEMPLATE = 'BALCAO_E2E_PG_TEMPLATE';

export default async function globalSetup(): Promise<() => Promise<void>> {
  assertChromium();
  if (!existsSync(join(DEFAULT_RENDERER_DIR, 'index.html'))) {
    throw new Error(
      'Renderer não construído (out/renderer/index.html ausente). Rode `npm run build` antes ' +
        '(`npm test` e `npm run test:e2e` já fazem isso).',
    );
  }
  const server = await startTestPgServer();
  // Workers inherit the environment of the runner process.
  process.env[ENV_SERVER] = server.serverUrl;
  process.env[ENV_TEMPLATE] = server.template;
  return () => server.stop();
}
