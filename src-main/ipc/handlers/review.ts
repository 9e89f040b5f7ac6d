import type { ServiceDeps } from '../../deps';
import { getExtraction, listQueue } from '../../queue/list';
import type { PartialHandlers } from '../types';

export function reviewHandlers(deps: ServiceDeps): PartialHandlers<'review/list' | 'review/get'> {
  return {
    'review/list': (input) => listQueue(deps.dbs.app, input),
    'review/get': ({ id }) => getExtraction(deps.dbs.app, id),
  };
}
