/**
 * Free-SQL guard, layer 1: the walk over statements — exactly one plain SELECT (set operations,
 * non-recursive WITH), FROM items that are the view `vendas_ia` or a CTE, sub-selects, aliases
 * and the select list — on top of the expression walk.
 */
import { MAX_CTES, MAX_FROM_ITEMS, MAX_SUBQUERY_DEPTH, VIEW_NAME } from './allowlist';
import { asList, isObj, nameList, onlyKeys, Scope, unwrap, type Obj } from './parse-nodes';
import { refuse } from './refusals';
import { ExpressionWalker } from './walk-expr';

/** One walk of one parsed statement; refuses (throws `Refusal`) on the first thing not allowed. */
export class SelectWalker extends ExpressionWalker {
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
}
