import type {
  BalcaoApi,
  Channel,
  ChannelInput,
  ChannelResult,
  EventName,
  Events,
} from '@shared/contract';
import type { AppErrorShape } from '@shared/errors';

/** A failed call, carrying the pt-BR error from main. */
export class CallError extends Error {
  readonly shape: AppErrorShape;
  constructor(shape: AppErrorShape) {
    super(shape.message);
    this.name = 'CallError';
    this.shape = shape;
  }
}

function api(): BalcaoApi {
  const b = (window as unknown as { balcao?: BalcaoApi }).balcao;
  if (!b)
    throw new CallError({
      code: 'interno',
      message: 'A ponte com o aplicativo não está disponível.',
    });
  return b;
}

/** Invokes a contract channel; resolves with its data or throws a CallError (pt-BR). */
export async function call<K extends Channel>(
  channel: K,
  input: ChannelInput<K>,
): Promise<ChannelResult<K>> {
  let r;
  try {
    r = await api().invoke(channel, input);
  } catch {
    throw new CallError({
      code: 'interno',
      message: 'Não foi possível falar com o aplicativo. Tente de novo.',
    });
  }
  if (!r.ok) throw new CallError(r.error);
  return r.data;
}

export function onEvent<E extends EventName>(
  event: E,
  listener: (payload: Events[E]) => void,
): () => void {
  return api().on(event, listener);
}

export function errorShape(e: unknown): AppErrorShape {
  if (e instanceof CallError) return e.shape;
  return { code: 'interno', message: 'Erro inesperado na tela. Tente de novo.' };
}

/** A request id the main process accepts (letters, digits, - and _). */
export function newRequestId(): string {
  return crypto.randomUUID().replace(/-/g, '');
}
