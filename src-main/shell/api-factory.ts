/**
 * Builds the object exposed as `window.balcao`: exactly `invoke` and `on`, refusing channels and
 * events outside the contract before anything crosses the boundary. The preload uses it over
 * ipcRenderer; the test bridge serialises THIS function (`createBalcaoApi.toString()`) into its
 * browser client, so both have the same shape and the same checks.
 *
 * Keep it self-contained: no imports, no helpers, plain JavaScript semantics (it is stringified).
 */
export interface BalcaoTransport {
  invoke(channel: string, input: unknown): Promise<unknown>;
  subscribe(event: string, listener: (payload: unknown) => void): () => void;
}

export interface RawBalcaoApi {
  invoke(channel: string, input?: unknown): Promise<unknown>;
  on(event: string, listener: (payload: unknown) => void): () => void;
}

export function createBalcaoApi(
  transport: BalcaoTransport,
  channels: readonly string[],
  events: readonly string[],
): RawBalcaoApi {
  const allowedChannels = new Set(channels);
  const allowedEvents = new Set(events);
  return Object.freeze({
    invoke(channel: string, input?: unknown): Promise<unknown> {
      if (typeof channel !== 'string' || !allowedChannels.has(channel)) {
        return Promise.reject(new Error('Canal fora do contrato: ' + String(channel)));
      }
      return transport.invoke(channel, input === undefined ? {} : input);
    },
    on(event: string, listener: (payload: unknown) => void): () => void {
      if (typeof event !== 'string' || !allowedEvents.has(event)) {
        throw new Error('Evento fora do contrato: ' + String(event));
      }
      if (typeof listener !== 'function') throw new Error('O ouvinte precisa ser uma função.');
      let active = true;
      const unsubscribe = transport.subscribe(event, function (payload: unknown) {
        if (active) listener(payload);
      });
      return function () {
        if (!active) return;
        active = false;
        unsubscribe();
      };
    },
  });
}
