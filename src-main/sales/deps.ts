import type { Uso } from '@shared/extraction-types';
import type { Clock } from '../clock';
import type { Databases } from '../db/pool';
import type { SettingsSource } from '../settings/types';
import type { Logger } from '../util/logger';
import type { SalesExecutor } from './execute';
import type { SalesPath } from './path';

/** What answering a sales question needs (the pools, settings, clock and log). */
export interface SalesDeps {
  dbs: Pick<Databases, 'app' | 'analytics' | 'appRead' | 'fallback'>;
  settings: SettingsSource;
  clock: Clock;
  logger: Logger;
  /** How a resolved query is answered (default: the tenant view on the analytics pool). */
  executor?: SalesExecutor;
  /** Receives the path each answer's query took (rollups or base table; benchmarks). */
  onPath?: (path: SalesPath) => void;
}

/** What the model loop of a question cost (for the log). */
export interface ModelTrace {
  tentativas: number;
  modelo: string | null;
  uso: Uso | null;
}
