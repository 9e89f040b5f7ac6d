import type { Channel, ChannelParsed, ChannelResult, EventName, Events } from '@shared/contract';

/** Who is calling: one per window (or per test-bridge page). */
export interface CallContext {
  /** Stable id of the window/session; per-window state (chosen merchant) is keyed by it. */
  sessionId: string;
  /** Push an event to this caller's renderer. */
  emit<E extends EventName>(event: E, payload: Events[E]): void;
  /** Aborted when the window closes (or the request is cancelled by the service). */
  signal?: AbortSignal;
}

export type Handler<K extends Channel> = (
  input: ChannelParsed<K>,
  ctx: CallContext,
) => Promise<ChannelResult<K>>;

/** Every contract channel must have exactly one handler: the type enforces completeness. */
export type Handlers = { [K in Channel]: Handler<K> };
export type PartialHandlers<K extends Channel> = { [P in K]: Handler<P> };
