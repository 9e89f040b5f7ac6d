import { appChannels } from '../app/channels';
import type { Handlers } from '../channels';
import type { ServiceDeps } from '../deps';
import { questionsChannels } from '../evals/channels';
import { lgpdChannels } from '../lgpd/channels';
import { llmChannels } from '../llm/channels';
import { merchantsChannels } from '../merchants/channels';
import { sessionChannels } from '../people/channels';
import type { SessionSource } from '../people/session';
import { pixChannels } from '../psp/channels';
import { pspSettingsChannels } from '../psp/settings-channels';
import { qualityChannels } from '../quality/channels';
import { reviewChannels } from '../queue/channels';
import { createQueueContext } from '../queue/context';
import { salesChannels } from '../sales/channels';
import { settingsChannels } from '../settings/channels';
import { whatsappChannels } from '../whatsapp/channels';
import { WindowRegistry } from '../windows';

/**
 * Every contract channel's handler, gathered from the domains that own them (`<domain>/channels.ts`);
 * the `Handlers` type fails to compile if one is missing. One `WindowRegistry` holds the
 * per-window state of all of them (leases, the sales panel) and cleans it up when a window
 * closes. Without `session` (tests, the bridge's default) the app runs as one service login
 * with every permission and no sign-in.
 */
export function createHandlers(deps: ServiceDeps, session?: SessionSource): Handlers {
  const windows = new WindowRegistry();
  return {
    ...sessionChannels(deps, session),
    ...appChannels(deps),
    ...settingsChannels(deps.settings),
    ...llmChannels(deps.settings),
    ...reviewChannels(createQueueContext(deps), windows),
    ...salesChannels(deps, windows),
    ...questionsChannels(deps),
    ...pixChannels(deps),
    ...qualityChannels(deps),
    ...lgpdChannels(deps),
    ...merchantsChannels(deps),
    ...whatsappChannels(deps),
    ...pspSettingsChannels(deps),
  };
}
