import * as Tabs from '@radix-ui/react-tabs';
import { useCallback, useEffect, useRef, useState } from 'react';
import { QUEUE_VIEWS, type QueueItem, type QueueView } from '@shared/contract/review';
import { SITUACOES, type Situacao } from '@shared/extraction-types';
import { useTimeZone } from '../appInfo';
import { FilterSelect } from '../components/Fields';
import { Page } from '../components/Layout';
import { useCommand, useShortcut } from '../components/Shortcuts';
import { EmptyState, ErrorState, LoadingState } from '../components/States';
import { navigate } from '../router';
import { useChannel } from '../useChannel';
import { PspFailures } from '../charges/PspFailures';
import { usePermissions } from '../session/session';
import { BULK_ACTIONS_OF, BulkToolbar, useBulkSelection } from './BulkActions';
import { SITUACAO_LABEL } from './labels';
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

/** What an empty view says (no filters): the open queue, or nothing resolved/discarded yet. */
const VIEW_EMPTY: Record<QueueView, { title: string; text: string }> = {
  aberta: {
    title: 'Fila vazia',
    text: 'Nenhum pedido esperando uma pessoa. Novos pedidos aparecem aqui quando a extração falha, fica incompleta ou tem alerta de valor.',
  },
  resolvida: {
    title: 'Nenhum pedido resolvido',
    text: 'Pedidos confirmados (com a cobrança criada) aparecem aqui.',
  },
  descartada: {
    title: 'Nenhum pedido descartado',
    text: 'Pedidos descartados na fila aparecem aqui, com o motivo.',
  },
};

const VIEW_TABLE_LABEL: Record<QueueView, string> = {
  aberta: 'abertos',
  resolvida: 'resolvidos',
  descartada: 'descartados',
};

const AGE_OPTIONS = (Object.keys(AGE_PRESETS) as AgePreset[]).map((k) => ({
  value: k,
  label: AGE_PRESETS[k].label,
}));

// Filters survive opening an item and coming back.
let remembered: QueueFilters = DEFAULT_FILTERS;
let rememberedSelection = 0;
/** The "Falhas no PSP" tab (#36.7), beside the queue's views; remembered like the filters. */
const PSP_TAB = 'falhas_psp';
let rememberedPspTab = false;

export function QueueList() {
  const [filters, setFilters] = useState<QueueFilters>(remembered);
  const [searchText, setSearchText] = useState(remembered.search);
  const [selected, setSelected] = useState(rememberedSelection);
  const [pspTab, setPspTab] = useState(rememberedPspTab);
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
  useEffect(() => {
    rememberedPspTab = pspTab;
  }, [pspTab]);

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
    setPspTab(false);
    setFilters((f) => ({ ...f, ...patch }));
    setSelected(0);
  };
  const clearFilters = () => {
    setSearchText('');
    set({ ...DEFAULT_FILTERS, view: filters.view });
  };
  const items = q.stale ? [] : q.items;
  const open = useCallback((it: QueueItem) => navigate('fila', it.id), []);
  // Bulk actions (#39.5): supervisors, on the views that have them.
  const bulk = usePermissions().can('supervisao') && BULK_ACTIONS_OF[filters.view] !== undefined;
  const selection = useBulkSelection(items, JSON.stringify(filters));
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
  useShortcut(' ', () => selection.toggle(selected, false), {
    description: 'Marcar ou desmarcar o pedido selecionado (ações em lote)',
    group: 'Fila',
    enabled: bulk && items.length > 0,
    // On a focused button Space presses it; on a row's box it ticks that box.
    notOnControls: true,
  });
  // The views, from the command palette (Ctrl+K).
  useCommand('Fila: ver os abertos', () => set({ view: 'aberta', situacao: null }), {
    group: 'Fila',
  });
  useCommand('Fila: ver os resolvidos', () => set({ view: 'resolvida', situacao: null }), {
    group: 'Fila',
  });
  useCommand('Fila: ver as falhas no PSP', () => setPspTab(true), { group: 'Fila' });
  useCommand('Fila: ver os descartados', () => set({ view: 'descartada', situacao: null }), {
    group: 'Fila',
  });

  const counts = q.counts;
  const total = counts ? SITUACOES.reduce((a, s) => a + counts[s], 0) : undefined;
  // Only merchants with items in this view (and the one chosen, if it has none now).
  const merchants = (options.data?.merchants ?? []).filter(
    (m) => m.abertas > 0 || m.id === filters.merchantId,
  );
  const filtered =
    filters.situacao !== null ||
    filters.merchantId !== null ||
    filters.motivo !== null ||
    filters.idade !== 'todas' ||
    filters.search.trim() !== '';

  return (
    <Page title="Fila de revisão" subtitle="Pedidos de cobrança que precisam de uma pessoa.">
      <Tabs.Root
        value={pspTab ? PSP_TAB : filters.view}
        // A closed view has no situations: its filter would hide rows without saying so.
        onValueChange={(v) => {
          setPspTab(v === PSP_TAB);
          if (v !== PSP_TAB) set({ view: v as QueueView, situacao: null });
        }}
        activationMode="manual"
      >
        <Tabs.List className="tab-list queue-views" aria-label="Pedidos da fila">
          {QUEUE_VIEWS.map((v) => (
            <Tabs.Trigger key={v} value={v} className="tab" data-testid={`view-${v}`}>
              {VIEW_LABEL[v]}
            </Tabs.Trigger>
          ))}
          <Tabs.Trigger value={PSP_TAB} className="tab" data-testid="view-falhas-psp">
            Falhas no PSP
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value={PSP_TAB} className="queue-view">
          {pspTab ? <PspFailures zone={zone} /> : null}
        </Tabs.Content>
        <Tabs.Content value={filters.view} className="queue-view">
          <div className="toolbar queue-toolbar">
            {filters.view === 'aberta' ? (
              <div className="segmented" role="group" aria-label="Filtrar por status">
                <button
                  type="button"
                  aria-pressed={filters.situacao === null}
                  onClick={() => set({ situacao: null })}
                >
                  Todos{total !== undefined ? ` (${total})` : ''}
                </button>
                {SITUACOES.map((s: Situacao) => (
                  <button
                    key={s}
                    type="button"
                    aria-pressed={filters.situacao === s}
                    onClick={() => set({ situacao: s })}
                    data-testid={`count-${s}`}
                  >
                    {SITUACAO_LABEL[s]}
                    {counts ? ` (${counts[s]})` : ''}
                  </button>
                ))}
              </div>
            ) : null}
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
            <FilterSelect
              label="Lojista"
              all="Todos os lojistas"
              options={merchants.map((m) => ({ value: m.id, label: `${m.nome} (${m.abertas})` }))}
              value={filters.merchantId}
              onChange={(merchantId) => set({ merchantId })}
            />
            <FilterSelect
              label="Motivo"
              all="Todos os motivos"
              options={(options.data?.motivos ?? []).map((m) => ({
                value: m.codigo,
                label: `${m.rotulo} (${m.abertas})`,
              }))}
              value={filters.motivo}
              onChange={(motivo) => set({ motivo })}
            />
            <FilterSelect
              label="Idade"
              options={AGE_OPTIONS}
              value={filters.idade}
              onChange={(idade) => idade && set({ idade })}
            />
            {filtered ? (
              <button type="button" className="btn btn-ghost" onClick={clearFilters}>
                Limpar filtros
              </button>
            ) : null}
          </div>
          {bulk ? <BulkToolbar view={filters.view} selection={selection} onDone={reload} /> : null}
          <div ref={tableRef} tabIndex={-1} className="queue-body">
            {q.error && !items.length ? (
              <ErrorState error={q.error} onRetry={reload} />
            ) : q.loading && !items.length ? (
              <LoadingState label="Carregando a fila…" />
            ) : !items.length ? (
              <EmptyState
                title={
                  filtered ? 'Nenhum pedido com esses filtros' : VIEW_EMPTY[filters.view].title
                }
                action={
                  filtered ? (
                    <button type="button" className="btn" onClick={clearFilters}>
                      Limpar filtros
                    </button>
                  ) : undefined
                }
              >
                {filtered
                  ? 'Mude ou limpe os filtros para ver outros pedidos.'
                  : VIEW_EMPTY[filters.view].text}
              </EmptyState>
            ) : (
              <QueueTable
                view={filters.view}
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
                selection={bulk ? selection : undefined}
              />
            )}
          </div>
        </Tabs.Content>
      </Tabs.Root>
    </Page>
  );
}
