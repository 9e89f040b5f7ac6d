/**
 * Free-SQL guard, layer 1: the ALLOWLIST as data — the one view, the size bounds, and every
 * function, operator, cast type, date unit and expression kind a query may use. The walker
 * (`walk-select.ts`, `walk-expr.ts`) refuses whatever is not named here.
 */

export const VIEW_NAME = 'vendas_ia';
export const MAX_SQL_LENGTH = 8_000;
export const MAX_NODES = 4_000;
export const MAX_DEPTH = 80;
export const MAX_SUBQUERY_DEPTH = 8;
export const MAX_CTES = 12;
/** Relation/function/subquery items in FROM clauses, in the whole query (cross-join blowups). */
export const MAX_FROM_ITEMS = 16;

/** Aggregates (no string/array/json aggregation: unbounded output, string building). */
export const AGGREGATES = new Set([
  'count',
  'sum',
  'avg',
  'min',
  'max',
  'stddev',
  'stddev_samp',
  'stddev_pop',
  'variance',
  'var_samp',
  'var_pop',
  'bool_and',
  'bool_or',
  'every',
]);
/** Ordered-set aggregates (WITHIN GROUP). */
export const ORDERED_SET = new Set(['percentile_cont', 'percentile_disc', 'mode']);
export const WINDOW = new Set([
  'row_number',
  'rank',
  'dense_rank',
  'percent_rank',
  'cume_dist',
  'ntile',
  'lag',
  'lead',
  'first_value',
  'last_value',
  'nth_value',
]);
/** Scalar functions: none evaluates strings as SQL, touches catalogs, sleeps, locks or grows data. */
export const SCALAR = new Set([
  'round',
  'trunc',
  'abs',
  'ceil',
  'ceiling',
  'floor',
  'sign',
  'div',
  'mod',
  'date_trunc',
  'date_part',
  'extract',
  'to_char',
  'timezone',
  'make_date',
  'lower',
  'upper',
  'initcap',
  'length',
  'char_length',
  'btrim',
  'ltrim',
  'rtrim',
  'substr',
  'substring',
  'left',
  'right',
  'strpos',
  'position',
  'generate_series',
]);
export const SET_RETURNING = new Set(['generate_series']);

export const DATE_TRUNC_UNITS = new Set([
  'microseconds',
  'milliseconds',
  'second',
  'minute',
  'hour',
  'day',
  'week',
  'month',
  'quarter',
  'year',
  'decade',
  'century',
  'millennium',
]);
export const EXTRACT_FIELDS = new Set([
  ...DATE_TRUNC_UNITS,
  'dow',
  'isodow',
  'doy',
  'epoch',
  'isoyear',
  'julian',
]);
export const ZONE_RE = /^[A-Za-z][A-Za-z0-9_+\-/]{0,40}$/;
export const TO_CHAR_FORMAT_RE = /^[A-Za-z0-9 :/.,\-_]{1,40}$/;

export const OPERATORS = new Set([
  '=',
  '<>',
  '!=',
  '<',
  '>',
  '<=',
  '>=',
  '+',
  '-',
  '*',
  '/',
  '%',
  '~~',
  '~~*',
  '!~~',
  '!~~*',
]);
export const EXPR_KINDS = new Set([
  'AEXPR_OP',
  'AEXPR_OP_ANY',
  'AEXPR_OP_ALL',
  'AEXPR_DISTINCT',
  'AEXPR_NOT_DISTINCT',
  'AEXPR_NULLIF',
  'AEXPR_IN',
  'AEXPR_LIKE',
  'AEXPR_ILIKE',
  'AEXPR_BETWEEN',
  'AEXPR_NOT_BETWEEN',
  'AEXPR_BETWEEN_SYM',
  'AEXPR_NOT_BETWEEN_SYM',
]);
export const BETWEEN_KINDS = new Set([
  'AEXPR_BETWEEN',
  'AEXPR_NOT_BETWEEN',
  'AEXPR_BETWEEN_SYM',
  'AEXPR_NOT_BETWEEN_SYM',
]);

export const TYPES = new Set([
  'int2',
  'int4',
  'int8',
  'numeric',
  'float4',
  'float8',
  'text',
  'varchar',
  'bpchar',
  'bool',
  'date',
  'timestamp',
  'timestamptz',
  'interval',
]);

/**
 * The database clock is not ours: dates come from the one Clock of the app (the question's
 * "hoje" is given to the model), so now()/current_date and friends are refused.
 */
export const CLOCK_FUNCTIONS = new Set([
  'now',
  'age',
  'clock_timestamp',
  'statement_timestamp',
  'transaction_timestamp',
  'timeofday',
]);
/**
 * PostgreSQL's special date/time input strings read the database clock ('now', 'today',
 * 'tomorrow', 'yesterday') or are not dates at all ('epoch', 'infinity'); in any case and
 * spacing, and through any cast (`'now'::timestamptz`, `date 'today'`, `'now'::text::date`, an
 * untyped literal compared with a timestamp). Text can only be built from one constant, a
 * column value or a to_char output (no concatenation is allowed), so refusing every string
 * constant that CONTAINS one of these words (substr could cut it out of a longer one) and
 * letting to_char print digits only closes the road. `inf` also covers float infinity, whose
 * text form 'Infinity' casts to an infinite timestamp.
 */
export const CLOCK_WORDS_RE = /now|today|tomorrow|yesterday|epoch|inf/i;
/** to_char formats: numeric patterns and separators only (no names, no free letters). */
export const TO_CHAR_TOKEN_RE =
  /^(?:FM|HH24|HH12|HH|MI|SS|MS|US|YYYY|IYYY|YYY|YY|Y|MM|DDD|DD|D|ID|IW|WW|Q|CC|[0-9 :/.,\-_])/i;

export function toCharFormatOk(format: string | undefined): boolean {
  if (format === undefined || !TO_CHAR_FORMAT_RE.test(format)) return false;
  let rest = format;
  while (rest.length > 0) {
    const m = TO_CHAR_TOKEN_RE.exec(rest);
    if (!m) return false;
    rest = rest.slice(m[0].length);
  }
  return true;
}

export const SUBLINK_TYPES = new Set([
  'EXISTS_SUBLINK',
  'ALL_SUBLINK',
  'ANY_SUBLINK',
  'EXPR_SUBLINK',
]);

/** System columns exist on tables, not on the view; refused by name anyway. */
export const SYSTEM_COLUMNS = new Set(['ctid', 'xmin', 'xmax', 'cmin', 'cmax', 'tableoid', 'oid']);
