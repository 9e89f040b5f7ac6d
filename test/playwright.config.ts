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
  // On CI (a loaded 2-core machine) a test gets one more run; one that fails twice fails the
  // run, and the list reporter names every test that needed the second run as flaky.
  retries: process.env.CI ? 1 : 0,
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
