import type { ServiceDeps } from '../../deps';
import type { Handlers } from '../types';
import { appHandlers } from './app';
import { questionsHandlers } from './questions';
import { reviewHandlers } from './review';
import { salesHandlers } from './sales';
import { settingsHandlers } from './settings';
import { sessionHandlers } from './session';
import type { SessionSource } from '../../people/session';

/**
 * Every contract channel's handler; the `Handlers` type fails to compile if one is missing.
 * Without `session` (tests, the bridge's default) the app runs as one service login with every
 * permission and no sign-in.
 */
export function createHandlers(deps: ServiceDeps, session?: SessionSource): Handlers {
  return {
    ...sessionHandlers(deps, session),
    ...appHandlers(deps),
    ...settingsHandlers(deps),
    ...reviewHandlers(deps),
    ...salesHandlers(deps),
    ...questionsHandlers(deps),
  };
}
