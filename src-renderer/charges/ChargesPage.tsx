import { useEffect, useState } from 'react';
import type { Charge } from '@shared/contract/review';
import { formatBRL } from '@shared/money';
import { ApiError, call } from '../api';
import { useTimeZone } from '../appInfo';
import { Page } from '../components/Layout';
import { useShortcut } from '../components/Shortcuts';
import { EmptyState, ErrorState, LoadingState } from '../components/States';
import { formatDateTime } from '../format';
import { hrefFor } from '../router';
import { useChannel } from '../useChannel';
import {
  fieldLabel,
  formatDueDate,
  formatFieldValue,
  installments,
  METODO_LABEL,
} from '../review/describe';
import '../review/review.css';

/** Charges created from the queue: when, by whom, merchant, amount, method, due date, overrides. */
export function ChargesPage() {
  const zone = useTimeZone();
  const [merchantId, setMerchantId] = useState<number | null>(null);
  const [items, setItems] = useState<Charge[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [more_, setMore] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [nonce, setNonce] = useState(0);
  const request = `${merchantId ?? ''}\n${nonce}`;
  const [answered, setAnswered] = useState('');
  const state: 'loading' | 'ok' | 'more' = answered !== request ? 'loading' : more_ ? 'more' : 'ok';
  const merchants = useChannel('review/filterOptions', { view: 'resolvida' });

  useEffect(() => {
    let stale = false;
    call('review/charges', { limit: 100, ...(merchantId ? { merchantId } : {}) })
      .then((p) => {
        if (stale) return;
        setItems(p.items);
        setCursor(p.nextCursor);
        setError(null);
        setAnswered(request);
      })
      .catch((e: unknown) => {
        if (stale) return;
        setError(
          e instanceof ApiError
            ? e
            : new ApiError({ code: 'interno', message: 'Erro inesperado.' }),
        );
        setAnswered(request);
      });
    return () => {
      stale = true;
    };
  }, [merchantId, request]);

  const more = () => {
    if (!cursor) return;
    setMore(true);
    call('review/charges', { limit: 100, cursor, ...(merchantId ? { merchantId } : {}) })
      .then((p) => {
        setItems((xs) => [...xs, ...p.items]);
        setCursor(p.nextCursor);
        setMore(false);
      })
      .catch((e: unknown) => {
        setError(e instanceof ApiError ? e : null);
        setMore(false);
      });
  };
  useShortcut('r', () => setNonce((n) => n + 1), {
    description: 'Recarregar as cobranças',
    group: 'Cobranças',
  });

  return (
    <Page title="Cobranças" subtitle="Cobranças criadas a partir de pedidos confirmados na fila.">
      <div className="toolbar">
        <label className="field-inline">
          <span>Lojista</span>
          <select
            value={merchantId ?? ''}
            onChange={(e) => setMerchantId(e.target.value ? Number(e.target.value) : null)}
          >
            <option value="">Todos os lojistas</option>
            {merchants.data?.merchants.map((m) => (
              <option key={m.id} value={m.id}>
                {m.nome}
              </option>
            ))}
          </select>
        </label>
      </div>
      {error && !items.length ? (
        <ErrorState error={error} onRetry={() => setNonce((n) => n + 1)} />
      ) : state === 'loading' && !items.length ? (
        <LoadingState label="Carregando as cobranças…" />
      ) : !items.length ? (
        <EmptyState title="Nenhuma cobrança criada ainda">
          Quando um pedido da fila for confirmado, a cobrança criada aparece aqui.
        </EmptyState>
      ) : (
        <div className="table-wrap" aria-busy={state !== 'ok'}>
          <table className="table" data-testid="charges-table">
            <caption className="visually-hidden">Cobranças criadas</caption>
            <thead>
              <tr>
                <th scope="col">Criada em</th>
                <th scope="col">Por</th>
                <th scope="col">Lojista</th>
                <th scope="col">Cliente</th>
                <th scope="col" className="num">
                  Valor
                </th>
                <th scope="col">Forma</th>
                <th scope="col">Vencimento</th>
                <th scope="col">Alterado pelo agente</th>
              </tr>
            </thead>
            <tbody>
              {items.map((c) => (
                <tr key={c.id} data-testid={`charge-${c.id}`}>
                  <td className="nowrap">
                    <a className="link" href={hrefFor('fila', c.extracaoId)}>
                      {formatDateTime(c.criadaEm, zone)}
                    </a>
                  </td>
                  <td>{c.criadaPor}</td>
                  <td>{c.merchantNome}</td>
                  <td>{c.clienteNome}</td>
                  <td className="num nowrap">{formatBRL(c.valorCentavos)}</td>
                  <td className="nowrap">
                    {METODO_LABEL[c.metodo]}
                    {c.parcelas > 1 ? ` ${installments(c.valorCentavos, c.parcelas)}` : ''}
                  </td>
                  <td className="nowrap">{formatDueDate(c.vencimento)}</td>
                  <td>
                    {Object.keys(c.alteracoes).length
                      ? Object.entries(c.alteracoes)
                          .map(
                            ([campo, v]) =>
                              `${fieldLabel(campo)}: ${formatFieldValue(campo, v.modelo)} → ${formatFieldValue(campo, v.agente)}`,
                          )
                          .join('; ')
                      : '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {cursor ? (
            <div className="table-note">
              <button type="button" className="btn" onClick={more} disabled={state === 'more'}>
                {state === 'more' ? 'Carregando…' : 'Carregar mais'}
              </button>
            </div>
          ) : null}
        </div>
      )}
    </Page>
  );
}
