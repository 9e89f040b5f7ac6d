import { useCallback, useEffect, useRef, useState } from 'react';
import { QUEUE_VIEWS, type QueueItem, type QueueView } from '@shared/contract/review';
import { EXTRACTION_STATUSES, type ExtractionStatus } from '@shared/extraction-types';
import { useTimeZone } from '../appInfo';
import { Page } from '../components/Layout';
import { useShortcut } from '../components/Shortcuts';
import { EmptyState, ErrorState, LoadingState } from '../components/States';
import { navigate } from '../router';
import { useChannel } from '../useChannel';
import { STATUS_LABEL } from './labels';
import { QueueTable } from './QueueTable';
import {
  AGE_PRESETS,
  DEFAULT_FILTERS,
  useQueue,
  type AgePreset,
  type QueueFilters,
} from './useQueue';

const VIEW_LABEL: Record<QueueView, string> = {
  aberta: 'Abertos',
  resolvida: 'Resolvidos',
  descartada: 'Descartados',
};

const VIEW_TABLE_LABEL: Record<QueueView, string> = {
  aberta: 'abertos',
  resolvida: 'resolvidos',
  descartada: 'descartados',
};

// Filters survive opening an item and coming back.
let remembered: QueueFilters = DEFAULT_FILTERS;
let rememberedSelection = 0;

export function QueueList() {
  const [filters, setFilters] = useState<QueueFilters>(remembered);
  const [searchText, setSearchText] = useState(remembered.search);
  const [selected, setSelected] = useState(rememberedSelection);
  const [now, setNow] = useState(() => Date.now());
  const searchRef = useRef<HTMLInputElement>(null);
  const tableRef = useRef<HTMLDivElement>(null);
  const zone = useTimeZone();
  const q = useQueue(filters);
  const options = useChannel('review/filterOptions', { view: filters.view });

  useEffect(() => {
    remembered = filters;
  }, [filters]);
  useEffect(() => {
    rememberedSelection = selected;
  }, [selected]);

  // Typing in the search box waits a moment before asking the server.
  useEffect(() => {
    const t = window.setTimeout(() => {
      setFilters((f) => (f.search === searchText ? f : { ...f, search: searchText }));
    }, 250);
    return () => window.clearTimeout(t);
  }, [searchText]);

  // Leases change while the list is open: refresh who holds what (and ages) every 20 s —
  // only while a single page is loaded, so a refresh never throws away where the agent scrolled.
  const { reload } = q;
  const loadedRef = useRef(0);
  useEffect(() => {
    loadedRef.current = q.items.length;
  }, [q.items.length]);
  useEffect(() => {
    const t = window.setInterval(() => {
      setNow(Date.now());
      if (loadedRef.current <= 50) reload();
    }, 20_000);
    return () => window.clearInterval(t);
  }, [reload]);

  const set = (patch: Partial<QueueFilters>) => {
    setFilters((f) => ({ ...f, ...patch }));
    setSelected(0);
  };
  const items = q.stale ? [] : q.items;
  const open = useCallback((it: QueueItem) => navigate('fila', it.id), []);
  const move = (delta: number) =>
    setSelected((s) => Math.max(0, Math.min(items.length - 1, s + delta)));

  useShortcut('j', () => move(1), { description: 'Próximo pedido', group: 'Fila' });
  useShortcut('ArrowDown', () => move(1), { description: 'Próximo pedido', group: 'Fila' });
  useShortcut('k', () => move(-1), { description: 'Pedido anterior', group: 'Fila' });
  useShortcut('ArrowUp', () => move(-1), { description: 'Pedido anterior', group: 'Fila' });
  useShortcut(
    'Enter',
    () => {
      const it = items[selected];
      if (it) open(it);
    },
    { description: 'Abrir o pedido selecionado', group: 'Fila', enabled: items.length > 0 },
  );
  useShortcut('/', () => searchRef.current?.focus(), {
    description: 'Buscar no texto',
    group: 'Fila',
  });
  useShortcut('r', () => reload(), { description: 'Recarregar a fila', group: 'Fila' });

  const counts = q.counts;
  const total = counts ? counts.completo + counts.incompleto + counts.falhou : undefined;
  const filtered =
    filters.status !== null ||
    filters.merchantId !== null ||
    filters.motivo !== null ||
    filters.idade !== 'todas' ||
    filters.search.trim() !== '';

  return (
    <Page title="Fila de revisão" subtitle="Pedidos de cobrança que precisam de uma pessoa.">
      <div className="toolbar queue-toolbar">
        <div className="segmented" role="group" aria-label="Filtrar por status">
          <button
            type="button"
            aria-pressed={filters.status === null}
            onClick={() => set({ status: null })}
          >
            Todos{total !== undefined ? ` (${total})` : ''}
          </button>
          {EXTRACTION_STATUSES.map((s: ExtractionStatus) => (
            <button
              key={s}
              type="button"
              aria-pressed={filters.status === s}
              onClick={() => set({ status: s })}
              data-testid={`count-${s}`}
            >
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
            value={searchText}
            onChange={(e) => setSearchText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape' || e.key === 'Enter') {
                e.currentTarget.blur();
                tableRef.current?.focus();
              }
            }}
          />
        </label>
      </div>
      <div className="toolbar queue-filters">
        <label className="field-inline">
          <span>Fila</span>
          <select value={filters.view} onChange={(e) => set({ view: e.target.value as QueueView })}>
            {QUEUE_VIEWS.map((v) => (
              <option key={v} value={v}>
                {VIEW_LABEL[v]}
              </option>
            ))}
          </select>
        </label>
        <label className="field-inline">
          <span>Lojista</span>
          <select
            value={filters.merchantId ?? ''}
            onChange={(e) => set({ merchantId: e.target.value ? Number(e.target.value) : null })}
          >
            <option value="">Todos os lojistas</option>
            {options.data?.merchants.map((m) => (
              <option key={m.id} value={m.id}>
                {m.nome} ({m.abertas})
              </option>
            ))}
          </select>
        </label>
        <label className="field-inline">
          <span>Motivo</span>
          <select
            value={filters.motivo ?? ''}
            onChange={(e) => set({ motivo: e.target.value || null })}
          >
            <option value="">Todos os motivos</option>
            {options.data?.motivos.map((m) => (
              <option key={m.codigo} value={m.codigo}>
                {m.rotulo} ({m.abertas})
              </option>
            ))}
          </select>
        </label>
        <label className="field-inline">
          <span>Idade</span>
          <select
            value={filters.idade}
            onChange={(e) => set({ idade: e.target.value as AgePreset })}
          >
            {(Object.keys(AGE_PRESETS) as AgePreset[]).map((k) => (
              <option key={k} value={k}>
                {AGE_PRESETS[k].label}
              </option>
            ))}
          </select>
        </label>
        {filtered ? (
          <button
            type="button"
            className="btn btn-ghost"
            onClick={() => {
              setSearchText('');
              set({ ...DEFAULT_FILTERS, view: filters.view });
            }}
          >
            Limpar filtros
          </button>
        ) : null}
      </div>
      <div ref={tableRef} tabIndex={-1} className="queue-body">
        {q.error && !items.length ? (
          <ErrorState error={q.error} onRetry={reload} />
        ) : q.loading && !items.length ? (
          <LoadingState label="Carregando a fila…" />
        ) : !items.length ? (
          <EmptyState
            title={filtered ? 'Nenhum pedido com esses filtros' : 'Fila vazia'}
            action={
              filtered ? (
                <button
                  type="button"
                  className="btn"
                  onClick={() => {
                    setSearchText('');
                    set({ ...DEFAULT_FILTERS, view: filters.view });
                  }}
                >
                  Limpar filtros
                </button>
              ) : undefined
            }
          >
            {filtered
              ? 'Mude ou limpe os filtros para ver outros pedidos.'
              : 'Nenhum pedido esperando uma pessoa. Novos pedidos aparecem aqui quando a extração falha, fica incompleta ou tem alerta de valor.'}
          </EmptyState>
        ) : (
          <QueueTable
            items={items}
            sort={filters.sort}
            onSort={(sort) => set({ sort })}
            selected={selected}
            onSelect={setSelected}
            onOpen={open}
            onEndReached={q.loadMore}
            loadingMore={q.loadingMore}
            hasMore={q.nextCursor !== null}
            busy={q.loading}
            timeZone={zone}
            now={now}
            label={`Pedidos ${VIEW_TABLE_LABEL[filters.view]} na fila de revisão`}
          />
        )}
      </div>
    </Page>
  );
}
