import type { ServiceDeps } from '../../deps';
import type { Handlers } from '../types';
import { appHandlers } from './app';
import { questionsHandlers } from './questions';
import { reviewHandlers } from './review';
import { salesHandlers } from './sales';
import { settingsHandlers } from './settings';

/** Every contract channel's handler; the `Handlers` type fails to compile if one is missing. */
export function createHandlers(deps: ServiceDeps): Handlers {
  return {
    ...appHandlers(deps),
    ...settingsHandlers(deps),
    ...reviewHandlers(deps),
    ...salesHandlers(deps),
    ...questionsHandlers(deps),
  };
}
