import type { Caller } from '../caller';

export type { Handlers } from '../channels';

/** Who is calling a handler: the services' `Caller` (window/session id, emit, abort signal). */
export type CallContext = Caller;
