import type { ItemLease } from '@shared/contract/review';
import { useCallback, useEffect, useRef, useState } from 'react';
import { call, errorMessage, invoke } from '../api';

export type LeaseState =
  | { kind: 'claiming' }
  | { kind: 'held'; token: string }
  | { kind: 'other'; emAnalisePor: string | null; mensagem: string }
  | { kind: 'lost'; mensagem: string }
  /** The agent's own action ended it (charge created, discarded): nothing to renew or release. */
  | { kind: 'ended' };

/**
 * Claims the item while it is open: renews the lease at a third of its lifetime, releases it
 * on close (unmount, window closing). The claim itself is decided by the database.
 */
export function useLease(id: number, onLost?: () => void) {
  /** Called the moment a held lease turns out lost (before the state says so). */
  const lostHook = useRef(onLost);
  useEffect(() => {
    lostHook.current = onLost;
  }, [onLost]);
  const [attempt, setAttempt] = useState(0);
  // The lease state belongs to one claim attempt; a newer attempt starts as 'claiming'.
  const [settled, setSettled] = useState<{ attempt: number; lease: LeaseState } | null>(null);
  /** The next attempt takes the item over (a supervisor) instead of claiming it. */
  const viaTakeOver = useRef(false);
  /** Stops renewing and forgets the token of the current claim (set by the effect). */
  const forget = useRef<() => void>(() => undefined);
  /** Renews at once: the answer says whether the lease is still ours (set by the effect). */
  const renewNow = useRef<() => void>(() => undefined);

  useEffect(() => {
    let active = true;
    let token: string | null = null;
    let timer: number | undefined;
    const release = () => {
      if (token) void invoke('review/release', { id, token });
      token = null;
    };
    forget.current = () => {
      token = null;
      window.clearInterval(timer);
    };
    const setState = (lease: LeaseState) => setSettled({ attempt, lease });
    /** One renewal; a refusal (taken over, expired, closed) is the lease lost, at once. */
    const renewOnce = () => {
      if (!token) return;
      const t = token;
      void invoke('review/renew', { id, token: t }).then((res) => {
        if (!active || res.ok || token !== t) return;
        token = null;
        window.clearInterval(timer);
        lostHook.current?.();
        setState({ kind: 'lost', mensagem: res.error.message });
      });
    };
    renewNow.current = renewOnce;
    // Claim on the next tick: a mount that is undone at once (React StrictMode in development)
    // never claims, so it cannot race the real mount for the same item.
    const start = window.setTimeout(() => {
      void claim();
    }, 0);
    const takeOver = viaTakeOver.current;
    viaTakeOver.current = false;
    const claim = () =>
      (takeOver ? call('review/takeOver', { id }) : call('review/claim', { id }))
        .then((r) => {
          if (!active) {
            if (r.claimed) void invoke('review/release', { id, token: r.token });
            return;
          }
          if (!r.claimed) {
            setState({ kind: 'other', emAnalisePor: r.emAnalisePor, mensagem: r.mensagem });
            return;
          }
          token = r.token;
          setState({ kind: 'held', token: r.token });
          const every = Math.max(1_000, Math.floor(r.ttlMs / 3));
          timer = window.setInterval(renewOnce, every);
        })
        .catch((e: unknown) => {
          if (active) setState({ kind: 'lost', mensagem: errorMessage(e) });
        });
    window.addEventListener('pagehide', release);
    return () => {
      active = false;
      window.clearTimeout(start);
      window.clearInterval(timer);
      window.removeEventListener('pagehide', release);
      release();
    };
  }, [id, attempt]);

  /**
   * Takes the lease state an item action answered with: when the action ended the lease
   * server-side (charge created, discarded), the token is forgotten — no renewal, no release on
   * close — and the state becomes 'ended'. A lease still held stays as it is.
   */
  const applyActionLease = useCallback(
    (after: ItemLease) => {
      if (after.held) return;
      forget.current();
      setSettled({ attempt, lease: { kind: 'ended' } });
    },
    [attempt],
  );
  const retry = useCallback(() => setAttempt((a) => a + 1), []);
  /**
   * Checks the lease now (#42.3): main said it changed hands, or an action was refused. A lease
   * gone becomes 'lost' at once instead of at the next scheduled renewal.
   */
  const check = useCallback(() => renewNow.current(), []);
  /** A supervisor takes over the lease another person holds (audited with both names). */
  const takeOver = useCallback(() => {
    viaTakeOver.current = true;
    setAttempt((a) => a + 1);
  }, []);
  const lease: LeaseState =
    settled && settled.attempt === attempt ? settled.lease : { kind: 'claiming' };
  return { lease, retry, takeOver, applyActionLease, check };
}

/** What `useLease` gives an item's screen: the lease and what to do about it. */
export type Claim = ReturnType<typeof useLease>;
