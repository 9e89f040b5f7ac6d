import type { DomainChannels } from '../channels';
import type { WindowRegistry } from '../windows';
import type { SalesDeps } from './deps';
import { searchSalesMerchants } from './merchants';
import { createSalesPanel } from './panel';

export type SalesChannel =
  | 'sales/merchants'
  | 'sales/session'
  | 'sales/selectMerchant'
  | 'sales/ask'
  | 'sales/cancel'
  | 'sales/run';

/**
 * The Vendas page's channels: the merchant picker, and the sales panel of the calling window
 * (its merchant, history and questions in flight are per-window state in `windows`).
 */
export function salesChannels(
  deps: SalesDeps,
  windows: WindowRegistry,
): DomainChannels<SalesChannel> {
  const panel = createSalesPanel(deps, windows);
  return {
    'sales/merchants': ({ query, limit }) => searchSalesMerchants(deps, query, limit),
    'sales/session': async (_input, caller) => panel.view(caller),
    'sales/selectMerchant': ({ merchantId }, caller) => panel.selectMerchant(caller, merchantId),
    'sales/ask': (input, caller) => panel.ask(caller, input),
    'sales/cancel': async ({ requestId }, caller) => panel.cancel(caller, requestId),
    'sales/run': ({ consulta }, caller) => panel.run(caller, consulta),
  };
}
