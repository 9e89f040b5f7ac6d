import { useEffect, useRef } from 'react';
import type { Events } from '@shared/contract';
import { onEvent } from '../api';

type Change = Events['review/changed'];

const union = (a: number[] | undefined, b: number[] | undefined): number[] | undefined =>
  a || b ? [...new Set([...(a ?? []), ...(b ?? [])])] : undefined;

/** Two changes as one: every id, lease and conversation named by either; a reconnect wins. */
export function mergeChanges(a: Change, b: Change): Change {
  const reservas = union(a.reservas, b.reservas);
  const conversas = union(a.conversas, b.conversas);
  return {
    ids: union(a.ids, b.ids) ?? [],
    ...(reservas ? { reservas } : {}),
    ...(conversas ? { conversas } : {}),
    ...(a.reconectado || b.reconectado ? { reconectado: true } : {}),
  };
}

/**
 * Passes a change on at once, and the changes that arrive within `minMs` after it merged, once,
 * when that interval ends. `cancel` drops what is pending.
 */
export function throttleChanges(
  minMs: number,
  deliver: (c: Change) => void,
): { push(c: Change): void; cancel(): void } {
  let last = -Infinity;
  let pending: Change | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const fire = (c: Change) => {
    last = Date.now();
    deliver(c);
  };
  return {
    push(c) {
      const wait = last + minMs - Date.now();
      if (wait <= 0 && timer === undefined) {
        fire(c);
        return;
      }
      pending = pending ? mergeChanges(pending, c) : c;
      timer ??= setTimeout(
        () => {
          timer = undefined;
          const p = pending;
          pending = null;
          if (p) fire(p);
        },
        Math.max(0, wait),
      );
    },
    cancel() {
      clearTimeout(timer);
      timer = undefined;
      pending = null;
    },
  };
}

/**
 * Calls `onChange` whenever main says queue items arrived or changed (`review/changed`: the
 * change log or LISTEN/NOTIFY, see src-main/intake/live-source.ts). `ids` empty = after a
 * reconnect: refetch everything. With `intervaloMinMs` (the queue list, #39.1) a change is passed
 * on at once, and the changes that arrive within that interval after it are passed on merged, once,
 * when it ends (throttleChanges): a busy queue (workers adding items all the time) reloads a
 * desktop's list about once a second instead of after every read of the change log.
 */
export function useLiveQueue(
  onChange: (c: Change) => void,
  opts: { intervaloMinMs?: number } = {},
): void {
  const latest = useRef(onChange);
  useEffect(() => {
    latest.current = onChange;
  }, [onChange]);
  const min = opts.intervaloMinMs ?? 0;
  useEffect(() => {
    if (min <= 0) return onEvent('review/changed', (c) => latest.current(c));
    const t = throttleChanges(min, (c) => latest.current(c));
    const off = onEvent('review/changed', (c) => t.push(c));
    return () => {
      off();
      t.cancel();
    };
  }, [min]);
}
