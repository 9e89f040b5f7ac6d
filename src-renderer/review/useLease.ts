import { useCallback, useEffect, useState } from 'react';
import { call, errorMessage, invoke } from '../api';

export type LeaseState =
  | { kind: 'claiming' }
  | { kind: 'held'; token: string }
  | { kind: 'other'; emAnalisePor: string | null; mensagem: string }
  | { kind: 'lost'; mensagem: string };

/**
 * Claims the item while it is open: renews the lease at a third of its lifetime, releases it
 * on close (unmount, window closing). The claim itself is decided by the database.
 */
export function useLease(id: number) {
  const [attempt, setAttempt] = useState(0);
  // The lease state belongs to one claim attempt; a newer attempt starts as 'claiming'.
  const [settled, setSettled] = useState<{ attempt: number; lease: LeaseState } | null>(null);

  useEffect(() => {
    let active = true;
    let token: string | null = null;
    let timer: number | undefined;
    const release = () => {
      if (token) void invoke('review/release', { id, token });
      token = null;
    };
    const setState = (lease: LeaseState) => setSettled({ attempt, lease });
    // Claim on the next tick: a mount that is undone at once (React StrictMode in development)
    // never claims, so it cannot race the real mount for the same item.
    const start = window.setTimeout(() => {
      void claim();
    }, 0);
    const claim = () =>
      call('review/claim', { id })
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
          timer = window.setInterval(() => {
            if (!token) return;
            const t = token;
            void invoke('review/renew', { id, token: t }).then((res) => {
              if (!active || res.ok) return;
              token = null;
              window.clearInterval(timer);
              setState({ kind: 'lost', mensagem: res.error.message });
            });
          }, every);
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

  /** The item left the queue (charge created, discarded): the lease is gone server-side. */
  const markDone = useCallback(
    () => setSettled({ attempt, lease: { kind: 'lost', mensagem: '' } }),
    [attempt],
  );
  const retry = useCallback(() => setAttempt((a) => a + 1), []);
  const lease: LeaseState =
    settled && settled.attempt === attempt ? settled.lease : { kind: 'claiming' };
  return { lease, retry, markDone };
}
