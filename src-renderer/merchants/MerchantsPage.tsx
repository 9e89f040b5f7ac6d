/**
 * The supervisor's merchant screen (#36.5, #37.1): find a merchant (code, name, Pix key or
 * WhatsApp number; a page at a time), and on the merchant: its Pix key (set or change it,
 * checked with the same validator as the CLI), its WhatsApp numbers (add, remove), and its
 * charges in "Falhas no PSP" with "Reenviar" once the key is there.
 */
import { useEffect, useState } from 'react';
import type { LojistaResumo } from '@shared/contract/merchants';
import { ApiError, call } from '../api';
import { Page } from '../components/Layout';
import { EmptyState, ErrorState, LoadingState } from '../components/States';
import { hrefFor, type Route } from '../router';
import { MerchantDetail } from './MerchantDetail';
import './merchants.css';

const PAGE = 50;

const asError = (e: unknown) =>
  e instanceof ApiError ? e : { message: 'Não foi possível carregar os lojistas.' };

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

interface ListState {
  items: LojistaResumo[];
  proximo: number | null;
  status: 'loading' | 'ok' | 'error';
  erro: ApiError | { message: string } | null;
}

export function MerchantsPage({ route }: { route: Route }) {
  const selected = Number(route.rest[0]) || null;
  const [busca, setBusca] = useState('');
  const [semChave, setSemChave] = useState(false);
  const [reload, setReload] = useState(0);
  const q = useDebounced(busca, 250);
  const [list, setList] = useState<ListState>({
    items: [],
    proximo: null,
    status: 'loading',
    erro: null,
  });

  useEffect(() => {
    let stale = false;
    setList((l) => ({ ...l, status: 'loading' }));
    call('merchants/list', { busca: q, semChave, limit: PAGE })
      .then((r) => {
        if (!stale) setList({ items: r.items, proximo: r.proximo, status: 'ok', erro: null });
      })
      .catch((e: unknown) => {
        if (!stale) setList({ items: [], proximo: null, status: 'error', erro: asError(e) });
      });
    return () => {
      stale = true;
    };
  }, [q, semChave, reload]);

  const more = async () => {
    if (list.proximo === null) return;
    setList((l) => ({ ...l, status: 'loading' }));
    try {
      const r = await call('merchants/list', {
        busca: q,
        semChave,
        limit: PAGE,
        depoisDe: list.proximo,
      });
      setList((l) => ({
        items: [...l.items, ...r.items],
        proximo: r.proximo,
        status: 'ok',
        erro: null,
      }));
    } catch (e) {
      setList((l) => ({ ...l, status: 'error', erro: asError(e) }));
    }
  };

  return (
    <Page title="Lojistas" subtitle="Chave Pix, números de WhatsApp e cobranças paradas no PSP">
      <div className="merchants-layout">
        <section className="merchants-list" aria-label="Lista de lojistas">
          <div className="merchants-filters">
            <div className="field">
              <label className="field-label" htmlFor="lojistas-busca">
                Buscar lojista
              </label>
              <input
                id="lojistas-busca"
                type="search"
                value={busca}
                placeholder="código, nome, chave Pix ou telefone"
                onChange={(e) => setBusca(e.target.value)}
              />
            </div>
            <label className="field-check">
              <input
                type="checkbox"
                checked={semChave}
                onChange={(e) => setSemChave(e.target.checked)}
              />
              <span>Só sem chave Pix</span>
            </label>
          </div>
          {list.status === 'error' && !list.items.length ? (
            <ErrorState
              error={list.erro ?? { message: '' }}
              onRetry={() => setReload((n) => n + 1)}
            />
          ) : list.status === 'loading' && !list.items.length ? (
            <LoadingState label="Carregando lojistas…" />
          ) : !list.items.length ? (
            <EmptyState title="Nenhum lojista encontrado">
              {q ? 'Nenhum lojista corresponde a essa busca.' : 'Não há lojistas cadastrados.'}
            </EmptyState>
          ) : (
            <div className="table-wrap" aria-busy={list.status === 'loading'}>
              <table className="table merchants-table" data-testid="lojistas-tabela">
                <caption className="visually-hidden">Lojistas</caption>
                <thead>
                  <tr>
                    <th scope="col">Lojista e chave Pix</th>
                    <th scope="col" className="num">
                      WhatsApp
                    </th>
                    <th scope="col" className="num">
                      Falhas
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.items.map((m) => (
                    <tr
                      key={m.id}
                      data-testid={`lojista-${m.id}`}
                      aria-current={m.id === selected ? 'true' : undefined}
                    >
                      <td>
                        <a className="link" href={hrefFor('lojistas', m.id)}>
                          <span className="muted">#{m.id}</span> {m.nome}
                        </a>
                        <div className="merchants-key">
                          {m.chavePix ? (
                            <span title={m.chavePix}>{m.chavePix}</span>
                          ) : (
                            <span className="badge badge-warn">sem chave Pix</span>
                          )}
                        </div>
                      </td>
                      <td className="num">{m.contatos}</td>
                      <td className="num">
                        {m.falhas ? (
                          <span className="badge badge-danger">{m.falhas}</span>
                        ) : (
                          <span className="muted">0</span>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {list.proximo !== null ? (
                <div className="merchants-more">
                  <button
                    type="button"
                    className="btn btn-small"
                    disabled={list.status === 'loading'}
                    onClick={() => void more()}
                  >
                    {list.status === 'loading' ? 'Carregando…' : 'Carregar mais'}
                  </button>
                </div>
              ) : null}
            </div>
          )}
        </section>
        <section className="merchants-detail" aria-label="Lojista escolhido">
          {selected ? (
            <MerchantDetail
              key={selected}
              merchantId={selected}
              onChanged={() => setReload((n) => n + 1)}
            />
          ) : (
            <EmptyState title="Escolha um lojista">
              Escolha um lojista na lista para ver e mudar a chave Pix, os números de WhatsApp e as
              cobranças paradas no PSP.
            </EmptyState>
          )}
        </section>
      </div>
    </Page>
  );
}
