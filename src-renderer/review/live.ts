import { useEffect, useRef } from 'react';
import type { Events } from '@shared/contract';
import { onEvent } from '../api';

/**
 * Calls `onChange` whenever main says queue items arrived or changed (`review/changed`, from
 * PostgreSQL LISTEN/NOTIFY). `ids` empty = after a reconnect: refetch everything.
 */
export function useLiveQueue(onChange: (c: Events['review/changed']) => void): void {
  const latest = useRef(onChange);
  useEffect(() => {
    latest.current = onChange;
  }, [onChange]);
  useEffect(() => onEvent('review/changed', (c) => latest.current(c)), []);
}
