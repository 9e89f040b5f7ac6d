import { useEffect, useMemo, useRef } from 'react';
import {
  createColumnHelper,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type SortingState,
  type Updater,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  DISCARD_REASON_LABELS,
  type QueueItem,
  type QueueSort,
  type QueueView,
} from '@shared/contract/review';
import { CellText } from '../components/CellText';
import { StatusBadge } from '../components/States';
import { formatDateTime } from '../format';
import { deadlineStatus } from '@shared/deadline';
import { SITUACAO_TONE, formatAge, situacaoText } from './labels';
import type { BulkSelection } from './BulkActions';

const features = tableFeatures({ rowSortingFeature });
const col = createColumnHelper<typeof features, QueueItem>();

/**
 * Server sorts ↔ TanStack sorting state (the table never sorts rows itself). Closed views have
 * no deadline: there the server lists `prazo` oldest first, and the arrow says so.
 */
export function sortingOf(sort: QueueSort, view: QueueView): SortingState {
  if (sort === 'prazo') {
    return view === 'aberta' ? [{ id: 'prazo', desc: false }] : [{ id: 'criadaEm', desc: false }];
  }
  if (sort === 'antigas') return [{ id: 'criadaEm', desc: false }];
  if (sort === 'tentativas') return [{ id: 'tentativas', desc: true }];
  return [{ id: 'criadaEm', desc: true }];
}
export function sortOf(s: SortingState): QueueSort {
  const first = s[0];
  if (first?.id === 'prazo') return 'prazo';
  if (first?.id === 'tentativas') return 'tentativas';
  if (first?.id === 'criadaEm' && !first.desc) return 'antigas';
  return 'recentes';
}

/**
 * Column tracks (flex, the same in every row of the virtual list). Columns of a fixed shape —
 * dates, the situation badge, the age — are as wide as their widest text in the loaded rows (and
 * their header), measured (`fitContent`); free text shares the rest and is cut with an ellipsis
 * and a title (#40.3).
 */
const WIDTHS: Record<string, string> = {
  merchantNome: '1 1 190px',
  texto: '3 1 240px',
  cobrancaId: '0 0 110px',
  resolvidaPor: '0 1 160px',
  descarteMotivo: '2 1 220px',
  tentativas: '0 0 92px',
  motivo: '2 1 200px',
  emAnalisePor: '0 1 150px',
};

/** Cell padding (8 px each side) and a pixel of rounding. */
const CELL_EXTRA = 18;
/** A badge's own padding (8 px each side). */
const BADGE_EXTRA = 16;

let measurer: CanvasRenderingContext2D | null = null;
/** Width of `text` in `font` (a CSS font shorthand) — the browser's own text measurement. */
function textWidth(text: string, font: string): number {
  measurer ??= document.createElement('canvas').getContext('2d');
  if (!measurer) return text.length * 9;
  measurer.font = font;
  return measurer.measureText(text).width;
}

/** The fonts of the table's header, cells and badges (styles/base.css, controls.css). */
function tableFonts() {
  const family = getComputedStyle(document.documentElement).fontFamily;
  return {
    head: `650 12px ${family}`,
    body: `400 14px ${family}`,
    badge: `600 12px ${family}`,
  };
}

/** A fixed track as wide as the widest of the header (with its sort arrow) and the values. */
function fitContent(
  header: string,
  values: readonly string[],
  font: string,
  extra = 0,
  fonts = tableFonts(),
): string {
  let w = textWidth(`${header} ↓`, fonts.head);
  for (const v of new Set(values)) w = Math.max(w, textWidth(v, font) + extra);
  return `0 0 ${Math.ceil(w + CELL_EXTRA)}px`;
}

const ROW_HEIGHT = 38;
/** The bulk selection's checkbox column. */
const CHECK_WIDTH = '0 0 40px';

export function QueueTable({
  view,
  items,
  sort,
  onSort,
  selected,
  onSelect,
  onOpen,
  onEndReached,
  loadingMore,
  hasMore,
  busy,
  timeZone,
  now,
  label,
  selection,
}: {
  view: QueueView;
  items: QueueItem[];
  sort: QueueSort;
  onSort: (s: QueueSort) => void;
  selected: number;
  onSelect: (index: number) => void;
  onOpen: (item: QueueItem) => void;
  onEndReached: () => void;
  loadingMore: boolean;
  hasMore: boolean;
  busy: boolean;
  timeZone: string;
  now: number;
  label: string;
  /** A supervisor's bulk selection (#39.5): a checkbox column first. */
  selection?: BulkSelection | undefined;
}) {
  const columns = useMemo(() => {
    const common = [
      col.accessor('criadaEm', {
        header: 'Recebido',
        cell: (c) => <CellText text={formatDateTime(c.getValue(), timeZone)} />,
        sortDescFirst: true,
      }),
      col.accessor('merchantNome', {
        header: 'Lojista',
        enableSorting: false,
        cell: (c) => <CellText text={c.getValue()} />,
      }),
      col.accessor('texto', {
        header: 'Mensagem',
        enableSorting: false,
        cell: (c) => <span title={c.getValue()}>{c.getValue()}</span>,
      }),
    ];
    const when = (v: string | null) => (v ? formatDateTime(v, timeZone) : '—');
    /** Who closed the item and when: "Resolvido por/em", "Descartado por/em". */
    const closedBy = (verbo: string) => [
      col.accessor('resolvidaPor', {
        header: `${verbo} por`,
        enableSorting: false,
        cell: (c) => <CellText text={c.getValue() ?? '—'} />,
      }),
      col.accessor('resolvidaEm', {
        header: `${verbo} em`,
        enableSorting: false,
        cell: (c) => <CellText text={when(c.getValue())} />,
      }),
    ];
    if (view === 'resolvida') {
      return col.columns([
        ...common,
        col.accessor('cobrancaId', {
          header: 'Cobrança',
          enableSorting: false,
          cell: (c) => (c.getValue() ? `#${c.getValue()}` : '—'),
        }),
        ...closedBy('Resolvido'),
      ]);
    }
    if (view === 'descartada') {
      return col.columns([
        ...common,
        ...closedBy('Descartado'),
        col.accessor('descarteMotivo', {
          header: 'Motivo do descarte',
          enableSorting: false,
          cell: (c) => {
            const m = c.getValue();
            const d = c.row.original.descarteDetalhe;
            const t = m ? `${DISCARD_REASON_LABELS[m]}${d ? `: ${d}` : ''}` : '—';
            return <span title={t}>{t}</span>;
          },
        }),
      ]);
    }
    return col.columns([
      ...common,
      col.accessor('situacao', {
        header: 'Situação',
        enableSorting: false,
        cell: (c) => {
          const text = situacaoText(c.row.original, now);
          return (
            <StatusBadge tone={SITUACAO_TONE[c.getValue()]} title={text}>
              {text}
            </StatusBadge>
          );
        },
      }),
      // The deadline (#39.2) and the default order: past it and near it (under 25% left) are
      // badges whose words say so ("atrasado há 1 h", "vence em 12 min"); otherwise the time left.
      col.accessor('prazo', {
        header: 'Prazo',
        cell: (c) => {
          const p = c.getValue();
          const st = deadlineStatus(p, now);
          if (!p || !st) return '—';
          const title = `${st.text} (prazo: ${formatDateTime(p.ate, timeZone)})`;
          return st.kind === 'no_prazo' ? (
            <span className="cell-clip" title={title}>
              {st.text}
            </span>
          ) : (
            <span data-prazo={st.kind}>
              <StatusBadge tone={st.kind === 'atrasado' ? 'danger' : 'warn'} title={title}>
                <span aria-hidden="true">{st.kind === 'atrasado' ? '⚠ ' : '◔ '}</span>
                {st.text}
              </StatusBadge>
            </span>
          );
        },
      }),
      col.accessor('tentativas', { header: 'Tentativas', sortDescFirst: true }),
      col.accessor('motivo', {
        header: 'Motivo',
        enableSorting: false,
        cell: (c) => <span title={c.getValue()}>{c.getValue() || '—'}</span>,
      }),
      col.accessor('emAnalisePor', {
        header: 'Com quem',
        enableSorting: false,
        cell: (c) => {
          const who = c.getValue();
          if (who) return <CellText className="queue-held" text={`em análise por ${who}`} />;
          const to = c.row.original.atribuidaA;
          return to ? <CellText className="queue-assigned" text={`atribuído a ${to}`} /> : '—';
        },
      }),
      col.display({
        id: 'idade',
        header: 'Idade',
        cell: (c) => <CellText text={formatAge(c.row.original.criadaEm, now)} />,
      }),
    ]);
  }, [timeZone, now, view]);
  const widths = useMemo((): Record<string, string> => {
    const fonts = tableFonts();
    const when = (v: string | null) => (v ? formatDateTime(v, timeZone) : '—');
    const verbo = view === 'descartada' ? 'Descartado' : 'Resolvido';
    return {
      ...WIDTHS,
      criadaEm: fitContent(
        'Recebido',
        items.map((it) => formatDateTime(it.criadaEm, timeZone)),
        fonts.body,
        0,
        fonts,
      ),
      resolvidaEm: fitContent(
        `${verbo} em`,
        items.map((it) => when(it.resolvidaEm)),
        fonts.body,
        0,
        fonts,
      ),
      situacao: fitContent(
        'Situação',
        items.map((it) => situacaoText(it, now)),
        fonts.badge,
        BADGE_EXTRA,
        fonts,
      ),
      // Marks are badges (with a glyph); the time left is plain text, never wider than them.
      prazo: fitContent(
        'Prazo',
        items.map((it) => {
          const st = deadlineStatus(it.prazo, now);
          return st ? `⚠ ${st.text}` : '—';
        }),
        fonts.badge,
        BADGE_EXTRA,
        fonts,
      ),
      idade: fitContent(
        'Idade',
        items.map((it) => formatAge(it.criadaEm, now)),
        fonts.body,
        0,
        fonts,
      ),
    };
  }, [items, now, timeZone, view]);
  const sorting = useMemo(() => sortingOf(sort, view), [sort, view]);
  const table = useTable({
    features,
    columns,
    data: items,
    getRowId: (r) => String(r.id),
    manualSorting: true,
    enableMultiSort: false,
    enableSortingRemoval: false,
    state: { sorting },
    onSortingChange: (u: Updater<SortingState>) => {
      const next = typeof u === 'function' ? u(sorting) : u;
      const s = sortOf(next);
      // "tentativas" only sorts most-first; a second click goes back to the newest.
      onSort(s === sort && s === 'tentativas' ? 'recentes' : s);
    },
  });
  // Columns that shrink (free text, WIDTHS) stop at their header, so no header is ever cut: with
  // the Prazo column (#39.2) the open view is crowded at 1366 px; text cells cut with an ellipsis.
  const fonts = tableFonts();
  const minWidths: Record<string, number> = {};
  for (const c of table.getAllLeafColumns()) {
    const h = c.columnDef.header;
    if (typeof h === 'string' && c.id in WIDTHS)
      minWidths[c.id] = Math.ceil(textWidth(`${h} ↓`, fonts.head) + CELL_EXTRA);
  }
  const rows = table.getRowModel().rows;
  const scrollRef = useRef<HTMLDivElement>(null);
  // The project does not run the React Compiler; the virtualizer is used as documented.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    getItemKey: (i) => rows[i]?.id ?? i,
    overscan: 10,
  });
  const virtualItems = virtualizer.getVirtualItems();
  const lastIndex = virtualItems[virtualItems.length - 1]?.index ?? -1;

  // Near the end of what is loaded: ask for the next keyset page.
  useEffect(() => {
    if (hasMore && !loadingMore && lastIndex >= rows.length - 15) onEndReached();
  }, [lastIndex, rows.length, hasMore, loadingMore, onEndReached]);

  useEffect(() => {
    if (selected >= 0 && selected < rows.length)
      virtualizer.scrollToIndex(selected, { align: 'auto' });
  }, [selected, rows.length, virtualizer]);

  return (
    <div
      className="queue-scroll table-wrap"
      ref={scrollRef}
      aria-busy={busy}
      data-testid="queue-table"
    >
      <table className="table queue-table" aria-rowcount={rows.length} aria-label={label}>
        <thead className="queue-thead">
          {table.getHeaderGroups().map((g) => (
            <tr key={g.id} className="queue-tr">
              {selection ? (
                <th scope="col" className="queue-check" style={{ flex: CHECK_WIDTH }}>
                  <span className="visually-hidden">Seleção</span>
                  <input
                    type="checkbox"
                    aria-label="Selecionar todos os pedidos carregados"
                    checked={selection.pageState === 'all'}
                    ref={(el) => {
                      if (el) el.indeterminate = selection.pageState === 'some';
                    }}
                    onChange={selection.togglePage}
                    data-testid="bulk-select-page"
                  />
                </th>
              ) : null}
              {g.headers.map((h) => {
                const canSort = h.column.getCanSort();
                const dir = h.column.getIsSorted();
                return (
                  <th
                    key={h.id}
                    scope="col"
                    style={{ flex: widths[h.column.id], minWidth: minWidths[h.column.id] }}
                    aria-sort={
                      dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : undefined
                    }
                  >
                    {canSort ? (
                      <button
                        type="button"
                        className="queue-sort"
                        onClick={h.column.getToggleSortingHandler()}
                        title="Ordenar"
                      >
                        <table.FlexRender header={h} />
                        <span aria-hidden="true">
                          {dir === 'asc' ? ' ↑' : dir === 'desc' ? ' ↓' : ''}
                        </span>
                      </button>
                    ) : (
                      <table.FlexRender header={h} />
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody className="queue-tbody" style={{ height: virtualizer.getTotalSize() }}>
          {virtualItems.map((v) => {
            const row = rows[v.index];
            if (!row) return null;
            const isSel = v.index === selected;
            return (
              <tr
                key={row.id}
                data-index={v.index}
                data-testid={`queue-row-${row.original.id}`}
                className="queue-tr queue-row"
                aria-selected={isSel}
                aria-rowindex={v.index + 1}
                style={{ transform: `translateY(${v.start}px)`, height: ROW_HEIGHT }}
                onClick={() => {
                  onSelect(v.index);
                  onOpen(row.original);
                }}
              >
                {selection ? (
                  <td
                    className="queue-check"
                    style={{ flex: CHECK_WIDTH }}
                    // The whole cell is the box's target: a near miss never opens the item.
                    onClick={(e) => {
                      e.stopPropagation();
                      if (e.target === e.currentTarget) selection.toggle(v.index, e.shiftKey);
                    }}
                  >
                    <input
                      type="checkbox"
                      aria-label={`Selecionar o pedido #${row.original.id}`}
                      checked={selection.isChecked(row.original.id)}
                      tabIndex={isSel ? 0 : -1}
                      onFocus={() => onSelect(v.index)}
                      onChange={(e) =>
                        selection.toggle(
                          v.index,
                          'shiftKey' in e.nativeEvent && e.nativeEvent.shiftKey === true,
                        )
                      }
                      data-testid={`bulk-select-${row.original.id}`}
                    />
                  </td>
                ) : null}
                {row.getAllCells().map((cell) => (
                  <td
                    key={cell.id}
                    style={{ flex: widths[cell.column.id], minWidth: minWidths[cell.column.id] }}
                  >
                    {cell.column.id === 'texto' ? (
                      <a
                        href={`#/fila/${row.original.id}`}
                        className="queue-open"
                        onClick={(e) => {
                          e.preventDefault();
                          e.stopPropagation();
                          onSelect(v.index);
                          onOpen(row.original);
                        }}
                        tabIndex={isSel ? 0 : -1}
                      >
                        <table.FlexRender cell={cell} />
                      </a>
                    ) : (
                      <table.FlexRender cell={cell} />
                    )}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
      {loadingMore ? (
        <p className="table-note" role="status">
          Carregando mais…
        </p>
      ) : null}
    </div>
  );
}
