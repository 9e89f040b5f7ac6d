/**
 * Text PostgreSQL cannot store or that is not valid Unicode: the NUL character (22021 in a text
 * column; jsonb refuses \u0000 too) and lone UTF-16 surrogates (invalid in UTF-8). Checked at the
 * boundary so such input is refused with a pt-BR message (or sanitized for the logs) instead of
 * failing in the database.
 */

/** Whether `s` holds a NUL or a lone surrogate. */
export function hasInvalidChars(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0) return true;
    if (c >= 0xd800 && c <= 0xdbff) {
      const n = s.charCodeAt(i + 1);
      if (n >= 0xdc00 && n <= 0xdfff) {
        i++;
        continue;
      }
      return true;
    }
    if (c >= 0xdc00 && c <= 0xdfff) return true;
  }
  return false;
}

/** For zod `.refine`: true when `s` holds neither a NUL nor a lone surrogate. */
export function validText(s: string): boolean {
  return !hasInvalidChars(s);
}

/**
 * The path (e.g. `dados.cliente_nome`) of the first string inside a JSON-like value (keys
 * included) holding a NUL or a lone surrogate, or null when there is none.
 */
export function findInvalidText(v: unknown, path: string[] = []): string[] | null {
  if (typeof v === 'string') return hasInvalidChars(v) ? path : null;
  if (Array.isArray(v)) {
    for (const [i, x] of v.entries()) {
      const p = findInvalidText(x, [...path, String(i)]);
      if (p) return p;
    }
    return null;
  }
  if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (hasInvalidChars(k)) return [...path, sanitizeText(k)];
      const p = findInvalidText(x, [...path, k]);
      if (p) return p;
    }
  }
  return null;
}

/** `s` with each NUL and lone surrogate replaced by U+FFFD (for logs: nothing is dropped). */
export function sanitizeText(s: string): string {
  if (!hasInvalidChars(s)) return s;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0) {
      out += '\ufffd';
    } else if (c >= 0xd800 && c <= 0xdbff) {
      const n = s.charCodeAt(i + 1);
      if (n >= 0xdc00 && n <= 0xdfff) {
        out += s[i] + (s[i + 1] as string);
        i++;
      } else out += '\ufffd';
    } else if (c >= 0xdc00 && c <= 0xdfff) {
      out += '\ufffd';
    } else out += s[i] as string;
  }
  return out;
}

/** Sanitizes every string inside a JSON-like value (for jsonb log columns). */
export function sanitizeDeep(v: unknown, pre: (s: string) => string = (s) => s): unknown {
  if (typeof v === 'string') return sanitizeText(pre(v));
  if (Array.isArray(v)) return v.map((x) => sanitizeDeep(x, pre));
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[sanitizeText(pre(k))] = sanitizeDeep(x, pre);
    return out;
  }
  return v;
}

export const MSG_INVALID_CHARS =
  'O texto contém caracteres inválidos (caractere nulo ou símbolo incompleto). Remova-os e tente de novo.';
