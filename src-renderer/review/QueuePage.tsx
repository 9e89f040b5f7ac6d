import { useRef, useState } from 'react';
import type { QueueItem } from '@shared/contract/review';
import { EXTRACTION_STATUSES, type ExtractionStatus } from '@shared/extraction-types';
import { useTimeZone } from '../appInfo';
import { Page } from '../components/Layout';
import { formatDateTime } from '../format';
import { useShortcut } from '../components/Shortcuts';
import { EmptyState, ErrorState, LoadingState, StatusBadge, type Tone } from '../components/States';
import type { Route } from '../router';
import { useChannel } from '../useChannel';

/**
 * First version of the review queue: the open items from `review/list`, filtered by status
 * and text. The queue issue replaces the internals of this folder.
 */
export const STATUS_LABEL: Record<ExtractionStatus, string> = {
  falhou: 'Falhou',
  incompleto: 'Incompleto',
  completo: 'Completo',
};
export const STATUS_TONE: Record<ExtractionStatus, Tone> = {
  falhou: 'danger',
  incompleto: 'warn',
  completo: 'ok',
};

export function QueuePage(_props: { route: Route }) {
  const [status, setStatus] = useState<ExtractionStatus | null>(null);
  const [search, setSearch] = useState('');
  const searchRef = useRef<HTMLInputElement>(null);
  const list = useChannel('review/list', {
    status: status ? [status] : undefined,
    search: search.trim() || undefined,
    limit: 100,
  });
  useShortcut('/', () => searchRef.current?.focus(), {
    description: 'Buscar na fila',
    group: 'Fila',
  });
  useShortcut('r', () => list.reload(), { description: 'Recarregar a fila', group: 'Fila' });

  const counts = list.data?.counts;
  const total = counts ? counts.completo + counts.incompleto + counts.falhou : undefined;

  return (
    <Page title="Fila de revisão" subtitle="Pedidos de cobrança que precisam de uma pessoa.">
      <div className="toolbar">
        <div className="segmented" role="group" aria-label="Filtrar por status">
          <button type="button" aria-pressed={status === null} onClick={() => setStatus(null)}>
            Todos{total !== undefined ? ` (${total})` : ''}
          </button>
          {EXTRACTION_STATUSES.map((s) => (
            <button key={s} type="button" aria-pressed={status === s} onClick={() => setStatus(s)}>
              {STATUS_LABEL[s]}
              {counts ? ` (${counts[s]})` : ''}
            </button>
          ))}
        </div>
        <label className="search">
          <span className="visually-hidden">Buscar no texto das mensagens</span>
          <input
            ref={searchRef}
            type="search"
            placeholder="Buscar no texto (/)"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') e.currentTarget.blur();
            }}
          />
        </label>
      </div>
      <QueueTable state={list} onRetry={list.reload} />
    </Page>
  );
}

function QueueTable({
  state,
  onRetry,
}: {
  state: ReturnType<typeof useChannel<'review/list'>>;
  onRetry: () => void;
}) {
  if (state.status === 'error') return <ErrorState error={state.error} onRetry={onRetry} />;
  if (!state.data) return <LoadingState label="Carregando a fila…" />;
  const items = state.data.items;
  if (items.length === 0) {
    return (
      <EmptyState title="Nada na fila">
        Nenhum pedido aberto com esses filtros. Novos pedidos aparecem aqui quando a extração falha,
        fica incompleta ou precisa de confirmação.
      </EmptyState>
    );
  }
  return (
    <div className="table-wrap" aria-busy={state.status === 'loading'}>
      <table className="table">
        <caption className="visually-hidden">Pedidos abertos na fila de revisão</caption>
        <colgroup>
          <col style={{ width: '9.5rem' }} />
          <col style={{ width: '12rem' }} />
          <col />
          <col style={{ width: '7.5rem' }} />
          <col style={{ width: '32%' }} />
          <col style={{ width: '6.5rem' }} />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">Recebido</th>
            <th scope="col">Lojista</th>
            <th scope="col">Mensagem</th>
            <th scope="col">Status</th>
            <th scope="col">Motivo</th>
            <th scope="col" className="num">
              Tentativas
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((it) => (
            <QueueRow key={it.id} item={it} />
          ))}
        </tbody>
      </table>
      {state.data.nextCursor ? (
        <p className="table-note">Mostrando os {items.length} mais recentes.</p>
      ) : null}
    </div>
  );
}

function QueueRow({ item }: { item: QueueItem }) {
  const zone = useTimeZone();
  return (
    <tr>
      <td className="nowrap">{formatDateTime(item.criadaEm, zone)}</td>
      <td className="text-cell" title={item.merchantNome}>
        {item.merchantNome}
      </td>
      <td className="text-cell" title={item.texto}>
        {item.texto}
      </td>
      <td>
        <StatusBadge tone={STATUS_TONE[item.status]}>{STATUS_LABEL[item.status]}</StatusBadge>
      </td>
      <td className="text-cell" title={item.motivo}>
        {item.motivo || '—'}
      </td>
      <td className="num">{item.tentativas}</td>
    </tr>
  );
}
