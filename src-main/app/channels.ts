import type { DomainChannels } from '../channels';
import type { ServiceDeps } from '../deps';
import { appInfo } from './info';

export type AppChannel = 'app/info';

/** The status bar's channel: version, database mode and health, zone, today, operator. */
export function appChannels(deps: ServiceDeps): DomainChannels<AppChannel> {
  return { 'app/info': () => appInfo(deps) };
}
