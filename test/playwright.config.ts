import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from './e2e/support/chromium';

/**
 * Browser tests of the renderer in Debian Chromium, through the local test bridge (the same
 * IPC handlers as Electron). `npm test` builds first; the global setup fails — never skips —
 * when Chromium or the build is missing, and starts the PostgreSQL server for the run.
 */
export default defineConfig({
  testDir: './e2e',
  outputDir: '../test-results',
  globalSetup: './e2e/support/global-setup.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: !!process.env.CI,
  // No retries (#40): a retry hides exactly the failures users meet.
  retries: 0,
  workers: 2,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
    viewport: { width: 1360, height: 860 },
    screenshot: 'on',
    trace: 'retain-on-failure',
    launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS },
  },
});
