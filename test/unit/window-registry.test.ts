import { describe, expect, it } from 'vitest';
import type { Caller } from '../../src-main/caller';
import { WindowRegistry } from '../../src-main/windows';

const windowOf = (sessionId: string) => {
  const ac = new AbortController();
  const caller: Caller = { sessionId, emit: () => undefined, signal: ac.signal };
  return { caller, close: () => ac.abort() };
};

describe('WindowRegistry (per-window state and its cleanup)', () => {
  it('runs each feature cleanup once when its window closes, and only that window', () => {
    const reg = new WindowRegistry();
    const a = windowOf('a');
    const b = windowOf('b');
    const ran: string[] = [];
    reg.onClose(a.caller, 'sales', () => ran.push('a:sales'));
    reg.onClose(a.caller, 'sales', () => ran.push('a:sales-again'));
    reg.onClose(a.caller, 'leases', () => ran.push('a:leases'));
    reg.onClose(b.caller, 'sales', () => ran.push('b:sales'));
    a.close();
    expect(ran).toEqual(['a:sales', 'a:leases']);
    a.close();
    expect(ran).toEqual(['a:sales', 'a:leases']);
    b.close();
    expect(ran).toEqual(['a:sales', 'a:leases', 'b:sales']);
  });

  it('per-window state is created on first use, disposed and forgotten on close', () => {
    const reg = new WindowRegistry();
    const disposed: number[][] = [];
    const held = reg.perWindow(
      'leases',
      () => new Set<number>(),
      (s) => disposed.push([...s]),
    );
    const w = windowOf('w');
    expect(held.peek(w.caller)).toBeUndefined();
    held.get(w.caller).add(1);
    held.get(w.caller).add(2);
    w.close();
    expect(disposed).toEqual([[1, 2]]);
    expect(held.peek(w.caller)).toBeUndefined();
    // A caller without a signal (CLI, direct use) keeps state and registers no cleanup.
    const cli: Caller = { sessionId: 'cli', emit: () => undefined };
    held.get(cli).add(3);
    expect(held.peek(cli)).toEqual(new Set([3]));
  });
});
