import type { DomainChannels } from '../channels';
import type { SettingsSource } from '../settings/types';
import { testApiKey } from './test-key';

/**
 * The settings page's one channel that calls the model: "Testar chave". It lives here, not in
 * `settings/channels.ts`, because settings is a foundation service and imports no other domain.
 */
export type LlmChannel = 'settings/testApiKey';

export function llmChannels(settings: SettingsSource): DomainChannels<LlmChannel> {
  return { 'settings/testApiKey': () => testApiKey(settings) };
}
