import type { ServiceDeps } from '../../deps';
import { createQueueContext } from '../../queue/context';
import { createQueueService } from '../../queue/service';
import type { PartialHandlers } from '../types';

type ReviewChannel =
  | 'review/list'
  | 'review/filterOptions'
  | 'review/get'
  | 'review/claim'
  | 'review/renew'
  | 'review/release'
  | 'review/validate'
  | 'review/save'
  | 'review/confirm'
  | 'review/askMerchant'
  | 'review/recordAnswer'
  | 'review/reprocess'
  | 'review/discard'
  | 'review/charges'
  | 'review/failureReport';

/** Review queue channels. The operator for leases and audit is the `operator` setting. */
export function reviewHandlers(deps: ServiceDeps): PartialHandlers<ReviewChannel> {
  const q = createQueueService(createQueueContext(deps));
  return {
    'review/list': (input) => q.list(input),
    'review/filterOptions': (input) => q.filterOptions(input),
    'review/get': ({ id }) => q.get(id),
    'review/claim': ({ id }) => q.claim(id),
    'review/renew': ({ id, token }) => q.renew(id, token),
    'review/release': ({ id, token }) => q.release(id, token),
    'review/validate': async ({ dados }) => q.validate(dados),
    'review/save': (input) => q.save(input),
    'review/confirm': (input) => q.confirm(input),
    'review/askMerchant': (input) => q.askMerchant(input),
    'review/recordAnswer': (input, ctx) => q.recordAnswer(input, ctx.signal),
    'review/reprocess': (input, ctx) => q.reprocess(input, ctx.signal),
    'review/discard': (input) => q.discard(input),
    'review/charges': (input) => q.charges(input),
    'review/failureReport': (input) => q.failureReport(input),
  };
}
