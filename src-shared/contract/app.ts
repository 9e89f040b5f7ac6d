import { z } from '../zod';
import { defineChannel } from './define';

export interface AppInfo {
  version: string;
  /** 'embedded' when the app runs its own PostgreSQL in the user-data folder. */
  database: 'embedded' | 'external';
  databaseOk: boolean;
  timeZone: string;
  today: string;
  operator: string;
  /**
   * When ANALYTICS_DATABASE_URL is a separate endpoint (a replica, #16): whether it answers and how
   * far behind the primary it is. Absent/null when analytics reads the primary itself.
   */
  analytics?: AnalyticsInfo | null;
}

export interface AnalyticsInfo {
  ok: boolean;
  replica: boolean;
  atraso_s: number | null;
  /** Above BALCAO_MAX_LAG_S (or unknown). */
  desatualizado: boolean;
  /** pt-BR, for the status bar: "Réplica: em dia", "Réplica: 95 s atrás", "Réplica: sem resposta". */
  texto: string;
}

export const appContract = {
  'app/info': defineChannel<AppInfo>()(z.object({}).strict()),
} as const;
