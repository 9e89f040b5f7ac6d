/** The app's IPC handlers over a test database, as the sales and report tests build them. */
import { clockForLocalDate } from '../../src-main/clock';
import type { Databases } from '../../src-main/db/pool';
import { createHandlers } from '../../src-main/ipc/handlers';
import type { Handlers } from '../../src-main/ipc/types';
import { createMemorySettings } from '../../src-main/settings/memory';
import type { SettingsSource } from '../../src-main/settings/types';
import { silentLogger } from '../../src-main/util/logger';

export const HANDLERS_TEST_ZONE = 'America/Sao_Paulo';
/** "Today" of these handlers: Monday 16/03/2026 in São Paulo. */
export const HANDLERS_TEST_HOJE = '2026-03-16';

/**
 * createHandlers over `dbs` on HANDLERS_TEST_HOJE in São Paulo, silent, external database.
 * `settings` defaults to São Paulo with a 3 s query limit and no API key.
 */
export function testHandlers(
  dbs: Databases,
  settings: SettingsSource = createMemorySettings(
    { timeZone: HANDLERS_TEST_ZONE, queryTimeoutMs: 3000 },
    {},
  ),
): Handlers {
  return createHandlers({
    settings,
    clock: clockForLocalDate(HANDLERS_TEST_HOJE, HANDLERS_TEST_ZONE),
    dbs,
    logger: silentLogger,
    databaseMode: 'external',
    appVersion: 'teste',
  });
}

/** Settings with an API key set in the app, talking to the fake Messages API at `url` (no retries). */
export function fakeApiSettings(url: string): SettingsSource {
  const settings = createMemorySettings(
    { timeZone: HANDLERS_TEST_ZONE, queryTimeoutMs: 3000, anthropicBaseUrl: url, maxRetries: 0 },
    {},
  );
  settings.setApiKey('sk-ant-teste-000000000000000000000');
  return settings;
}
