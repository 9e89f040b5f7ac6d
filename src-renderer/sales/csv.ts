/**
 * CSV export of a result table (pure: no DOM). Two formats:
 * - `padrao`: comma separator, decimal point, ISO dates — for other programs;
 * - `pt-BR`: semicolon separator, decimal comma, DD/MM/YYYY dates and a UTF-8 BOM — what a
 *   spreadsheet set to Portuguese (Brazil) opens as numbers without an import wizard.
 * Money is exported in reais with two decimals (from integer centavos, without float drift).
 */
export type CsvFormat = 'padrao' | 'pt-BR';

/** How a column's values are written. */
export type CsvKind = 'texto' | 'centavos' | 'numero' | 'data';

export interface CsvColumn<R> {
  header: string;
  kind: CsvKind;
  value: (row: R) => unknown;
}

const BOM = '\uFEFF';

/** Reais text of integer centavos: 123456 → "1234.56" (or "1234,56"). */
export function centavosToDecimal(centavos: number, decimal: '.' | ','): string {
  if (!Number.isSafeInteger(centavos)) throw new RangeError('valor em centavos deve ser inteiro');
  const sign = centavos < 0 ? '-' : '';
  const abs = Math.abs(centavos);
  const reais = Math.floor(abs / 100);
  const cents = String(abs % 100).padStart(2, '0');
  return `${sign}${reais}${decimal}${cents}`;
}

const plainNumber = new Intl.NumberFormat('en-US', {
  useGrouping: false,
  maximumFractionDigits: 20,
});

function numberText(n: number, decimal: '.' | ','): string {
  if (!Number.isFinite(n)) return '';
  // No exponent notation, no thousands separators: spreadsheets must read it back as a number.
  const plain = plainNumber.format(n);
  return decimal === ',' ? plain.replace('.', ',') : plain;
}

function cellText(v: unknown, kind: CsvKind, format: CsvFormat): string {
  if (v === null || v === undefined) return '';
  const decimal = format === 'pt-BR' ? ',' : '.';
  if (kind === 'centavos' && typeof v === 'number' && Number.isSafeInteger(v)) {
    return centavosToDecimal(v, decimal);
  }
  if (typeof v === 'number') return numberText(v, decimal);
  // An exact decimal string (a bigint/numeric a double cannot hold): every digit kept.
  if (kind === 'numero' && typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)) {
    return decimal === ',' ? v.replace('.', ',') : v;
  }
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'boolean') return v ? 'sim' : 'não';
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? '' : v.toISOString();
  if (kind === 'data' && typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v)) {
    if (format === 'padrao') return v;
    const [y, m, d] = v.split('-');
    return `${d}/${m}/${y}`;
  }
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  // A cell that starts like a formula is neutralised (text from data must never run in a sheet).
  return /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
}

function quote(s: string, delimiter: string): string {
  return s.includes(delimiter) || /["\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** RFC 4180 CSV (CRLF line ends), header first. */
export function toCsv<R>(columns: CsvColumn<R>[], rows: readonly R[], format: CsvFormat): string {
  const delimiter = format === 'pt-BR' ? ';' : ',';
  const line = (cells: string[]) => cells.map((c) => quote(c, delimiter)).join(delimiter);
  const out = [line(columns.map((c) => c.header))];
  for (const row of rows) {
    out.push(line(columns.map((c) => cellText(c.value(row), c.kind, format))));
  }
  return (format === 'pt-BR' ? BOM : '') + out.join('\r\n') + '\r\n';
}
