import type { Clock } from './clock';
import type { Databases } from './db/pool';
import type { PixClient } from './psp/client';
import type { LinkClient } from './psp/links';
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
  /**
   * The PSP's API Pix client (#36), built in main from BALCAO_PSP_*, and the payment-link
   * service's (BALCAO_LINK_*); absent or null: none configured (charges stay `pendente`, the
   * screens say so).
   */
  psp?: { client: PixClient | null; links?: LinkClient | null };
}
