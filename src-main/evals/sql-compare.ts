/**
 * Compares two free-SQL results by what they say, not by how the SQL was written: the same
 * rows and values, whatever the columns are called and in whichever order the columns and
 * (unless the question implies an order) the rows come. Two SQL texts that answer the same
 * question in different shapes compare equal; an off-by-one date compares different.
 */

/** One cell as the executor returns it (exact strings for big numbers, ISO for timestamps). */
export type Celula = string | number | boolean | null;

export interface ResultadoTabela {
  colunas: string[];
  linhas: Celula[][];
}

export interface ComparacaoResultado {
  igual: boolean;
  /** pt-BR explanation when different (what differs first). */
  motivo?: string;
}

/** At most this many columns are tried in every order (7! = 5,040 mappings). */
const MAX_COLUNAS_PERMUTADAS = 7;
/** Relative tolerance for non-integer numbers (float rounding in averages and ratios). */
const TOLERANCIA = 1e-9;

const NUMERO = /^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;

/**
 * A canonical text for one cell: numbers and numeric strings as the shortest decimal ("150.00"
 * = "150" = 150), timestamps as instants (any zone offset), booleans and null as themselves.
 */
export function canonical(v: Celula): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return Number.isFinite(v) ? canonicalDecimal(String(v)) : String(v);
  const s = v.trim();
  if (NUMERO.test(s)) return canonicalDecimal(s);
  // 2026-03-01T12:00:00-03:00 and 2026-03-01T15:00:00+00:00 are the same instant.
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?([+-]\d{2}:\d{2}|Z)$/.test(s)) {
    const t = Date.parse(s);
    if (Number.isFinite(t)) return `t:${new Date(t).toISOString()}`;
  }
  return `s:${s}`;
}

/** Exact decimal text without a sign on zero, leading zeros or trailing fraction zeros. */
function canonicalDecimal(s: string): string {
  if (/[eE]/.test(s)) {
    const n = Number(s);
    return Number.isFinite(n) ? canonicalDecimal(n.toFixed(20)) : s;
  }
  let neg = s.startsWith('-');
  let body = neg ? s.slice(1) : s;
  let [int = '', frac = ''] = body.split('.');
  int = int.replace(/^0+/, '') || '0';
  frac = frac.replace(/0+$/, '');
  body = frac ? `${int}.${frac}` : int;
  if (body === '0') neg = false;
  return neg ? `-${body}` : body;
}

function numeric(c: string): number | null {
  return NUMERO.test(c) ? Number(c) : null;
}

/** Cells equal: the same canonical text, or two non-integers within float rounding. */
function cellsEqual(a: string, b: string): boolean {
  if (a === b) return true;
  const x = numeric(a);
  const y = numeric(b);
  if (x === null || y === null) return false;
  if (Number.isInteger(x) && Number.isInteger(y)) return false;
  return Math.abs(x - y) <= TOLERANCIA * Math.max(1, Math.abs(x), Math.abs(y));
}

function rowsEqual(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => cellsEqual(v, b[i]!));
}

/** Sorts rows by their canonical text (for order-insensitive comparison). */
function sortRows(rows: string[][]): string[][] {
  return [...rows].sort((a, b) => {
    const ka = a.join('\u0001');
    const kb = b.join('\u0001');
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
}

function multisetEqual(a: string[][], b: string[][]): boolean {
  if (a.length !== b.length) return false;
  const sa = sortRows(a);
  const sb = sortRows(b);
  if (sa.every((r, i) => rowsEqual(r, sb[i]!))) return true;
  // Float tolerance can reorder rows by text: fall back to matching row by row.
  const used = new Array<boolean>(sb.length).fill(false);
  return sa.every((r) => {
    const j = sb.findIndex((s, k) => !used[k] && rowsEqual(r, s));
    if (j < 0) return false;
    used[j] = true;
    return true;
  });
}

function* permutations(n: number): Generator<number[]> {
  const idx = Array.from({ length: n }, (_, i) => i);
  const c = new Array<number>(n).fill(0);
  yield [...idx];
  let i = 0;
  while (i < n) {
    if (c[i]! < i) {
      const j = i % 2 === 0 ? 0 : c[i]!;
      [idx[j], idx[i]] = [idx[i]!, idx[j]!];
      yield [...idx];
      c[i]! += 1;
      i = 0;
    } else {
      c[i] = 0;
      i += 1;
    }
  }
}

/** The columns' orders to try: the given one first, then every other one (small tables only). */
function columnOrders(n: number): Iterable<number[]> {
  return n <= MAX_COLUNAS_PERMUTADAS ? permutations(n) : [Array.from({ length: n }, (_, i) => i)];
}

/**
 * Compares the model's result with the reference. `ordenado`: the question implies an order
 * (a ranking, "as 5 maiores"), so rows must come in the same order.
 */
export function compareResults(
  referencia: ResultadoTabela,
  obtido: ResultadoTabela,
  opts: { ordenado?: boolean } = {},
): ComparacaoResultado {
  const nRef = referencia.colunas.length;
  const nGot = obtido.colunas.length;
  if (nRef !== nGot) {
    return {
      igual: false,
      motivo: `${nGot} coluna(s) no resultado, ${nRef} na referência.`,
    };
  }
  if (referencia.linhas.length !== obtido.linhas.length) {
    return {
      igual: false,
      motivo: `${obtido.linhas.length} linha(s) no resultado, ${referencia.linhas.length} na referência.`,
    };
  }
  const ref = referencia.linhas.map((r) => r.map(canonical));
  const got = obtido.linhas.map((r) => r.map(canonical));
  for (const order of columnOrders(nGot)) {
    const projected = got.map((r) => order.map((i) => r[i]!));
    const same = opts.ordenado
      ? projected.every((r, i) => rowsEqual(r, ref[i]!))
      : multisetEqual(projected, ref);
    if (same) return { igual: true };
  }
  return { igual: false, motivo: firstDifference(ref, got, opts.ordenado ?? false) };
}

function firstDifference(ref: string[][], got: string[][], ordenado: boolean): string {
  const a = ordenado ? ref : sortRows(ref);
  const b = ordenado ? got : sortRows(got);
  const i = a.findIndex((r, k) => !rowsEqual(r, b[k] ?? []));
  const show = (r: string[] | undefined) =>
    r ? `(${r.map((c) => c.replace(/^[st]:/, '')).join(', ')})` : '(nenhuma)';
  return i < 0
    ? 'As linhas diferem na ordem das colunas.'
    : `Linha ${i + 1}${ordenado ? '' : ' (após ordenar)'}: referência ${show(a[i])}, obtido ${show(b[i])}.`;
}
