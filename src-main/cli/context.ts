import type { Clock } from '../clock';
import { systemClock } from '../clock';
import type { ConnectedDatabases } from '../db/connect';
import { createMemorySettings } from '../settings/memory';
import type { SettingsSource } from '../settings/types';
import { defaultDataDir, embeddedDbDir } from '../util/dataDir';
import { createLogger, type Logger } from '../util/logger';
import type { CliIO } from './io';
import { spawn } from 'node:child_process';
import { AppError } from '@shared/errors';

/** Default of BALCAO_EMBEDDED_MANTER_S: the embedded server waits 10 min for the next command. */
export const EMBEDDED_MANTER_S = 600;

/**
 * The keeper of the embedded server (#41.8), for commands run through `balcao` (bin.mjs sets
 * BALCAO_CLI_BIN): the next command finds the server up instead of starting it (~2 s).
 * BALCAO_EMBEDDED_MANTER_S=0 stops the server as the last command leaves, as before.
 */
export function embeddedKeeper(
  env: NodeJS.ProcessEnv,
  dir: string,
): { lingerS: number; spawn(): void } | undefined {
  const bin = env.BALCAO_CLI_BIN;
  if (!bin) return undefined;
  const raw = env.BALCAO_EMBEDDED_MANTER_S?.trim();
  const lingerS = raw ? Number(raw) : EMBEDDED_MANTER_S;
  if (!Number.isSafeInteger(lingerS) || lingerS < 0 || lingerS > 86_400) {
    throw new AppError(
      'configuracao',
      `BALCAO_EMBEDDED_MANTER_S deve ser um número inteiro de segundos, de 0 a 86400: "${raw}".`,
    );
  }
  return {
    lingerS,
    spawn() {
      spawn(
        process.execPath,
        [bin, 'db', 'manter-embutido', '--pasta', dir, '--segundos', String(lingerS)],
        {
          detached: true,
          stdio: 'ignore',
          env: { ...env, BALCAO_LOG_LEVEL: 'silent' },
        },
      ).unref();
    },
  };
}

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

/**
 * The CLI's log level (#41.5): BALCAO_LOG_LEVEL when set; else the services that run until
 * stopped (`serve`, `worker`) log warnings and errors as JSON on stderr, and every other command
 * logs nothing — its stderr is the pt-BR message alone (BALCAO_LOG_LEVEL=debug shows the rest).
 */
export function cliLogLevel(argv: readonly string[], env: NodeJS.ProcessEnv): string {
  if (env.BALCAO_LOG_LEVEL) return env.BALCAO_LOG_LEVEL;
  const command = argv.find((a) => !a.startsWith('-'));
  return command === 'serve' || command === 'worker' ? 'warn' : 'silent';
}

export function createCliContext(
  io: CliIO,
  env: NodeJS.ProcessEnv = process.env,
  logLevel: string = env.BALCAO_LOG_LEVEL ?? 'warn',
): CliContext {
  const settings = createMemorySettings({}, env);
  const logger = createLogger(logLevel);
  let dbs: Promise<ConnectedDatabases> | undefined;
  return {
    io,
    env,
    settings,
    logger,
    clock: systemClock,
    databases(opts = {}) {
      // Loaded on first use: `--help`, `--version` and usage errors never load database code.
      dbs ??= import('../db/connect').then(({ connectDatabases }) => {
        const embeddedDir = embeddedDbDir(defaultDataDir(env));
        const keeper = embeddedKeeper(env, embeddedDir);
        return connectDatabases({
          settings: settings.get(),
          embeddedDir,
          migrate: opts.migrate ?? true,
          logger,
          ...(keeper ? { embeddedKeeper: keeper } : {}),
        });
      });
      return dbs;
    },
    async close() {
      if (dbs) await (await dbs.catch(() => undefined))?.close();
    },
  };
}
