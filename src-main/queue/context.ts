import type { ServiceDeps } from '../deps';
import type { QueueContext } from './actions';
import { createExtractionRerunner } from './rerunner';
import { extractionChargeRules } from './rules';

/**
 * The queue context the app uses: app-role pool, the one clock, the extraction's charge rules
 * and the extraction re-run.
 */
export function createQueueContext(deps: ServiceDeps): QueueContext {
  return {
    pool: deps.dbs.app,
    clock: deps.clock,
    settings: deps.settings,
    rules: extractionChargeRules,
    rerunner: createExtractionRerunner({ settings: deps.settings, clock: deps.clock }),
  };
}
