/**
 * CSV of what the panel shows (pure: no DOM): the grouped rows and the totals row of a DSL
 * answer, or the rows of a free query as they came.
 */
import type { MerchantSummary, SalesAnswer, SalesFreeAnswer } from '@shared/contract/sales';
import type { LinhaVenda } from '@shared/sales-dsl';
import { AGRUPAMENTO_LABELS, METRICA_LABELS, formatGrupo } from '@shared/sales-format';
import { toCsv, type CsvColumn, type CsvFormat } from './csv';

interface CsvRow {
  grupo: string | null;
  rotulo: string;
  valor: number | null;
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export function valueHeader(metrica: SalesAnswer['consulta']['metrica']): string {
  const label = capitalize(METRICA_LABELS[metrica]);
  return metrica === 'quantidade' ? label : `${label} (R$)`;
}

export function answerCsv(a: SalesAnswer, format: CsvFormat): string {
  const { agrupar_por: g, metrica } = a.consulta;
  const groupCol: CsvColumn<CsvRow> =
    g === 'dia'
      ? { header: 'Dia', kind: 'data', value: (r) => r.grupo ?? r.rotulo }
      : g === 'mes'
        ? { header: 'Mês (AAAA-MM)', kind: 'texto', value: (r) => r.grupo ?? r.rotulo }
        : { header: capitalize(AGRUPAMENTO_LABELS[g]), kind: 'texto', value: (r) => r.rotulo };
  const valueCol: CsvColumn<CsvRow> = {
    header: valueHeader(metrica),
    kind: metrica === 'quantidade' ? 'numero' : 'centavos',
    value: (r) => r.valor,
  };
  const merchantCol = merchantColumn<CsvRow>(a.merchant);
  let rows: CsvRow[];
  if (g === 'nenhum') {
    rows = [{ grupo: null, rotulo: 'Total', valor: a.linhas[0]?.valor ?? null }];
    return toCsv(
      [merchantCol, { header: 'Período', kind: 'texto', value: () => periodText(a) }, valueCol],
      rows,
      format,
    );
  }
  rows = a.linhas.map((l: LinhaVenda) => ({
    grupo: l.grupo,
    rotulo: formatGrupo(g, l.grupo),
    valor: l.valor,
  }));
  rows.push({ grupo: null, rotulo: 'Total do período', valor: a.total });
  return toCsv([merchantCol, groupCol, valueCol], rows, format);
}

/** The merchant on every row: a file passed around still says whose sales these are. */
export function merchantColumn<R>(m: MerchantSummary): CsvColumn<R> {
  return { header: 'Lojista', kind: 'texto', value: () => `${m.nome} (#${m.id})` };
}

function periodText(a: SalesAnswer): string {
  const { data_inicio: i, data_fim: f } = a.consulta;
  return i === f ? i : `${i} a ${f}`;
}

export function freeCsv(a: SalesFreeAnswer, format: CsvFormat): string {
  // Positional: names may repeat (or be `__proto__`); exact decimal strings stay exact.
  const numeric = (v: unknown) =>
    v === null || typeof v === 'number' || (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v));
  const cols: CsvColumn<SalesFreeAnswer['linhas'][number]>[] = a.colunas.map((c, i) => ({
    header: c,
    kind: a.linhas.length > 0 && a.linhas.every((r) => numeric(r[i] ?? null)) ? 'numero' : 'texto',
    value: (r) => r[i] ?? null,
  }));
  return toCsv(cols, a.linhas, format);
}

/** A file name that says what is inside. */
export function csvFileName(a: SalesAnswer | SalesFreeAnswer): string {
  if (a.tipo === 'livre') return `vendas-lojista-${a.merchant.id}-consulta-livre.csv`;
  const q = a.consulta;
  const period = q.data_inicio === q.data_fim ? q.data_inicio : `${q.data_inicio}-a-${q.data_fim}`;
  const by = q.agrupar_por === 'nenhum' ? '' : `-por-${q.agrupar_por}`;
  return `vendas-lojista-${a.merchant.id}-${q.metrica}-${period}${by}.csv`;
}
