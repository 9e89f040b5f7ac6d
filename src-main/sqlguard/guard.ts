/**
 * Free-SQL guard, layer 1: the real PostgreSQL parser (libpg-query) and an ALLOWLIST walk of
 * the parse tree. Accepted: exactly one plain SELECT (WITH allowed, not RECURSIVE) that reads
 * only the view `vendas_ia` (unqualified or `public.`, however quoted) or CTEs it defines, calls
 * only allowlisted functions/operators/casts, and stays within size and nesting bounds.
 * Everything not explicitly allowed — any node type, field, function, operator or type the
 * allowlist (`allowlist.ts`) does not name — is refused by the walker (`walk-select.ts`,
 * `walk-expr.ts`). The guard never throws: every outcome is a verdict.
 */
import { loadModule, parseSync } from 'libpg-query';
import { MAX_SQL_LENGTH } from './allowlist';
import { asList, isObj, unwrap } from './parse-nodes';
import { MESSAGES, Refusal, refusalMessage, refuse, type GuardVerdict } from './refusals';
import { SelectWalker } from './walk-select';

export { MAX_SQL_LENGTH, VIEW_NAME } from './allowlist';
export { MSG_ONLY_VIEW, type GuardVerdict, type RefusalCode } from './refusals';

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
    new SelectWalker().select(raw.stmt, undefined, 0, 0);
    return { ok: true, sql };
  } catch (e) {
    if (e instanceof Refusal) {
      try {
        return { ok: false, code: e.code, motivo: refusalMessage(e) };
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
