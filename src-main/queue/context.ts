import type { ServiceDeps } from '../deps';
import type { QueueContext } from './actions';
import { createReviewEngine } from './engine';
import { engineRules } from './rules-engine';

/** The queue context the app uses: app-role pool, the one clock, the engine and its rules. */
export function createQueueContext(deps: ServiceDeps): QueueContext {
  return {
    pool: deps.dbs.app,
    clock: deps.clock,
    settings: deps.settings,
    rules: engineRules,
    engine: createReviewEngine({ settings: deps.settings, clock: deps.clock }),
  };
}
