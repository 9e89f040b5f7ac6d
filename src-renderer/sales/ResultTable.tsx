import { useMemo } from 'react';
import {
  createColumnHelper,
  createSortedRowModel,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type SortFn,
} from '@tanstack/react-table';
import type { SalesAnswer } from '@shared/contract/sales';
import {
  AGRUPAMENTO_LABELS,
  capitalize,
  formatGrupo,
  formatPercentual,
  formatValor,
} from '@shared/sales-format';
import { bestGroupIndex, chartKindFor, shares } from './chart-kind';
import { valueHeader } from './export';

export interface TableRow {
  /** Position in the answer (the natural order: by date, by hour…). */
  ordem: number;
  rotulo: string;
  valor: number | null;
  participacao: number | null;
  melhor: boolean;
}

const features = tableFeatures({ rowSortingFeature, sortedRowModel: createSortedRowModel() });
const helper = createColumnHelper<typeof features, TableRow>();

/** Ascending by the column's number; the table reverses it for descending. */
const byNumber =
  (key: 'ordem' | 'valor' | 'participacao'): SortFn<typeof features, TableRow> =>
  (a, b) =>
    (a.original[key] ?? -Infinity) - (b.original[key] ?? -Infinity);

/** Grouped result as a sortable table (click or Enter on a header), totals row, best group marked. */
export function ResultTable({ answer }: { answer: SalesAnswer }) {
  const { agrupar_por: g, metrica } = answer.consulta;
  const showShare = chartKindFor(g, metrica, answer.linhas).tipo === 'participacao';

  const data = useMemo<TableRow[]>(() => {
    const best = bestGroupIndex(g, answer.linhas);
    const sh = shares(answer.linhas);
    return answer.linhas.map((l, i) => ({
      ordem: i,
      rotulo: formatGrupo(g, l.grupo),
      valor: l.valor,
      participacao: sh[i] ?? null,
      melhor: i === best,
    }));
  }, [answer, g]);

  const columns = useMemo(
    () =>
      helper.columns([
        helper.accessor('rotulo', {
          header: capitalize(AGRUPAMENTO_LABELS[g]),
          sortFn: byNumber('ordem'),
          cell: (info) => (
            <>
              {info.getValue()}
              {info.row.original.melhor && (
                <span className="sales-badge" title="Maior valor">
                  melhor
                </span>
              )}
            </>
          ),
        }),
        helper.accessor('valor', {
          header: valueHeader(metrica),
          sortFn: byNumber('valor'),
          sortDescFirst: true,
          cell: (info) => formatValor(metrica, info.getValue()),
        }),
        ...(showShare
          ? [
              helper.accessor('participacao', {
                header: 'Participação',
                sortFn: byNumber('participacao'),
                sortDescFirst: true,
                cell: (info) => {
                  const v = info.getValue();
                  return v === null ? '—' : formatPercentual(v);
                },
              }),
            ]
          : []),
      ]),
    [g, metrica, showShare],
  );

  const table = useTable({ features, columns, data });

  return (
    <div className="sales-table-wrap">
      <table className="sales-table" data-testid="result-table">
        <caption className="visually-hidden">
          Resultado por {AGRUPAMENTO_LABELS[g]}. Clique no título de uma coluna para ordenar.
        </caption>
        <thead>
          {table.getHeaderGroups().map((hg) => (
            <tr key={hg.id}>
              {hg.headers.map((h) => {
                const sorted = h.column.getIsSorted();
                return (
                  <th
                    key={h.id}
                    scope="col"
                    className={h.column.id === 'rotulo' ? undefined : 'is-num'}
                    aria-sort={
                      sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none'
                    }
                  >
                    <button
                      type="button"
                      className="sales-th-btn"
                      onClick={h.column.getToggleSortingHandler()}
                    >
                      <table.FlexRender header={h} />
                      <span aria-hidden="true" className="sales-sort">
                        {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '↕'}
                      </span>
                    </button>
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr
              key={row.id}
              className={row.original.melhor ? 'is-best' : undefined}
              data-testid={row.original.melhor ? 'best-row' : undefined}
            >
              {row.getAllCells().map((cell) =>
                cell.column.id === 'rotulo' ? (
                  <th key={cell.id} scope="row">
                    <table.FlexRender cell={cell} />
                  </th>
                ) : (
                  <td key={cell.id} className="is-num">
                    <table.FlexRender cell={cell} />
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr data-testid="totals-row">
            <th scope="row">Total do período</th>
            <td className="is-num">{formatValor(metrica, answer.total)}</td>
            {showShare && <td className="is-num">{answer.total ? formatPercentual(1) : '—'}</td>}
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
