import type { ServiceDeps } from '../../deps';
import { testApiKey } from '../../llm/test-key';
import type { PartialHandlers } from '../types';

type SettingsChannels =
  | 'settings/get'
  | 'settings/update'
  | 'settings/setApiKey'
  | 'settings/clearApiKey'
  | 'settings/testApiKey';

export function settingsHandlers(deps: ServiceDeps): PartialHandlers<SettingsChannels> {
  const s = deps.settings;
  return {
    'settings/get': async () => s.view(),
    'settings/update': async (patch) => {
      s.update(patch);
      return s.view();
    },
    'settings/setApiKey': async ({ apiKey }) => {
      s.setApiKey(apiKey);
      return s.view();
    },
    'settings/clearApiKey': async () => {
      s.clearApiKey();
      return s.view();
    },
    'settings/testApiKey': async () => testApiKey(s),
  };
}
