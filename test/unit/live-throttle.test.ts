import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Events } from '@shared/contract';
import { mergeChanges, throttleChanges } from '../../src-renderer/review/live';

type Change = Events['review/changed'];

describe('the queue list reloads at most once a second while changes keep coming (#39.1)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('passes the first change at once and those within the interval merged, once, when it ends', () => {
    const got: Change[] = [];
    const t = throttleChanges(1000, (c) => got.push(c));
    t.push({ ids: [1] });
    expect(got).toEqual([{ ids: [1] }]);
    vi.advanceTimersByTime(100);
    t.push({ ids: [2], reservas: [2] });
    vi.advanceTimersByTime(100);
    t.push({ ids: [3, 2], conversas: [3] });
    expect(got).toHaveLength(1);
    vi.advanceTimersByTime(799);
    expect(got).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(got).toEqual([{ ids: [1] }, { ids: [2, 3], reservas: [2], conversas: [3] }]);
    // Quiet for a second: the next change goes at once again.
    vi.advanceTimersByTime(1000);
    t.push({ ids: [4] });
    expect(got).toHaveLength(3);
  });

  it('a reconnect inside the interval is not lost in the merge; cancel drops what is pending', () => {
    const got: Change[] = [];
    const t = throttleChanges(1000, (c) => got.push(c));
    t.push({ ids: [1] });
    t.push({ ids: [], reconectado: true });
    t.push({ ids: [5] });
    vi.advanceTimersByTime(1000);
    expect(got[1]).toEqual({ ids: [5], reconectado: true });
    t.push({ ids: [6] });
    t.cancel();
    vi.advanceTimersByTime(5000);
    expect(got).toHaveLength(2);
  });

  it('merging keeps every id, lease and conversation once', () => {
    expect(mergeChanges({ ids: [1, 2], reservas: [1] }, { ids: [2, 3], reservas: [3] })).toEqual({
      ids: [1, 2, 3],
      reservas: [1, 3],
    });
  });
});
