import type { Clock } from './clock';
import type { Databases } from './db/pool';
import type { SettingsSource } from './settings/types';
import type { Logger } from './util/logger';

/** What every service receives. Nothing here imports Electron. */
export interface ServiceDeps {
  settings: SettingsSource;
  clock: Clock;
  dbs: Databases;
  logger: Logger;
  /** 'embedded' when the app runs its own PostgreSQL. */
  databaseMode: 'embedded' | 'external';
  appVersion: string;
}
