/** The settings page's edits: each one changes the settings and answers with the page's view. */
import type { SettingsPatch, SettingsView } from '@shared/contract/settings';
import type { SettingsSource } from './types';

export function updateSettings(settings: SettingsSource, patch: SettingsPatch): SettingsView {
  settings.update(patch);
  return settings.view();
}

export function storeApiKey(settings: SettingsSource, apiKey: string): SettingsView {
  settings.setApiKey(apiKey);
  return settings.view();
}

export function forgetApiKey(settings: SettingsSource): SettingsView {
  settings.clearApiKey();
  return settings.view();
}
