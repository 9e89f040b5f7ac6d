/**
 * Free-SQL guard, layer 1: the walk over expressions (columns, constants, casts, operators,
 * function calls, sub-selects, ORDER BY and window definitions). Every node type and field not
 * handled here is refused; the names come from the allowlist.
 */
import {
  AGGREGATES,
  BETWEEN_KINDS,
  CLOCK_FUNCTIONS,
  CLOCK_WORDS_RE,
  DATE_TRUNC_UNITS,
  EXPR_KINDS,
  EXTRACT_FIELDS,
  MAX_DEPTH,
  MAX_NODES,
  OPERATORS,
  ORDERED_SET,
  SCALAR,
  SET_RETURNING,
  SUBLINK_TYPES,
  SYSTEM_COLUMNS,
  toCharFormatOk,
  TYPES,
  WINDOW,
  ZONE_RE,
} from './allowlist';
import {
  asList,
  builtinName,
  isObj,
  nameList,
  onlyKeys,
  stringConst,
  unwrap,
  type Obj,
  type Scope,
} from './parse-nodes';
import { refuse } from './refusals';

/**
 * Node types with nothing to check but their fields: the fields allowed, and the one that holds
 * the sub-expression (`one`) or the list of them (`list`), walked in turn.
 */
const PLAIN_NODES = new Map<
  string,
  { keys: readonly string[] } & ({ one: string } | { list: string })
>([
  ['List', { keys: ['items'], list: 'items' }],
  ['BoolExpr', { keys: ['boolop', 'args'], list: 'args' }],
  ['NullTest', { keys: ['arg', 'nulltesttype', 'argisrow'], one: 'arg' }],
  ['BooleanTest', { keys: ['arg', 'booltesttype'], one: 'arg' }],
  ['CoalesceExpr', { keys: ['args'], list: 'args' }],
  ['MinMaxExpr', { keys: ['op', 'args'], list: 'args' }],
  ['RowExpr', { keys: ['args', 'row_format', 'colnames'], list: 'args' }],
  ['GroupingSet', { keys: ['kind', 'content'], list: 'content' }],
]);

/** The expression half of the walker; `SelectWalker` adds statements and FROM items. */
export abstract class ExpressionWalker {
  protected nodes = 0;
  protected fromItems = 0;

  protected tick(depth: number) {
    if (++this.nodes > MAX_NODES || depth > MAX_DEPTH) refuse('tamanho');
  }

  /** A sub-select (SubLink): walked by the statement half. */
  abstract select(node: unknown, outer: Scope | undefined, depth: number, qdepth: number): void;

  protected sortBy(node: unknown, scope: Scope, depth: number, qdepth: number) {
    this.tick(depth);
    const [t, b] = unwrap(node);
    if (t !== 'SortBy') refuse('construcao');
    onlyKeys(b, ['node', 'sortby_dir', 'sortby_nulls']);
    if (b.sortby_dir === 'SORTBY_USING') refuse('construcao');
    this.expr(b.node, scope, depth + 1, qdepth);
  }

  protected windowDef(node: unknown, scope: Scope, depth: number, qdepth: number) {
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

  protected funcCall(b: Obj, scope: Scope, depth: number, qdepth: number, inFrom = false) {
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
    const plain = PLAIN_NODES.get(type);
    if (plain) {
      onlyKeys(b, plain.keys);
      if ('one' in plain) sub(b[plain.one]);
      else subs(b[plain.list]);
      return;
    }
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
