import type { Channel } from '@shared/contract';
import type { DomainChannels } from '../channels';
import type { ServiceDeps } from '../deps';
import { saveWhatsAppSettings, whatsappSettingsView } from './stored-config';

export type WhatsAppChannel = Extract<Channel, `whatsapp/${string}`>;

/**
 * The WhatsApp settings in Configurações (#37.5): anyone signed in sees them (never a secret,
 * only whether it is set); a supervisor changes them (the contract's permissions and the
 * database's column grants, migration 1090).
 */
export function whatsappChannels(deps: ServiceDeps): DomainChannels<WhatsAppChannel> {
  return {
    'whatsapp/settings': () => whatsappSettingsView(deps.dbs.app),
    'whatsapp/saveSettings': (patch) => saveWhatsAppSettings(deps.dbs.app, patch),
  };
}
