import type { EventName, Events } from '@shared/contract';
import type { Clock } from './clock';
import { startQueueListener } from './intake/live';
import { systemClock } from './clock';
import { connectDatabases, type ConnectedDatabases } from './db/connect';
import type { ServiceDeps } from './deps';
import { createHandlers } from './ipc/handlers';
import type { Handlers } from './ipc/types';
import type { SettingsSource } from './settings/types';
import { embeddedDbDir } from './util/dataDir';
import type { Logger } from './util/logger';
import { startVendasConsolidador } from './sales/consolidate';

export interface Services {
  deps: ServiceDeps;
  handlers: Handlers;
  dbs: ConnectedDatabases;
  close(): Promise<void>;
}

/**
 * Plain bootstrap (no Electron): connect the databases — DATABASE_URL, or the embedded
 * PostgreSQL under the user-data folder —, migrate, load demo data on the embedded default's
 * first run, start the sales rollups' background fold, and build every IPC handler.
 */
export async function startServices(opts: {
  settings: SettingsSource;
  dataDir: string;
  logger: Logger;
  appVersion: string;
  clock?: Clock;
  env?: NodeJS.ProcessEnv;
  /** Pushes an event to every window (live queue); without it nothing listens. */
  broadcast?: <E extends EventName>(event: E, payload: Events[E]) => void;
}): Promise<Services> {
  const settings = opts.settings.get();
  const dbs = await connectDatabases({
    settings,
    embeddedDir: embeddedDbDir(opts.dataDir, opts.env),
    migrate: true,
    // Demo data only for the embedded default: an external database is the user's own.
    seedIfEmpty: !settings.databaseUrl,
    checkAnalyticsReach: true,
    logger: opts.logger,
  });
  const deps: ServiceDeps = {
    settings: opts.settings,
    clock: opts.clock ?? systemClock,
    dbs,
    logger: opts.logger,
    databaseMode: dbs.mode,
    appVersion: opts.appVersion,
  };
  // The sales rollups' background fold (migration 0580) runs in the main process on a timer, on
  // the app role; the worker runs one too (safe concurrently).
  const fold = startVendasConsolidador(dbs.app, { logger: opts.logger });
  // Live queue: one dedicated session connection (not through a pooler) per app.
  const broadcast = opts.broadcast;
  const live = broadcast
    ? startQueueListener({
        connectionString: settings.directDatabaseUrl ?? dbs.appUrl,
        onChange: (c) => broadcast('review/changed', c),
        logger: opts.logger,
      })
    : null;
  return {
    deps,
    handlers: createHandlers(deps),
    dbs,
    close: async () => {
      await live?.close();
      await fold.stop();
      await dbs.close();
    },
  };
}
