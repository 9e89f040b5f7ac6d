import type { Channel, ChannelParsed, ChannelResult } from '@shared/contract';
import type { Caller } from './caller';

/**
 * What a domain's channel module exports: one function per contract channel, taking the parsed
 * input and the services' `Caller`. The IPC layer's one wrapper (sender check, zod parse, error
 * mapping: `ipc/invoke.ts`) calls these; they call their service function directly.
 */
export type ChannelHandler<K extends Channel> = (
  input: ChannelParsed<K>,
  caller: Caller,
) => Promise<ChannelResult<K>>;

/** The channels one domain owns (`DomainChannels<'review/list' | …>`). */
export type DomainChannels<K extends Channel> = { [P in K]: ChannelHandler<P> };

/** Every contract channel must have exactly one handler: the type enforces completeness. */
export type Handlers = DomainChannels<Channel>;
