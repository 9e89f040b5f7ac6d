import type { ServiceDeps } from '../../deps';
import { searchMerchants } from '../../sales/merchants';
import type { PartialHandlers } from '../types';

export function salesHandlers(deps: ServiceDeps): PartialHandlers<'sales/merchants'> {
  return {
    'sales/merchants': ({ query, limit }) => searchMerchants(deps.dbs.app, query, limit),
  };
}
