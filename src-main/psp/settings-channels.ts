import type { Channel } from '@shared/contract';
import type { DomainChannels } from '../channels';
import type { ServiceDeps } from '../deps';
import { pspSettingsView, savePspSettings } from './stored-config';

export type PspSettingsChannel = Extract<Channel, `psp/${string}`>;

/**
 * The PSP and payment-link settings in Configurações (#36.6): anyone signed in sees them (never a
 * secret, only whether it is set); a supervisor changes them (the contract's permissions and the
 * database's column grants, migration 1120).
 */
export function pspSettingsChannels(deps: ServiceDeps): DomainChannels<PspSettingsChannel> {
  return {
    'psp/settings': () => pspSettingsView(deps.dbs.app),
    'psp/saveSettings': (patch) => savePspSettings(deps.dbs.app, patch),
  };
}
