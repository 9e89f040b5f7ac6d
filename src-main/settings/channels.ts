import type { DomainChannels } from '../channels';
import { forgetApiKey, storeApiKey, updateSettings } from './edit';
import type { SettingsSource } from './types';

/** `settings/testApiKey` calls the model: it lives with `llm` (`llm/channels.ts`). */
export type SettingsChannel =
  'settings/get' | 'settings/update' | 'settings/setApiKey' | 'settings/clearApiKey';

/** The settings page's channels: the settings as the page shows them, and its edits. */
export function settingsChannels(settings: SettingsSource): DomainChannels<SettingsChannel> {
  return {
    'settings/get': async () => settings.view(),
    'settings/update': async (patch) => updateSettings(settings, patch),
    'settings/setApiKey': async ({ apiKey }) => storeApiKey(settings, apiKey),
    'settings/clearApiKey': async () => forgetApiKey(settings),
  };
}
