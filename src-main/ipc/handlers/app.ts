import { appInfo } from '../../app-info';
import type { ServiceDeps } from '../../deps';
import type { PartialHandlers } from '../types';

export function appHandlers(deps: ServiceDeps): PartialHandlers<'app/info'> {
  return { 'app/info': () => appInfo(deps) };
}
