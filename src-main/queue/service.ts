import type { ChannelParsed } from '@shared/contract';
import type { ExtractionDetail, FailureReport } from '@shared/contract/review';
import * as actions from './actions';
import type { QueueContext } from './actions';
import { listCharges } from './charges';
import { getExtraction } from './detail';
import { claim, release, renew } from './lease';
import { filterOptions, listQueue } from './list';
import { failureReport } from './report';
import { reopen, takeOver } from './supervisor';

export type { QueueContext, ReviewEngine } from './actions';

/**
 * The review queue's operations, bound to one context (pool, clock, settings, rules, engine).
 * The operator recorded in leases and the audit log is the `operator` setting at call time.
 */
export function createQueueService(ctx: QueueContext) {
  const operador = () => ctx.settings.get().operator;
  return {
    list: (input: ChannelParsed<'review/list'>) => listQueue(ctx.pool, input),
    filterOptions: (input: ChannelParsed<'review/filterOptions'>) =>
      filterOptions(ctx.pool, input.view),
    get: (id: number): Promise<ExtractionDetail> =>
      getExtraction(ctx.pool, id, ctx.settings.get().prices),
    claim: (id: number) => claim(ctx.pool, { id, operador: operador(), ttlMs: actions.ttl(ctx) }),
    renew: (id: number, token: string) => renew(ctx.pool, { id, token, ttlMs: actions.ttl(ctx) }),
    release: (id: number, token: string) => release(ctx.pool, { id, token, operador: operador() }),
    validate: (dados: ChannelParsed<'review/validate'>['dados']) =>
      actions.validateDados(ctx, dados),
    save: (input: ChannelParsed<'review/save'>) => actions.saveDraft(ctx, input),
    confirm: (input: ChannelParsed<'review/confirm'>) => actions.confirmCharge(ctx, input),
    askMerchant: (input: ChannelParsed<'review/askMerchant'>) => actions.askMerchant(ctx, input),
    recordAnswer: (input: ChannelParsed<'review/recordAnswer'>, signal?: AbortSignal) =>
      actions.recordAnswer(ctx, { ...input, signal }),
    reprocess: (input: ChannelParsed<'review/reprocess'>, signal?: AbortSignal) =>
      actions.reprocess(ctx, { ...input, signal }),
    discard: (input: ChannelParsed<'review/discard'>) => actions.discard(ctx, input),
    charges: (input: ChannelParsed<'review/charges'>) =>
      listCharges(ctx.pool, input, { hoje: actions.today(ctx), zone: ctx.settings.get().timeZone }),
    failureReport: (input: ChannelParsed<'review/failureReport'>): Promise<FailureReport> =>
      failureReport(
        ctx.pool,
        input,
        ctx.settings.get().timeZone,
        ctx.settings.get().alertaFalhasValidacaoPct,
      ),
    today: () => actions.today(ctx),
    takeOver: (id: number) =>
      takeOver(ctx.pool, { id, operador: operador(), ttlMs: actions.ttl(ctx) }),
    reopen: async (id: number): Promise<ExtractionDetail> => {
      await reopen(ctx.pool, { id, operador: operador() });
      return getExtraction(ctx.pool, id, ctx.settings.get().prices);
    },
  };
}
export type QueueService = ReturnType<typeof createQueueService>;
