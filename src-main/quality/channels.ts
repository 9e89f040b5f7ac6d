import type { Channel } from '@shared/contract';
import type { DomainChannels } from '../channels';
import type { ServiceDeps } from '../deps';
import { dispatchDepsOf } from '../psp/channels';
import { cancelWrongCharge } from './redo';
import { judgeSample, nextSample, qualityReport } from './review';

export type QualityChannel = Extract<Channel, `quality/${string}`>;

/**
 * The quality review's channels (#39.4), supervisor-only by the contract's permissions. The
 * judge is recorded as the `operator` setting at call time (a person's login when signed in).
 */
export function qualityChannels(deps: ServiceDeps): DomainChannels<QualityChannel> {
  return {
    'quality/next': (input) => nextSample(deps.dbs.app, input),
    'quality/judge': (input) =>
      judgeSample(deps.dbs.app, { ...input, operador: deps.settings.get().operator }),
    'quality/report': () => qualityReport(deps.dbs.app, deps.settings.get().amostraQualidade),
    'quality/cancelCharge': (input) =>
      cancelWrongCharge(dispatchDepsOf(deps), input, deps.settings.get().operator),
  };
}
