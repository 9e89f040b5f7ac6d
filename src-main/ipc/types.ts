import type { Channel, ChannelParsed, ChannelResult } from '@shared/contract';
import type { Caller } from '../caller';

/** Who is calling a handler: the services' `Caller` (window/session id, emit, abort signal). */
export type CallContext = Caller;

export type Handler<K extends Channel> = (
  input: ChannelParsed<K>,
  ctx: CallContext,
) => Promise<ChannelResult<K>>;

/** Every contract channel must have exactly one handler: the type enforces completeness. */
export type Handlers = { [K in Channel]: Handler<K> };
export type PartialHandlers<K extends Channel> = { [P in K]: Handler<P> };
