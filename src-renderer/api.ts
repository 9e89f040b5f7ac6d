import type {
  Channel,
  ChannelInput,
  ChannelResult,
  EventName,
  Events,
  IpcResult,
} from '@shared/contract';
import type { AppErrorShape, ErrorCode } from '@shared/errors';

/** A failed call, with its pt-BR message (safe to show) and per-field messages for forms. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly fields: Record<string, string[]>;
  constructor(shape: AppErrorShape) {
    super(shape.message);
    this.name = 'ApiError';
    this.code = shape.code;
    this.fields = shape.fields ?? {};
  }
}

/** Channels whose input may be omitted (every field optional). */
type InputArgs<K extends Channel> =
  Record<string, never> extends ChannelInput<K>
    ? [input?: ChannelInput<K>]
    : [input: ChannelInput<K>];

/** The raw result, never throwing for errors reported by main. */
export async function invoke<K extends Channel>(
  channel: K,
  ...args: InputArgs<K>
): Promise<IpcResult<ChannelResult<K>>> {
  const input = (args[0] ?? {}) as ChannelInput<K>;
  try {
    return await window.balcao.invoke(channel, input);
  } catch {
    return {
      ok: false,
      error: {
        code: 'interno',
        message: 'Não foi possível falar com o processo principal do Balcão. Reinicie o app.',
      },
    };
  }
}

/** The data of a call; throws ApiError (pt-BR message) when it fails. */
export async function call<K extends Channel>(
  channel: K,
  ...args: InputArgs<K>
): Promise<ChannelResult<K>> {
  const r = await invoke(channel, ...args);
  if (!r.ok) throw new ApiError(r.error);
  return r.data;
}

/** Subscribes to an event pushed by main; returns the unsubscribe function. */
export function onEvent<E extends EventName>(
  event: E,
  listener: (payload: Events[E]) => void,
): () => void {
  return window.balcao.on(event, listener);
}

export function errorMessage(e: unknown): string {
  if (e instanceof ApiError) return e.message;
  return 'Erro inesperado na interface. Tente de novo.';
}
