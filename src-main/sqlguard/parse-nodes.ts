/** Free-SQL guard, layer 1: reading libpg-query parse nodes (anything unexpected is refused). */
import { refuse, type RefusalCode } from './refusals';

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The single `{Type: body}` entry of a parse node. */
export function unwrap(node: unknown): [string, Obj] {
  if (!isObj(node)) refuse('construcao');
  const keys = Object.keys(node);
  if (keys.length !== 1) refuse('construcao');
  const type = keys[0] as string;
  const body = node[type];
  if (!isObj(body)) refuse('construcao');
  return [type, body];
}

export function asList(v: unknown): unknown[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) refuse('construcao');
  return v;
}

export function onlyKeys(body: Obj, allowed: readonly string[]): void {
  for (const k of Object.keys(body)) {
    if (k !== 'location' && !allowed.includes(k)) refuse('construcao', k);
  }
}

/** `[String, String…]` name lists (function, operator, type names). */
export function nameList(v: unknown): string[] {
  return asList(v).map((n) => {
    const [t, b] = unwrap(n);
    if (t !== 'String' || typeof b.sval !== 'string') refuse('construcao');
    return b.sval;
  });
}

/** `pg_catalog.f` or `f` → `f`; any other qualification is refused. */
export function builtinName(names: string[], code: RefusalCode): string {
  const last = names[names.length - 1];
  if (last === undefined) refuse('construcao');
  if (names.length === 1) return last;
  if (names.length === 2 && names[0] === 'pg_catalog') return last;
  refuse(code, names.join('.'));
}

export function stringConst(node: unknown): string | undefined {
  if (!isObj(node) || !isObj(node.A_Const)) return undefined;
  const sval = node.A_Const.sval;
  return isObj(sval) && typeof sval.sval === 'string' ? sval.sval : undefined;
}

export class Scope {
  private readonly ctes = new Set<string>();
  constructor(private readonly parent?: Scope) {}
  add(name: string) {
    this.ctes.add(name);
  }
  has(name: string): boolean {
    return this.ctes.has(name) || (this.parent?.has(name) ?? false);
  }
}
