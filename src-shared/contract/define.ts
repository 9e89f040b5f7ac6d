import type { z } from '../zod';
import type { AppErrorShape } from '../errors';

/** One channel: its zod input schema, and (as a phantom type) its result. */
export interface ChannelDef<I extends z.ZodType, R> {
  readonly input: I;
  /** Never read at runtime; carries the result type. */
  readonly _result?: R;
}

/** `defineChannel<Result>()(inputSchema)` — input checked at runtime, result typed. */
export function defineChannel<R>() {
  return <I extends z.ZodType>(input: I): ChannelDef<I, R> => ({ input });
}

/** What every invoke resolves to: never a thrown error across the boundary. */
export type IpcResult<T> = { ok: true; data: T } | { ok: false; error: AppErrorShape };
