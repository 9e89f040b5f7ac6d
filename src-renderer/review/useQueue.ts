import { useLiveQueue } from './live';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ChannelInput } from '@shared/contract';
import type { QueueItem, QueuePage, QueueSort, QueueView } from '@shared/contract/review';
import type { Situacao } from '@shared/extraction-types';
import { ApiError, invoke } from '../api';

export const AGE_PRESETS = {
  todas: { label: 'Qualquer idade' },
  menos1h: { label: 'Menos de 1 hora', idadeMaxHoras: 1 },
  mais1h: { label: 'Mais de 1 hora', idadeMinHoras: 1 },
  mais24h: { label: 'Mais de 24 horas', idadeMinHoras: 24 },
  mais3d: { label: 'Mais de 3 dias', idadeMinHoras: 72 },
} as const;
export type AgePreset = keyof typeof AGE_PRESETS;

export interface QueueFilters {
  view: QueueView;
  situacao: Situacao | null;
  merchantId: number | null;
  motivo: string | null;
  idade: AgePreset;
  search: string;
  sort: QueueSort;
}

export const DEFAULT_FILTERS: QueueFilters = {
  view: 'aberta',
  situacao: null,
  merchantId: null,
  motivo: null,
  idade: 'todas',
  search: '',
  // The SLA view (#39.2): the most urgent item at the top — past its deadline first, then the
  // nearest deadline.
  sort: 'prazo',
};

const PAGE = 50;

export function listInput(f: QueueFilters, cursor: string | null): ChannelInput<'review/list'> {
  const age = AGE_PRESETS[f.idade];
  return {
    view: f.view,
    sort: f.sort,
    limit: PAGE,
    cursor,
    ...(f.situacao ? { situacao: [f.situacao] } : {}),
    ...(f.merchantId ? { merchantId: f.merchantId } : {}),
    ...(f.motivo ? { motivo: f.motivo } : {}),
    ...('idadeMinHoras' in age ? { idadeMinHoras: age.idadeMinHoras } : {}),
    ...('idadeMaxHoras' in age ? { idadeMaxHoras: age.idadeMaxHoras } : {}),
    ...(f.search.trim() ? { search: f.search.trim() } : {}),
  };
}

interface State {
  /** The filters the items belong to. */
  key: string;
  /** The request (filters + reload count) last answered. */
  request: string;
  items: QueueItem[];
  nextCursor: string | null;
  counts: QueuePage['counts'] | null;
  loading: boolean;
  loadingMore: boolean;
  error: ApiError | null;
}

/**
 * The queue as an infinite, keyset-paginated list: the first page loads when the filters
 * change (older answers are ignored), `loadMore` appends the next page from the server cursor.
 */
export function useQueue(filters: QueueFilters) {
  const key = JSON.stringify(filters);
  const [nonce, setNonce] = useState(0);
  const request = `${key}\n${nonce}`;
  const [state, setState] = useState<State>({
    key: '',
    request: '',
    items: [],
    nextCursor: null,
    counts: null,
    loading: true,
    loadingMore: false,
    error: null,
  });
  const current = useRef(key);
  useEffect(() => {
    current.current = key;
  }, [key]);

  useEffect(() => {
    let stale = false;
    void invoke('review/list', listInput(JSON.parse(key) as QueueFilters, null)).then((r) => {
      if (stale) return;
      setState((s) =>
        r.ok
          ? {
              key,
              request,
              items: r.data.items,
              nextCursor: r.data.nextCursor,
              counts: r.data.counts,
              loading: false,
              loadingMore: false,
              error: null,
            }
          : { ...s, request, loading: false, error: new ApiError(r.error) },
      );
    });
    return () => {
      stale = true;
    };
  }, [key, request]);

  const latest = useRef(state);
  useEffect(() => {
    latest.current = state;
  }, [state]);
  const loadMore = useCallback(() => {
    const s = latest.current;
    if (!s.nextCursor || s.loadingMore || s.key !== current.current) return;
    const cursor = s.nextCursor;
    const forKey = s.key;
    latest.current = { ...s, loadingMore: true };
    setState((cur) => ({ ...cur, loadingMore: true }));
    void invoke('review/list', listInput(JSON.parse(forKey) as QueueFilters, cursor)).then((r) => {
      setState((cur) => {
        if (cur.key !== forKey || cur.nextCursor !== cursor) return cur;
        if (!r.ok) return { ...cur, loadingMore: false, error: new ApiError(r.error) };
        return {
          ...cur,
          items: [...cur.items, ...r.data.items],
          nextCursor: r.data.nextCursor,
          loadingMore: false,
        };
      });
    });
  }, []);

  const reload = useCallback(() => setNonce((n) => n + 1), []);
  // Live: items arriving or changing anywhere refresh the list and its counts — at most about
  // once a second while changes keep coming (#39.1: dozens of desktops on a busy queue).
  useLiveQueue(reload, { intervaloMinMs: 1000 });
  return {
    ...state,
    loading: state.request !== request,
    stale: state.key !== key,
    loadMore,
    reload,
  };
}
