import type { ChannelParsed } from '@shared/contract';
import type { Caller } from '../caller';
import { WindowRegistry } from '../windows';
import type { QueueContext } from './actions';
import { today, validateDados } from './actions';
import { reviewChannels } from './channels';

export type { ExtractionRerunner, QueueContext } from './actions';

/** The caller of direct service use (tests, bench): no window, nothing to clean up. */
const DIRECT: Caller = { sessionId: 'direto', emit: () => undefined };

/**
 * The review queue's channels as plain methods, for code that calls the queue without a window
 * (tests, the bench): each method is the channel of the same name.
 */
export function createQueueService(ctx: QueueContext) {
  const ch = reviewChannels(ctx, new WindowRegistry());
  const withSignal = (signal?: AbortSignal): Caller => (signal ? { ...DIRECT, signal } : DIRECT);
  return {
    list: (input: ChannelParsed<'review/list'>) => ch['review/list'](input, DIRECT),
    filterOptions: (input: ChannelParsed<'review/filterOptions'>) =>
      ch['review/filterOptions'](input, DIRECT),
    get: (id: number) => ch['review/get']({ id }, DIRECT),
    claim: (id: number) => ch['review/claim']({ id }, DIRECT),
    claimNext: (exceto?: number) =>
      ch['review/claimNext'](exceto !== undefined ? { exceto } : {}, DIRECT),
    renew: (id: number, token: string) => ch['review/renew']({ id, token }, DIRECT),
    release: (id: number, token: string) => ch['review/release']({ id, token }, DIRECT),
    // Synchronous, as the rules are: the channel wraps the same function.
    validate: (dados: ChannelParsed<'review/validate'>['dados']) => validateDados(ctx, dados),
    save: (input: ChannelParsed<'review/save'>) => ch['review/save'](input, DIRECT),
    confirm: (input: ChannelParsed<'review/confirm'>) => ch['review/confirm'](input, DIRECT),
    askMerchant: (input: ChannelParsed<'review/askMerchant'>) =>
      ch['review/askMerchant'](input, DIRECT),
    recordAnswer: (input: ChannelParsed<'review/recordAnswer'>, signal?: AbortSignal) =>
      ch['review/recordAnswer'](input, withSignal(signal)),
    reprocess: (input: ChannelParsed<'review/reprocess'>, signal?: AbortSignal) =>
      ch['review/reprocess'](input, withSignal(signal)),
    discard: (input: ChannelParsed<'review/discard'>) => ch['review/discard'](input, DIRECT),
    charges: (input: ChannelParsed<'review/charges'>) => ch['review/charges'](input, DIRECT),
    failureReport: (input: ChannelParsed<'review/failureReport'>) =>
      ch['review/failureReport'](input, DIRECT),
    today: () => today(ctx),
    takeOver: (id: number) => ch['review/takeOver']({ id }, DIRECT),
    reopen: (id: number, motivo?: string) =>
      ch['review/reopen']({ id, ...(motivo ? { motivo } : {}) }, DIRECT),
  };
}
export type QueueService = ReturnType<typeof createQueueService>;
