import type { Clock } from '../clock';
import { systemClock } from '../clock';
import type { ConnectedDatabases } from '../db/connect';
import { createMemorySettings } from '../settings/memory';
import type { SettingsSource } from '../settings/types';
import { defaultDataDir, embeddedDbDir } from '../util/dataDir';
import { createLogger, type Logger } from '../util/logger';
import type { CliIO } from './io';

/** What every subcommand gets: settings from the environment, lazy databases, output. */
export interface CliContext {
  io: CliIO;
  env: NodeJS.ProcessEnv;
  settings: SettingsSource;
  logger: Logger;
  clock: Clock;
  /** Opens (once) the databases: DATABASE_URL, or the app's embedded one. Migrates first. */
  databases(opts?: { migrate?: boolean }): Promise<ConnectedDatabases>;
  /** Set by a command that printed its own result but must still exit non-zero. */
  exitCode?: number;
  /** Closes whatever was opened. */
  close(): Promise<void>;
}

export function createCliContext(io: CliIO, env: NodeJS.ProcessEnv = process.env): CliContext {
  const settings = createMemorySettings({}, env);
  const logger = createLogger(env.BALCAO_LOG_LEVEL ?? 'warn');
  let dbs: Promise<ConnectedDatabases> | undefined;
  return {
    io,
    env,
    settings,
    logger,
    clock: systemClock,
    databases(opts = {}) {
      // Loaded on first use: `--help`, `--version` and usage errors never load database code.
      dbs ??= import('../db/connect').then(({ connectDatabases }) =>
        connectDatabases({
          settings: settings.get(),
          embeddedDir: embeddedDbDir(defaultDataDir(env)),
          migrate: opts.migrate ?? true,
          logger,
        }),
      );
      return dbs;
    },
    async close() {
      if (dbs) await (await dbs.catch(() => undefined))?.close();
    },
  };
}
