import { readAnalytics } from '../../db/analytics';
import type { ServiceDeps } from '../../deps';
import { searchMerchants } from '../../sales/merchants';
import { createSalesPanel } from '../../sales/panel';
import type { PartialHandlers } from '../types';

type SalesChannels =
  | 'sales/merchants'
  | 'sales/session'
  | 'sales/selectMerchant'
  | 'sales/ask'
  | 'sales/cancel'
  | 'sales/run';

export function salesHandlers(deps: ServiceDeps): PartialHandlers<SalesChannels> {
  const panel = createSalesPanel(deps);
  return {
    // Where the sales questions read (the replica when configured), with the same fallback.
    'sales/merchants': async ({ query, limit }) =>
      (await readAnalytics(deps, (pools) => searchMerchants(pools.appRead, query, limit))).value,
    'sales/session': async (_input, ctx) => panel.view(ctx),
    'sales/selectMerchant': ({ merchantId }, ctx) => panel.selectMerchant(ctx, merchantId),
    'sales/ask': (input, ctx) => panel.ask(ctx, input),
    'sales/cancel': async ({ requestId }, ctx) => panel.cancel(ctx, requestId),
    'sales/run': ({ consulta }, ctx) => panel.run(ctx, consulta),
  };
}
