import { useEffect, useState } from 'react';
import type { ItemThread as Thread, ThreadMessage } from '@shared/contract/review-thread';
import { ApiError, call, errorMessage } from '../api';
import { formatDateTime } from '../format';
import { useLiveQueue } from './live';
import './thread.css';

/** Ticks of one of our messages (#37.3): sent ✓, delivered ✓✓, read ✓✓ coloured, failed. */
function Ticks({ m }: { m: ThreadMessage }) {
  switch (m.estado) {
    case 'enviada':
      return (
        <span className="thread-ticks" title="Enviada" aria-label="Enviada">
          ✓
        </span>
      );
    case 'entregue':
      return (
        <span className="thread-ticks" title="Entregue" aria-label="Entregue">
          ✓✓
        </span>
      );
    case 'lida':
      return (
        <span className="thread-ticks thread-ticks-lida" title="Lida" aria-label="Lida">
          ✓✓
        </span>
      );
    case 'falhou':
      return (
        <span className="thread-failed" role="note">
          Não enviada: {m.motivo ?? 'o canal recusou a mensagem.'}
        </span>
      );
    default:
      return (
        <span className="thread-ticks thread-ticks-pendente" title="Aguardando envio">
          Aguardando envio
        </span>
      );
  }
}

/** The item's conversation as loaded: the messages, or why they could not be read. */
export interface ThreadState {
  thread: Thread | null;
  error: string | null;
}

/**
 * Loads the item's conversation with the merchant (#37.4) and keeps it current: refetched live
 * when main says this item's conversation changed (a reply arrived, a status came back), after a
 * reconnect (it may have missed some), and when `refresh` changes (the agent's own question).
 * The item's other changes — a confirm, a draft — are no reason for another call. Held by the
 * item's screen, not by its body, which is rebuilt when the item changes state.
 */
export function useThread(id: number, refresh: number): ThreadState {
  const [state, setState] = useState<ThreadState>({ thread: null, error: null });
  const [nonce, setNonce] = useState(0);
  useLiveQueue((c) => {
    if (!c.ids.length || c.conversas?.includes(id)) setNonce((n) => n + 1);
  });
  useEffect(() => {
    let stale = false;
    call('review/thread', { id })
      .then((thread) => {
        if (!stale) setState({ thread, error: null });
      })
      .catch((e: unknown) => {
        if (!stale)
          setState((s) => ({
            thread: s.thread,
            error: e instanceof ApiError ? e.message : errorMessage(e),
          }));
      });
    return () => {
      stale = true;
    };
  }, [id, nonce, refresh]);
  return state;
}

/**
 * The item's conversation with the merchant (#37.4): the merchant's messages and ours, oldest
 * first, with times in the business zone and the delivery state of ours (also while the agent
 * holds the item: the thread is never something she is editing).
 */
export function ItemThread({ state, zone }: { state: ThreadState; zone: string }) {
  const { thread, error } = state;
  return (
    <section className="card" aria-labelledby="thread-title" data-testid="item-thread">
      <h2 id="thread-title">Conversa com o lojista</h2>
      {error ? (
        <p className="notice notice-error" role="alert">
          {error}
        </p>
      ) : null}
      {thread && thread.mensagens.length === 0 ? (
        <p className="muted">Nenhuma mensagem ligada a este pedido.</p>
      ) : null}
      {thread && thread.mensagens.length > 0 ? (
        <ol className="thread-list">
          {thread.mensagens.map((m) => (
            <li
              key={`${m.direcao}-${m.id}`}
              className={`thread-msg thread-${m.direcao}`}
              data-testid={`thread-${m.direcao}`}
              data-estado={m.estado ?? undefined}
            >
              <span className="thread-who">{m.direcao === 'entrada' ? 'Lojista' : 'Balcão'}</span>
              <p className="thread-text">{m.texto}</p>
              <span className="thread-meta">
                <time dateTime={m.em}>{formatDateTime(m.em, zone)}</time>
                {m.direcao === 'saida' ? <Ticks m={m} /> : null}
                {m.modelo ? <span className="muted"> · como modelo aprovado</span> : null}
              </span>
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  );
}
