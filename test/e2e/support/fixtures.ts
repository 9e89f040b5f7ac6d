/**
 * Playwright fixtures for every e2e test of the renderer. Import `test` and `expect` from here.
 *
 * Per worker: `testDb` (a fresh database cloned from the run's migrated template, loaded with
 * deterministic demo data), `serviceDeps` (what main would pass to services: memory settings
 * isolated from your shell's environment, a fixed clock, the test database), and `bridge`
 * (the test bridge serving out/renderer with createHandlers(serviceDeps)).
 * Per test: `page` already opened in the app (logged in to the bridge, at `#/fila`), plus
 * `network` — requests the page tried outside the bridge (blocked) — and `consoleErrors`.
 *
 * Custom services (e.g. a fake Messages API): override `serviceDeps` in `test.extend`:
 *
 *   const t = test.extend<{}, { fakeApi: FakeApi }>({
 *     fakeApi: [async ({}, use) => { const f = await startFakeApi(); await use(f); await f.close(); },
 *               { scope: 'worker' }],
 *     serviceDeps: [async ({ testDb, fakeApi }, use) =>
 *         use(makeServiceDeps(testDb, { settings: { anthropicBaseUrl: fakeApi.url },
 *                                       apiKey: 'sk-ant-teste-0000000000000000' })),
 *       { scope: 'worker' }],
 *   });
 *
 * Or start a private bridge inside one test (fresh settings/session state):
 *   `const b = await startTestBridge({ deps: makeServiceDeps(testDb) }); await openApp(page, b);`
 */
import {
  test as base,
  expect,
  type Browser,
  type Fixtures,
  type Page,
  type PlaywrightTestArgs,
  type PlaywrightTestOptions,
  type PlaywrightWorkerArgs,
  type PlaywrightWorkerOptions,
} from '@playwright/test';
import { fixedClock, type Clock } from '../../../src-main/clock';
import { seedDemo } from '../../../src-main/db/seed';
import type { ServiceDeps } from '../../../src-main/deps';
import { createMemorySettings } from '../../../src-main/settings/memory';
import type { Settings } from '../../../src-main/settings/types';
import { silentLogger } from '../../../src-main/util/logger';
import { startBridge, type Bridge, type BridgeOptions } from '../../bridge/server';
import { startFakeAnthropic, type FakeAnthropic } from '../../support/fake-anthropic';
import { cloneTestDatabase, type TestDatabase } from '../../support/testdb';
import { ENV_SERVER, ENV_TEMPLATE } from './global-setup';

/** The instant every e2e test lives at (demo data spans the 18 months before it). */
export const E2E_NOW = new Date('2026-11-30T15:00:00Z');
export const E2E_TIME_ZONE = 'America/Sao_Paulo';

export interface SeedSize {
  merchants: number;
  transactions: number;
}

/** A fresh database from the run's template (call `drop()` when done). */
export function freshTestDatabase(): Promise<TestDatabase> {
  const server = process.env[ENV_SERVER];
  const template = process.env[ENV_TEMPLATE];
  if (!server || !template) {
    throw new Error('Banco de teste ausente: rode pelo playwright.config.ts (global setup).');
  }
  return cloneTestDatabase(server, template);
}

export interface DepsOptions {
  /** Settings over the defaults (the process environment is NOT read). */
  settings?: Partial<Settings>;
  /** An API key as if set in the app. */
  apiKey?: string;
  clock?: Clock;
  /** Environment seen by the settings (default: empty, so your shell does not leak in). */
  env?: NodeJS.ProcessEnv;
}

/** What the Electron main process would build, over a test database. */
export function makeServiceDeps(db: TestDatabase, opts: DepsOptions = {}): ServiceDeps {
  const settings = createMemorySettings(
    {
      timeZone: E2E_TIME_ZONE,
      operator: 'agente.teste',
      databaseUrl: db.adminUrl,
      ...opts.settings,
    },
    opts.env ?? {},
  );
  if (opts.apiKey) settings.setApiKey(opts.apiKey);
  return {
    settings,
    clock: opts.clock ?? fixedClock(E2E_NOW),
    dbs: { admin: db.admin, app: db.app, analytics: db.analytics },
    logger: silentLogger,
    databaseMode: 'external',
    appVersion: '0.0.0-e2e',
  };
}

/** Origins of the bridges started in this worker: the only places pages may reach. */
const bridgeOrigins = new Set<string>();

/** Starts a bridge the `network` guard lets pages reach (use it for private bridges). */
export async function startTestBridge(options: BridgeOptions): Promise<Bridge> {
  const bridge = await startBridge(options);
  bridgeOrigins.add(bridge.origin);
  const close = bridge.close.bind(bridge);
  return {
    ...bridge,
    close: async () => {
      bridgeOrigins.delete(bridge.origin);
      await close();
    },
  };
}

/**
 * Another person's desktop: their own copy of the app (a bridge with their operator) against the
 * same database, open at `hash` in a pt-BR page of its own. `close` ends both.
 */
export async function openSecondDesktop(
  browser: Browser,
  db: TestDatabase,
  operator: string,
  hash: string,
  viewport = { width: 1366, height: 768 },
): Promise<{ page: Page; close: () => Promise<void> }> {
  const bridge = await startTestBridge({
    deps: makeServiceDeps(db, { settings: { operator } }),
  });
  const context = await browser.newContext({
    locale: 'pt-BR',
    timezoneId: E2E_TIME_ZONE,
    viewport,
  });
  const close = async () => {
    await context.close();
    await bridge.close();
  };
  try {
    const page = await context.newPage();
    await openApp(page, bridge, hash);
    return { page, close };
  } catch (e) {
    await close();
    throw e;
  }
}

/** Opens the app in `page` through the bridge and waits for the shell. */
export async function openApp(page: Page, bridge: Bridge, hash = '#/fila'): Promise<void> {
  await page.goto(bridge.loginUrl);
  // The shell first settles on its default area (the URL has no hash); only then is the route
  // set, so a late "go to the default area" can never overwrite it.
  await expect(page.getByRole('navigation', { name: 'Áreas' })).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.location.hash)).not.toBe('');
  if (hash) {
    await page.evaluate((h) => (window.location.hash = h), hash);
    await expect.poll(() => page.evaluate(() => window.location.hash)).toBe(hash);
  }
}

export interface NetworkLog {
  /** URLs the page tried to load outside the bridge (all were aborted). */
  blocked: string[];
}

interface WorkerFixtures {
  seedSize: SeedSize;
  testDb: TestDatabase;
  serviceDeps: ServiceDeps;
  bridge: Bridge;
}

interface TestFixtures {
  network: NetworkLog;
  consoleErrors: string[];
}

/** A worker's database: fresh from the template, loaded with the demo data. */
async function demoDatabase(
  { seedSize }: { seedSize: SeedSize },
  use: (db: TestDatabase) => Promise<void>,
): Promise<void> {
  const db = await freshTestDatabase();
  await seedDemo(db.admin, { now: E2E_NOW, timeZone: E2E_TIME_ZONE, ...seedSize });
  await use(db);
  await db.drop();
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  seedSize: [
    { merchants: 4, transactions: 4000 },
    { scope: 'worker', option: true },
  ],
  testDb: [demoDatabase, { scope: 'worker' }],
  serviceDeps: [async ({ testDb }, use) => use(makeServiceDeps(testDb)), { scope: 'worker' }],
  bridge: [
    async ({ serviceDeps }, use) => {
      const bridge = await startTestBridge({ deps: serviceDeps });
      await use(bridge);
      await bridge.close();
    },
    { scope: 'worker' },
  ],
  network: async ({ context }, use) => {
    const log: NetworkLog = { blocked: [] };
    // Belt and braces: the CSP already forbids the network; anything that slips is recorded.
    await context.route(
      (url) => !bridgeOrigins.has(url.origin),
      (route) => {
        log.blocked.push(route.request().url());
        return route.abort('blockedbyclient');
      },
    );
    await use(log);
  },
  // Filled by `page` below: console errors and uncaught exceptions of the app page.
  // eslint-disable-next-line no-empty-pattern
  consoleErrors: async ({}, use) => use([]),
  page: async ({ page, bridge, network: _network, consoleErrors }, use) => {
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(String(e)));
    await openApp(page, bridge);
    await use(page);
  },
});

export { expect };

/** The API key of the e2e app when it talks to the fake Messages API. */
export const E2E_API_KEY = 'sk-ant-teste-0000000000000000000000';

export interface FakeApiFixtures {
  fakeApi: FakeAnthropic;
}

/**
 * The app with an API key, its model being the fake Messages API over real HTTP (one per worker,
 * no retries): `const withKey = test.extend<object, FakeApiFixtures>(fakeApiFixtures);`.
 */
export const fakeApiFixtures: Fixtures<
  object,
  FakeApiFixtures,
  PlaywrightTestArgs & PlaywrightTestOptions & TestFixtures,
  PlaywrightWorkerArgs & PlaywrightWorkerOptions & WorkerFixtures
> = {
  fakeApi: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const f = await startFakeAnthropic();
      await use(f);
      await f.close();
    },
    { scope: 'worker' },
  ],
  serviceDeps: [
    async ({ testDb, fakeApi }, use) =>
      use(
        makeServiceDeps(testDb, {
          settings: { anthropicBaseUrl: fakeApi.url, maxRetries: 0 },
          apiKey: E2E_API_KEY,
        }),
      ),
    { scope: 'worker' },
  ],
};

/**
 * For a spec that rewrites the demo data (holds, discards, renames): `test.extend(ownDatabase)`
 * registers `testDb` again, so its tests run in workers of their own, on a database no other
 * spec reads — the other specs' expectations of the demo data stay true whatever runs first.
 */
export const ownDatabase: Fixtures<
  object,
  object,
  PlaywrightTestArgs & PlaywrightTestOptions & TestFixtures,
  PlaywrightWorkerArgs & PlaywrightWorkerOptions & WorkerFixtures
> = {
  testDb: [demoDatabase, { scope: 'worker' }],
};
