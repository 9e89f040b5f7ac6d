/**
 * Free-SQL guard, layer 1: the real PostgreSQL parser (libpg-query) and an ALLOWLIST walk of
 * the parse tree. Accepted: exactly one plain SELECT (WITH allowed, not RECURSIVE) that reads
 * only the view `vendas_ia` (unqualified or `public.`, however quoted) or CTEs it defines, calls
 * only allowlisted functions/operators/casts, and stays within size and nesting bounds.
 * Everything not explicitly allowed — any node type, field, function, operator or type this
 * file does not know — is refused. The guard never throws: every outcome is a verdict.
 */
import { loadModule, parseSync } from 'libpg-query';

export const VIEW_NAME = 'vendas_ia';
export const MAX_SQL_LENGTH = 8_000;
const MAX_NODES = 4_000;
const MAX_DEPTH = 80;
const MAX_SUBQUERY_DEPTH = 8;
const MAX_CTES = 12;
/** Relation/function/subquery items in FROM clauses, in the whole query (cross-join blowups). */
const MAX_FROM_ITEMS = 16;

export type RefusalCode =
  | 'vazio'
  | 'tamanho'
  | 'sintaxe'
  | 'varios_comandos'
  | 'nao_select'
  | 'relacao'
  | 'funcao'
  | 'operador'
  | 'tipo'
  | 'bloqueio'
  | 'into'
  | 'coluna_sistema'
  | 'relogio'
  | 'construcao';

export type GuardVerdict =
  { ok: true; sql: string } | { ok: false; code: RefusalCode; motivo: string };

const PREFIX = 'consulta recusada: ';
export const MSG_ONLY_VIEW = `${PREFIX}só é permitido ler a visão de vendas`;

const MESSAGES: Record<RefusalCode, string> = {
  vazio: `${PREFIX}a consulta está vazia`,
  tamanho: `${PREFIX}a consulta é grande ou aninhada demais`,
  sintaxe: `${PREFIX}o SQL não é válido`,
  varios_comandos: `${PREFIX}envie um único comando SELECT`,
  nao_select: MSG_ONLY_VIEW,
  relacao: MSG_ONLY_VIEW,
  funcao: `${PREFIX}função não permitida`,
  operador: `${PREFIX}operador não permitido`,
  tipo: `${PREFIX}conversão de tipo não permitida`,
  bloqueio: `${PREFIX}FOR UPDATE/SHARE não é permitido`,
  into: `${PREFIX}SELECT INTO não é permitido`,
  coluna_sistema: `${PREFIX}colunas de sistema não são permitidas`,
  relogio: `${PREFIX}use datas literais ('AAAA-MM-DD') em vez de now(), current_date, 'now', 'today' e afins`,
  construcao: `${PREFIX}construção de SQL não permitida`,
};

class Refusal extends Error {
  constructor(
    readonly code: RefusalCode,
    readonly detail?: string,
  ) {
    super(code);
  }
}

function refuse(code: RefusalCode, detail?: string): never {
  throw new Refusal(code, detail);
}

function message(r: Refusal): string {
  const base = MESSAGES[r.code];
  // Echo only a plain identifier/operator of the submitted text, never arbitrary characters.
  const d = r.detail;
  if (d && (r.code === 'funcao' || r.code === 'tipo') && /^[a-z_][a-z0-9_.]{0,62}$/i.test(d)) {
    return `${base} (${d})`;
  }
  if (d && r.code === 'operador' && /^[-+*/%<>=!~|&^#@?]{1,4}$/.test(d)) return `${base} (${d})`;
  return base;
}

// ---------------------------------------------------------------------------------------------
// Allowlists

/** Aggregates (no string/array/json aggregation: unbounded output, string building). */
const AGGREGATES = new Set([
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
const ORDERED_SET = new Set(['percentile_cont', 'percentile_disc', 'mode']);
const WINDOW = new Set([
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
const SCALAR = new Set([
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
const SET_RETURNING = new Set(['generate_series']);

const DATE_TRUNC_UNITS = new Set([
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
const EXTRACT_FIELDS = new Set([
  ...DATE_TRUNC_UNITS,
  'dow',
  'isodow',
  'doy',
  'epoch',
  'isoyear',
  'julian',
]);
const ZONE_RE = /^[A-Za-z][A-Za-z0-9_+\-/]{0,40}$/;
const TO_CHAR_FORMAT_RE = /^[A-Za-z0-9 :/.,\-_]{1,40}$/;

const OPERATORS = new Set([
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
const EXPR_KINDS = new Set([
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
const BETWEEN_KINDS = new Set([
  'AEXPR_BETWEEN',
  'AEXPR_NOT_BETWEEN',
  'AEXPR_BETWEEN_SYM',
  'AEXPR_NOT_BETWEEN_SYM',
]);

const TYPES = new Set([
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
const CLOCK_FUNCTIONS = new Set([
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
const CLOCK_WORDS_RE = /now|today|tomorrow|yesterday|epoch|inf/i;
/** to_char formats: numeric patterns and separators only (no names, no free letters). */
const TO_CHAR_TOKEN_RE =
  /^(?:FM|HH24|HH12|HH|MI|SS|MS|US|YYYY|IYYY|YYY|YY|Y|MM|DDD|DD|D|ID|IW|WW|Q|CC|[0-9 :/.,\-_])/i;

function toCharFormatOk(format: string | undefined): boolean {
  if (format === undefined || !TO_CHAR_FORMAT_RE.test(format)) return false;
  let rest = format;
  while (rest.length > 0) {
    const m = TO_CHAR_TOKEN_RE.exec(rest);
    if (!m) return false;
    rest = rest.slice(m[0].length);
  }
  return true;
}

const SUBLINK_TYPES = new Set(['EXISTS_SUBLINK', 'ALL_SUBLINK', 'ANY_SUBLINK', 'EXPR_SUBLINK']);

/** System columns exist on tables, not on the view; refused by name anyway. */
const SYSTEM_COLUMNS = new Set(['ctid', 'xmin', 'xmax', 'cmin', 'cmax', 'tableoid', 'oid']);

// ---------------------------------------------------------------------------------------------
// Walk

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The single `{Type: body}` entry of a parse node. */
function unwrap(node: unknown): [string, Obj] {
  if (!isObj(node)) refuse('construcao');
  const keys = Object.keys(node);
  if (keys.length !== 1) refuse('construcao');
  const type = keys[0] as string;
  const body = node[type];
  if (!isObj(body)) refuse('construcao');
  return [type, body];
}

function asList(v: unknown): unknown[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) refuse('construcao');
  return v;
}

function onlyKeys(body: Obj, allowed: readonly string[]): void {
  for (const k of Object.keys(body)) {
    if (k !== 'location' && !allowed.includes(k)) refuse('construcao', k);
  }
}

/** `[String, String…]` name lists (function, operator, type names). */
function nameList(v: unknown): string[] {
  return asList(v).map((n) => {
    const [t, b] = unwrap(n);
    if (t !== 'String' || typeof b.sval !== 'string') refuse('construcao');
    return b.sval;
  });
}

/** `pg_catalog.f` or `f` → `f`; any other qualification is refused. */
function builtinName(names: string[], code: RefusalCode): string {
  const last = names[names.length - 1];
  if (last === undefined) refuse('construcao');
  if (names.length === 1) return last;
  if (names.length === 2 && names[0] === 'pg_catalog') return last;
  refuse(code, names.join('.'));
}

function stringConst(node: unknown): string | undefined {
  if (!isObj(node) || !isObj(node.A_Const)) return undefined;
  const sval = node.A_Const.sval;
  return isObj(sval) && typeof sval.sval === 'string' ? sval.sval : undefined;
}

class Scope {
  private readonly ctes = new Set<string>();
  constructor(private readonly parent?: Scope) {}
  add(name: string) {
    this.ctes.add(name);
  }
  has(name: string): boolean {
    return this.ctes.has(name) || (this.parent?.has(name) ?? false);
  }
}

class Walker {
  private nodes = 0;
  private fromItems = 0;

  private tick(depth: number) {
    if (++this.nodes > MAX_NODES || depth > MAX_DEPTH) refuse('tamanho');
  }

  select(node: unknown, outer: Scope | undefined, depth: number, qdepth: number): void {
    const [type, s] = unwrap(node);
    if (type !== 'SelectStmt') refuse('nao_select');
    this.selectBody(s, outer, depth, qdepth);
  }

  /** A SelectStmt body (set-operation arms come unwrapped). */
  private selectBody(s: Obj, outer: Scope | undefined, depth: number, qdepth: number): void {
    this.tick(depth);
    if (qdepth > MAX_SUBQUERY_DEPTH) refuse('tamanho');
    if (s.intoClause !== undefined) refuse('into');
    if (s.lockingClause !== undefined) refuse('bloqueio');
    onlyKeys(s, [
      'targetList',
      'fromClause',
      'whereClause',
      'groupClause',
      'groupDistinct',
      'havingClause',
      'windowClause',
      'sortClause',
      'limitCount',
      'limitOffset',
      'limitOption',
      'distinctClause',
      'withClause',
      'op',
      'all',
      'larg',
      'rarg',
      'valuesLists',
    ]);
    const scope = new Scope(outer);
    if (s.withClause !== undefined) this.withClause(s.withClause, scope, depth + 1, qdepth);
    const op = s.op ?? 'SETOP_NONE';
    if (op !== 'SETOP_NONE') {
      if (!['SETOP_UNION', 'SETOP_INTERSECT', 'SETOP_EXCEPT'].includes(op as string)) {
        refuse('construcao');
      }
      if (!isObj(s.larg) || !isObj(s.rarg)) refuse('construcao');
      this.selectBody(s.larg, scope, depth + 1, qdepth);
      this.selectBody(s.rarg, scope, depth + 1, qdepth);
    } else if (s.larg !== undefined || s.rarg !== undefined) {
      refuse('construcao');
    }
    if (
      s.limitOption !== undefined &&
      !['LIMIT_OPTION_DEFAULT', 'LIMIT_OPTION_COUNT'].includes(s.limitOption as string)
    ) {
      refuse('construcao');
    }
    for (const f of asList(s.fromClause)) this.fromItem(f, scope, depth + 1, qdepth);
    for (const t of asList(s.targetList)) this.resTarget(t, scope, depth + 1, qdepth);
    for (const row of asList(s.valuesLists)) {
      const [lt, lb] = unwrap(row);
      if (lt !== 'List') refuse('construcao');
      for (const e of asList(lb.items)) this.expr(e, scope, depth + 2, qdepth);
    }
    for (const e of asList(s.distinctClause)) {
      // `DISTINCT` alone is a list with one empty node.
      if (isObj(e) && Object.keys(e).length === 0) continue;
      this.expr(e, scope, depth + 1, qdepth);
    }
    for (const key of ['whereClause', 'havingClause', 'limitCount', 'limitOffset'] as const) {
      if (s[key] !== undefined) this.expr(s[key], scope, depth + 1, qdepth);
    }
    for (const g of asList(s.groupClause)) this.expr(g, scope, depth + 1, qdepth);
    for (const o of asList(s.sortClause)) this.sortBy(o, scope, depth + 1, qdepth);
    for (const w of asList(s.windowClause)) this.windowDef(w, scope, depth + 1, qdepth);
  }

  private withClause(node: unknown, scope: Scope, depth: number, qdepth: number) {
    if (!isObj(node)) refuse('construcao');
    onlyKeys(node, ['ctes', 'recursive']);
    if (node.recursive) refuse('construcao', 'recursive');
    const ctes = asList(node.ctes);
    if (ctes.length > MAX_CTES) refuse('tamanho');
    for (const c of ctes) {
      this.tick(depth);
      const [t, cte] = unwrap(c);
      if (t !== 'CommonTableExpr') refuse('construcao');
      onlyKeys(cte, ['ctename', 'aliascolnames', 'ctematerialized', 'ctequery']);
      if (typeof cte.ctename !== 'string') refuse('construcao');
      nameList(cte.aliascolnames);
      // Data-modifying CTEs (INSERT/UPDATE/DELETE/MERGE … RETURNING) are not SELECTs.
      this.select(cte.ctequery, scope, depth + 1, qdepth + 1);
      scope.add(cte.ctename);
    }
  }

  private fromItem(node: unknown, scope: Scope, depth: number, qdepth: number): void {
    this.tick(depth);
    const [type, b] = unwrap(node);
    if (type !== 'JoinExpr' && ++this.fromItems > MAX_FROM_ITEMS) refuse('tamanho');
    switch (type) {
      case 'RangeVar': {
        onlyKeys(b, ['schemaname', 'relname', 'inh', 'relpersistence', 'alias', 'catalogname']);
        if (b.catalogname !== undefined) refuse('relacao');
        if (b.relpersistence !== undefined && b.relpersistence !== 'p') refuse('relacao');
        const rel = b.relname;
        if (typeof rel !== 'string') refuse('construcao');
        const schema = b.schemaname;
        const isCte = schema === undefined && scope.has(rel);
        const isView = (schema === undefined || schema === 'public') && rel === VIEW_NAME;
        if (!isCte && !isView) refuse('relacao');
        this.alias(b.alias);
        return;
      }
      case 'RangeSubselect': {
        onlyKeys(b, ['lateral', 'subquery', 'alias']);
        this.select(b.subquery, scope, depth + 1, qdepth + 1);
        this.alias(b.alias);
        return;
      }
      case 'JoinExpr': {
        onlyKeys(b, [
          'jointype',
          'isNatural',
          'larg',
          'rarg',
          'usingClause',
          'quals',
          'alias',
          'join_using_alias',
          'rtindex',
        ]);
        if (
          !['JOIN_INNER', 'JOIN_LEFT', 'JOIN_FULL', 'JOIN_RIGHT'].includes(b.jointype as string)
        ) {
          refuse('construcao');
        }
        this.fromItem(b.larg, scope, depth + 1, qdepth);
        this.fromItem(b.rarg, scope, depth + 1, qdepth);
        nameList(b.usingClause);
        if (b.quals !== undefined) this.expr(b.quals, scope, depth + 1, qdepth);
        this.alias(b.alias);
        this.alias(b.join_using_alias);
        return;
      }
      case 'RangeFunction': {
        onlyKeys(b, ['lateral', 'ordinality', 'is_rowsfrom', 'functions', 'alias', 'coldeflist']);
        if (b.coldeflist !== undefined || b.is_rowsfrom) refuse('construcao');
        for (const item of asList(b.functions)) {
          const [lt, lb] = unwrap(item);
          if (lt !== 'List') refuse('construcao');
          const [fn, coldef] = asList(lb.items);
          if (coldef !== undefined && !(isObj(coldef) && Object.keys(coldef).length === 0)) {
            refuse('construcao');
          }
          const [ft, fb] = unwrap(fn);
          if (ft !== 'FuncCall') refuse('construcao');
          this.funcCall(fb, scope, depth + 1, qdepth, true);
        }
        this.alias(b.alias);
        return;
      }
      default:
        // RangeTableSample, RangeTableFunc (XMLTABLE), JSON_TABLE, …
        refuse('construcao', type);
    }
  }

  private alias(a: unknown) {
    if (a === undefined) return;
    if (!isObj(a)) refuse('construcao');
    const body = isObj(a.Alias) ? a.Alias : a;
    onlyKeys(body, ['aliasname', 'colnames']);
    nameList(body.colnames);
  }

  private resTarget(node: unknown, scope: Scope, depth: number, qdepth: number) {
    this.tick(depth);
    const [t, b] = unwrap(node);
    if (t !== 'ResTarget') refuse('construcao');
    onlyKeys(b, ['name', 'val']);
    this.expr(b.val, scope, depth + 1, qdepth);
  }

  private sortBy(node: unknown, scope: Scope, depth: number, qdepth: number) {
    this.tick(depth);
    const [t, b] = unwrap(node);
    if (t !== 'SortBy') refuse('construcao');
    onlyKeys(b, ['node', 'sortby_dir', 'sortby_nulls']);
    if (b.sortby_dir === 'SORTBY_USING') refuse('construcao');
    this.expr(b.node, scope, depth + 1, qdepth);
  }

  private windowDef(node: unknown, scope: Scope, depth: number, qdepth: number) {
    this.tick(depth);
    const [t, b] = unwrap(node);
    if (t !== 'WindowDef') refuse('construcao');
    onlyKeys(b, [
      'name',
      'refname',
      'partitionClause',
      'orderClause',
      'frameOptions',
      'startOffset',
      'endOffset',
    ]);
    for (const p of asList(b.partitionClause)) this.expr(p, scope, depth + 1, qdepth);
    for (const o of asList(b.orderClause)) this.sortBy(o, scope, depth + 1, qdepth);
    if (b.startOffset !== undefined) this.expr(b.startOffset, scope, depth + 1, qdepth);
    if (b.endOffset !== undefined) this.expr(b.endOffset, scope, depth + 1, qdepth);
  }

  private typeName(tn: unknown) {
    if (!isObj(tn)) refuse('construcao');
    onlyKeys(tn, ['names', 'typmods', 'typemod']);
    const names = nameList(tn.names);
    const name = builtinName(names, 'tipo');
    if (!TYPES.has(name)) refuse('tipo', name);
    for (const m of asList(tn.typmods)) {
      const [mt, mb] = unwrap(m);
      if (mt !== 'A_Const' || !isObj(mb.ival)) refuse('tipo');
    }
  }

  private operator(names: string[]) {
    const op = builtinName(names, 'operador');
    if (!OPERATORS.has(op)) refuse('operador', op);
  }

  private funcCall(b: Obj, scope: Scope, depth: number, qdepth: number, inFrom = false) {
    onlyKeys(b, [
      'funcname',
      'args',
      'agg_order',
      'agg_filter',
      'over',
      'agg_within_group',
      'agg_star',
      'agg_distinct',
      'func_variadic',
      'funcformat',
    ]);
    if (b.func_variadic) refuse('construcao', 'variadic');
    const name = builtinName(nameList(b.funcname), 'funcao');
    if (CLOCK_FUNCTIONS.has(name)) refuse('relogio');
    const args = asList(b.args);
    const isAgg = AGGREGATES.has(name);
    const isOrdered = ORDERED_SET.has(name);
    const isWindow = WINDOW.has(name);
    if (!isAgg && !isOrdered && !isWindow && !SCALAR.has(name)) refuse('funcao', name);
    // Set-returning functions only as FROM items (a row source the cursor streams).
    if (SET_RETURNING.has(name) && !inFrom) refuse('funcao', name);
    if (b.agg_within_group && !isOrdered) refuse('construcao');
    if (isOrdered && !b.agg_within_group) refuse('construcao');
    if (b.agg_star && name !== 'count') refuse('construcao');
    if ((b.agg_distinct || b.agg_filter !== undefined) && !isAgg) refuse('construcao');
    if (b.over !== undefined && !isAgg && !isWindow) refuse('construcao');
    if (isWindow && b.over === undefined) refuse('construcao');
    if (b.agg_order !== undefined && !isOrdered) refuse('construcao');

    // Functions whose first/zone argument is a unit or a format: constants only.
    if (name === 'date_trunc') {
      const unit = stringConst(args[0])?.toLowerCase();
      if (!unit || !DATE_TRUNC_UNITS.has(unit) || args.length < 2 || args.length > 3) {
        refuse('funcao', name);
      }
      if (args.length === 3 && !ZONE_RE.test(stringConst(args[2]) ?? '')) refuse('funcao', name);
    }
    if (name === 'date_part' || name === 'extract') {
      const field = stringConst(args[0])?.toLowerCase();
      if (!field || !EXTRACT_FIELDS.has(field) || args.length !== 2) refuse('funcao', name);
    }
    if (name === 'to_char') {
      if (args.length !== 2 || !toCharFormatOk(stringConst(args[1]))) refuse('funcao', name);
    }
    if (name === 'timezone') {
      if (args.length !== 2 || !ZONE_RE.test(stringConst(args[0]) ?? '')) refuse('funcao', name);
    }
    // The field of date_part/extract ('epoch' included) was checked above: not a date input.
    const skipFirst = name === 'date_part' || name === 'extract';
    args.forEach((a, i) => {
      if (i > 0 || !skipFirst) this.expr(a, scope, depth + 1, qdepth);
    });
    for (const o of asList(b.agg_order)) this.sortBy(o, scope, depth + 1, qdepth);
    if (b.agg_filter !== undefined) this.expr(b.agg_filter, scope, depth + 1, qdepth);
    if (b.over !== undefined) this.windowDef({ WindowDef: b.over }, scope, depth + 1, qdepth);
  }

  expr(node: unknown, scope: Scope, depth: number, qdepth: number): void {
    this.tick(depth);
    const [type, b] = unwrap(node);
    const sub = (v: unknown) => {
      if (v !== undefined) this.expr(v, scope, depth + 1, qdepth);
    };
    const subs = (v: unknown) => {
      for (const x of asList(v)) this.expr(x, scope, depth + 1, qdepth);
    };
    switch (type) {
      case 'A_Const': {
        onlyKeys(b, ['ival', 'fval', 'sval', 'boolval', 'bsval', 'isnull']);
        const text = stringConst(node);
        if (text !== undefined && CLOCK_WORDS_RE.test(text)) refuse('relogio');
        return;
      }
      case 'ColumnRef': {
        onlyKeys(b, ['fields']);
        const fields = asList(b.fields);
        if (fields.length === 0 || fields.length > 3) refuse('construcao');
        fields.forEach((f, i) => {
          const [ft, fb] = unwrap(f);
          if (ft === 'A_Star' && i === fields.length - 1) return;
          if (ft !== 'String' || typeof fb.sval !== 'string') refuse('construcao');
          if (SYSTEM_COLUMNS.has(fb.sval.toLowerCase())) refuse('coluna_sistema');
        });
        if (fields.length === 3) {
          // schema.table.column: only the view's schema.
          const [, s0] = unwrap(fields[0]);
          if (s0.sval !== 'public') refuse('relacao');
        }
        return;
      }
      case 'TypeCast':
        onlyKeys(b, ['arg', 'typeName']);
        this.typeName(b.typeName);
        sub(b.arg);
        return;
      case 'A_Expr': {
        onlyKeys(b, ['kind', 'name', 'lexpr', 'rexpr', 'rexpr_list_start', 'rexpr_list_end']);
        const kind = b.kind as string;
        if (!EXPR_KINDS.has(kind)) refuse('operador', kind);
        const names = nameList(b.name);
        // BETWEEN variants carry a keyword as name; the kind alone decides their meaning.
        if (!BETWEEN_KINDS.has(kind)) this.operator(names);
        sub(b.lexpr);
        sub(b.rexpr);
        return;
      }
      case 'List':
        onlyKeys(b, ['items']);
        subs(b.items);
        return;
      case 'BoolExpr':
        onlyKeys(b, ['boolop', 'args']);
        subs(b.args);
        return;
      case 'NullTest':
        onlyKeys(b, ['arg', 'nulltesttype', 'argisrow']);
        sub(b.arg);
        return;
      case 'BooleanTest':
        onlyKeys(b, ['arg', 'booltesttype']);
        sub(b.arg);
        return;
      case 'CaseExpr':
        onlyKeys(b, ['arg', 'args', 'defresult']);
        sub(b.arg);
        for (const w of asList(b.args)) {
          this.tick(depth + 1);
          const [wt, wb] = unwrap(w);
          if (wt !== 'CaseWhen') refuse('construcao');
          onlyKeys(wb, ['expr', 'result']);
          this.expr(wb.expr, scope, depth + 2, qdepth);
          this.expr(wb.result, scope, depth + 2, qdepth);
        }
        sub(b.defresult);
        return;
      case 'CoalesceExpr':
        onlyKeys(b, ['args']);
        subs(b.args);
        return;
      case 'MinMaxExpr':
        onlyKeys(b, ['op', 'args']);
        subs(b.args);
        return;
      case 'RowExpr':
        onlyKeys(b, ['args', 'row_format', 'colnames']);
        subs(b.args);
        return;
      case 'GroupingSet':
        onlyKeys(b, ['kind', 'content']);
        subs(b.content);
        return;
      case 'SQLValueFunction': {
        onlyKeys(b, ['op', 'typmod']);
        const op = String(b.op);
        if (/^SVFOP_(CURRENT_DATE|CURRENT_TIME|LOCALTIME)/.test(op)) refuse('relogio');
        return refuse('funcao', op.replace(/^SVFOP_/, '').toLowerCase());
      }
      case 'FuncCall':
        this.funcCall(b, scope, depth, qdepth);
        return;
      case 'SubLink': {
        onlyKeys(b, ['subLinkType', 'testexpr', 'operName', 'subselect']);
        if (!SUBLINK_TYPES.has(b.subLinkType as string)) refuse('construcao');
        if (b.operName !== undefined) this.operator(nameList(b.operName));
        sub(b.testexpr);
        this.select(b.subselect, scope, depth + 1, qdepth + 1);
        return;
      }
      default:
        // ParamRef, A_Indirection, A_ArrayExpr, CollateClause, XmlExpr, JSON constructors, …
        refuse('construcao', type);
    }
  }
}

let loading: Promise<void> | undefined;
let loaded = false;

/** Loads the parser (WebAssembly) once; `checkSqlSync` needs it loaded. */
export async function loadGuard(): Promise<void> {
  loading ??= loadModule().then(() => {
    loaded = true;
  });
  await loading;
}

/** Parses and checks one submitted SQL text. Never throws. */
export async function checkSql(sql: unknown): Promise<GuardVerdict> {
  try {
    await loadGuard();
  } catch {
    return { ok: false, code: 'construcao', motivo: MESSAGES.construcao };
  }
  return checkSqlSync(sql);
}

/** Synchronous check (tool-loop validation); call `loadGuard()` once before. Never throws. */
export function checkSqlSync(sql: unknown): GuardVerdict {
  try {
    if (typeof sql !== 'string' || sql.trim() === '') refuse('vazio');
    if (sql.length > MAX_SQL_LENGTH) refuse('tamanho');
    // NUL bytes cannot travel in the protocol; refuse rather than let the driver cut the text.
    if (sql.includes('\u0000')) refuse('sintaxe');
    if (!loaded) refuse('construcao');
    let tree: unknown;
    try {
      tree = parseSync(sql);
    } catch {
      refuse('sintaxe');
    }
    if (!isObj(tree)) refuse('sintaxe');
    const stmts = asList(tree.stmts);
    if (stmts.length === 0) refuse('vazio');
    if (stmts.length > 1) refuse('varios_comandos');
    const raw = stmts[0];
    if (!isObj(raw)) refuse('construcao');
    const [type] = unwrap(raw.stmt);
    if (type !== 'SelectStmt') refuse('nao_select');
    new Walker().select(raw.stmt, undefined, 0, 0);
    return { ok: true, sql };
  } catch (e) {
    if (e instanceof Refusal) {
      try {
        return { ok: false, code: e.code, motivo: message(e) };
      } catch {
        return { ok: false, code: e.code, motivo: MESSAGES[e.code] };
      }
    }
    // Stack overflow on absurd nesting, or anything unforeseen: refused, never thrown.
    return { ok: false, code: 'construcao', motivo: MESSAGES.construcao };
  }
}

/**
 * The text of the one statement of an ACCEPTED query, without what follows it (a trailing `;`,
 * comments): the executor wraps it in `SELECT * FROM (…)`. Falls back to the text as given.
 */
export function statementText(sql: string): string {
  try {
    if (!loaded) return sql;
    const tree = parseSync(sql) as unknown;
    if (!isObj(tree)) return sql;
    const [raw] = asList(tree.stmts);
    if (!isObj(raw)) return sql;
    const start = typeof raw.stmt_location === 'number' ? raw.stmt_location : 0;
    const len = typeof raw.stmt_len === 'number' && raw.stmt_len > 0 ? raw.stmt_len : undefined;
    const bytes = Buffer.from(sql, 'utf8');
    return bytes.subarray(start, len === undefined ? undefined : start + len).toString('utf8');
  } catch {
    return sql;
  }
}
