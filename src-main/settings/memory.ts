import type { SettingsPatch, SettingsView } from '@shared/contract/settings';
import { redactUrl, registerSecret } from '../util/redact';
import { settingsFromEnv } from './defaults';
import type { Settings, SettingsSource } from './types';

/** Settings held in memory, seeded from the environment: the CLI and tests use this. */
export function createMemorySettings(
  overrides: Partial<Settings> = {},
  env: NodeJS.ProcessEnv = process.env,
): SettingsSource {
  let settings: Settings = { ...settingsFromEnv(env), ...overrides };
  let appKey: string | undefined;
  const envKey = env.ANTHROPIC_API_KEY?.trim() || undefined;
  return {
    get: () => settings,
    update(patch: SettingsPatch) {
      settings = { ...settings, ...stripUndefined(patch) };
      return settings;
    },
    getApiKey: () => appKey ?? envKey,
    setApiKey(key) {
      registerSecret(key);
      appKey = key;
    },
    clearApiKey() {
      appKey = undefined;
    },
    view(): SettingsView {
      return toView(settings, appKey ? 'app' : envKey ? 'env' : null, true, null);
    },
  };
}

export function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export function toView(
  s: Settings,
  source: 'app' | 'env' | null,
  canStore: boolean,
  reason: string | null,
): SettingsView {
  return {
    apiKeyConfigured: source !== null,
    apiKeySource: source,
    canStoreApiKey: canStore,
    cannotStoreReason: reason,
    model: s.model,
    timeZone: s.timeZone,
    maxAttempts: s.maxAttempts,
    freeSqlEnabled: s.freeSqlEnabled,
    databaseUrl: s.databaseUrl ? redactUrl(s.databaseUrl) : null,
  };
}
