import type { ServiceDeps } from '../../deps';
import { createQueueContext } from '../../queue/context';
import { createQueueService, type QueueService } from '../../queue/service';
import type { CallContext, PartialHandlers } from '../types';

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
  | 'review/failureReport'
  | 'review/takeOver'
  | 'review/reopen';

/**
 * Leases held by each window: when a window closes (its CallContext signal aborts), its items
 * go back to the queue at once instead of waiting for the lease to expire.
 */
function sessionLeases(q: QueueService) {
  const bySession = new Map<string, Map<number, string>>();
  return {
    add(ctx: CallContext, id: number, token: string) {
      let held = bySession.get(ctx.sessionId);
      if (!held) {
        const fresh = new Map<number, string>();
        held = fresh;
        bySession.set(ctx.sessionId, fresh);
        ctx.signal?.addEventListener(
          'abort',
          () => {
            bySession.delete(ctx.sessionId);
            for (const [i, t] of fresh) void q.release(i, t).catch(() => undefined);
          },
          { once: true },
        );
      }
      held.set(id, token);
    },
    remove(ctx: CallContext, id: number) {
      bySession.get(ctx.sessionId)?.delete(id);
    },
  };
}

/** Review queue channels. The operator for leases and audit is the `operator` setting. */
export function reviewHandlers(deps: ServiceDeps): PartialHandlers<ReviewChannel> {
  const q = createQueueService(createQueueContext(deps));
  const leases = sessionLeases(q);
  return {
    'review/list': (input) => q.list(input),
    'review/filterOptions': (input) => q.filterOptions(input),
    'review/get': ({ id }) => q.get(id),
    'review/claim': async ({ id }, ctx) => {
      const r = await q.claim(id);
      if (r.claimed) leases.add(ctx, id, r.token);
      return r;
    },
    'review/renew': ({ id, token }) => q.renew(id, token),
    'review/release': ({ id, token }, ctx) => {
      leases.remove(ctx, id);
      return q.release(id, token);
    },
    'review/validate': async ({ dados }) => q.validate(dados),
    'review/save': (input) => q.save(input),
    'review/confirm': async (input, ctx) => {
      const r = await q.confirm(input);
      leases.remove(ctx, input.id);
      return r;
    },
    'review/askMerchant': (input) => q.askMerchant(input),
    'review/recordAnswer': (input, ctx) => q.recordAnswer(input, ctx.signal),
    'review/reprocess': (input, ctx) => q.reprocess(input, ctx.signal),
    'review/discard': async (input, ctx) => {
      const r = await q.discard(input);
      leases.remove(ctx, input.id);
      return r;
    },
    'review/charges': (input) => q.charges(input),
    'review/failureReport': (input) => q.failureReport(input),
    'review/takeOver': async ({ id }, ctx) => {
      const r = await q.takeOver(id);
      leases.add(ctx, id, r.token);
      return r;
    },
    'review/reopen': ({ id }) => q.reopen(id),
  };
}
