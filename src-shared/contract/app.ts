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
}

export const appContract = {
  'app/info': defineChannel<AppInfo>()(z.object({}).strict()),
} as const;
