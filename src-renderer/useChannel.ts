import { useCallback, useEffect, useState } from 'react';
import type { Channel, ChannelInput, ChannelResult, IpcResult } from '@shared/contract';
import { ApiError, invoke } from './api';

export type ChannelState<T> =
  | { status: 'loading'; data: T | undefined; error: undefined }
  | { status: 'ok'; data: T; error: undefined }
  | { status: 'error'; data: T | undefined; error: ApiError };

interface Settled<T> {
  /** Which request this answers (channel, input, reload count). */
  request: string;
  result: IpcResult<T>;
  /** Latest successful data up to this answer (kept while reloading or after an error). */
  data: T | undefined;
}

/**
 * Calls a channel when mounted and whenever `input` changes (compared by value); keeps the
 * previous data while reloading; ignores stale responses.
 */
export function useChannel<K extends Channel>(
  channel: K,
  input: ChannelInput<K>,
): ChannelState<ChannelResult<K>> & { reload: () => void } {
  type T = ChannelResult<K>;
  const inputKey = JSON.stringify(input);
  const [nonce, setNonce] = useState(0);
  const request = `${channel}\n${inputKey}\n${nonce}`;
  const [settled, setSettled] = useState<Settled<T> | null>(null);

  useEffect(() => {
    let stale = false;
    const call = invoke as (c: K, i: ChannelInput<K>) => Promise<IpcResult<T>>;
    void call(channel, JSON.parse(inputKey) as ChannelInput<K>).then((result) => {
      if (stale) return;
      setSettled((prev) => ({ request, result, data: result.ok ? result.data : prev?.data }));
    });
    return () => {
      stale = true;
    };
  }, [channel, inputKey, request]);

  const reload = useCallback(() => setNonce((n) => n + 1), []);
  const data = settled?.data;
  if (!settled || settled.request !== request) {
    return { status: 'loading', data, error: undefined, reload };
  }
  if (!settled.result.ok) {
    return { status: 'error', data, error: new ApiError(settled.result.error), reload };
  }
  return { status: 'ok', data: settled.result.data, error: undefined, reload };
}
