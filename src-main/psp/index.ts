import type { Clock } from '../clock';
import { createPixClient, type PixClient } from './client';
import { pspConfig } from './config';

/** The API Pix client configured in the environment, or null when BALCAO_PSP_URL is unset. */
export function pixClientFromEnv(env: NodeJS.ProcessEnv, clock: Clock): PixClient | null {
  const cfg = pspConfig(env);
  return cfg ? createPixClient(cfg, { clock }) : null;
}
