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

/**
 * The item's conversation with the merchant (#37.4): the merchant's messages and ours, oldest
 * first, with times in the business zone and the delivery state of ours. Refetched live when
 * main says this item changed (a reply arrived, a status came back) — also while the agent holds
 * the item: the thread is never something she is editing.
 */
export function ItemThread({ id, zone, refresh }: { id: number; zone: string; refresh: number }) {
  const [thread, setThread] = useState<Thread | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [nonce, setNonce] = useState(0);
  useLiveQueue((c) => {
    if (!c.ids.length || c.ids.includes(id)) setNonce((n) => n + 1);
  });
  useEffect(() => {
    let stale = false;
    call('review/thread', { id })
      .then((t) => {
        if (stale) return;
        setThread(t);
        setError(null);
      })
      .catch((e: unknown) => {
        if (!stale) setError(e instanceof ApiError ? e.message : errorMessage(e));
      });
    return () => {
      stale = true;
    };
  }, [id, nonce, refresh]);

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
