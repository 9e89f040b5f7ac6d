/**
 * The one IPC contract: every channel the renderer may call, with its zod input schema and
 * result type, and every event main may push. Domain files own their channels.
 */
import type { z } from '../zod';
import { appContract } from './app';
import { lgpdContract } from './lgpd';
import { merchantsContract } from './merchants';
import { pixContract } from './pix';
import { pspSettingsContract } from './psp-settings';
import { qualityContract } from './quality';
import { questionsContract } from './questions';
import type { ChannelDef, IpcResult } from './define';
import { reviewContract } from './review';
import { reviewBulkContract } from './review-bulk';
import { reviewThreadContract } from './review-thread';
import { salesContract, type ProgressEvent } from './sales';
import { sessionContract } from './session';
import { settingsContract } from './settings';
import { whatsappContract } from './whatsapp';

export const contract = {
  ...sessionContract,
  ...appContract,
  ...settingsContract,
  ...reviewContract,
  ...reviewThreadContract,
  ...reviewBulkContract,
  ...salesContract,
  ...questionsContract,
  ...pixContract,
  ...qualityContract,
  ...lgpdContract,
  ...merchantsContract,
  ...whatsappContract,
  ...pspSettingsContract,
} as const;

export type Contract = typeof contract;
export type Channel = keyof Contract;
export const CHANNELS = Object.keys(contract) as Channel[];

type DefOf<K extends Channel> = Contract[K];
/** What the renderer passes (before defaults). */
export type ChannelInput<K extends Channel> =
  DefOf<K> extends ChannelDef<infer I, unknown> ? z.input<I> : never;
/** What the handler receives (after zod parsing and defaults). */
export type ChannelParsed<K extends Channel> =
  DefOf<K> extends ChannelDef<infer I, unknown> ? z.output<I> : never;
export type ChannelResult<K extends Channel> =
  DefOf<K> extends ChannelDef<z.ZodType, infer R> ? R : never;

/** Events main pushes to the renderer. */
export interface Events {
  'sales/progress': ProgressEvent;
  /**
   * Queue items arrived or changed (LISTEN/NOTIFY in main); empty ids: refetch everything.
   * `reservas`: those whose lease passed to another claim (taken over, or claimed after expiry).
   * `conversas`: those whose conversation with the merchant changed (a message in or out, a
   * delivery state).
   */
  'review/changed': {
    ids: number[];
    reservas?: number[];
    conversas?: number[];
    reconectado?: boolean;
  };
}
export type EventName = keyof Events;
export const EVENTS: EventName[] = ['sales/progress', 'review/changed'];

/**
 * The API the preload exposes as `window.balcao` (and the test bridge imitates):
 * `invoke` for any contract channel, `on` for events (returns an unsubscribe function).
 */
export interface BalcaoApi {
  invoke<K extends Channel>(
    channel: K,
    input: ChannelInput<K>,
  ): Promise<IpcResult<ChannelResult<K>>>;
  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void;
}

export type { IpcResult } from './define';
