/**
 * THE redaction of secrets (#12 point 5): nothing secret leaves the main process. Applied to
 * every IPC result and error (ipc/invoke.ts), every log line (util/logger.ts) and every line the
 * CLI prints (cli/main.ts).
 *
 * - Connection URLs: the user-info password AND the `password` / `sslpassword` query parameters
 *   (any case, URL-encoded names or values — libpq/pg honour them).
 * - libpq keyword strings: `password=…` / `sslpassword='…'`.
 * - Anthropic keys (`sk-ant-…`) and every secret value the process registered: the configured
 *   API key and the passwords of the configured database URLs (raw and URL-encoded), wherever
 *   they appear in a text.
 */

export const MASK = '***';
/** Query parameters libpq/pg read as a password. */
const SECRET_PARAMS = new Set(['password', 'sslpassword']);
const URL_RE = /postgres(?:ql)?:\/\/[^\s"'<>`]+/gi;
const API_KEY_RE = /sk-ant-[A-Za-z0-9_-]+/g;
/** `password=x`, `sslpassword = 'x y'` (libpq conninfo), outside URLs. */
const KEYWORD_RE = /\b((?:ssl)?password)\s*=\s*('(?:[^'\\]|\\.)*'|[^\s&'"]+)/gi;
/** Shorter values are not worth masking everywhere (would shred ordinary text). */
const MIN_SECRET_LENGTH = 4;

const secrets = new Set<string>();

/** Registers a secret value to mask in every text (raw and URL-encoded forms). */
export function registerSecret(value: string | null | undefined): void {
  const v = value?.trim();
  if (!v || v.length < MIN_SECRET_LENGTH) return;
  for (const form of [v, encodeURIComponent(v), safeDecode(v)]) {
    if (form && form.length >= MIN_SECRET_LENGTH) secrets.add(form);
  }
}

/** Registers the passwords a connection URL carries (user-info and query parameters). */
export function registerUrlSecrets(url: string | null | undefined): void {
  if (!url) return;
  try {
    const u = new URL(url);
    if (u.password) registerSecret(safeDecode(u.password));
    for (const [k, v] of u.searchParams) if (SECRET_PARAMS.has(k.toLowerCase())) registerSecret(v);
  } catch {
    // not a URL: nothing to register
  }
}

/** Tests only. */
export function clearRegisteredSecrets(): void {
  secrets.clear();
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * For logs and the UI: the URL without any password (user-info and `password`/`sslpassword`
 * query parameters, whatever their case or encoding).
 */
export function redactUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return '(URL inválida)';
  }
  if (u.password) u.password = MASK;
  if (u.search) {
    const parts = u.search
      .slice(1)
      .split('&')
      .map((p) => {
        const eq = p.indexOf('=');
        const name = safeDecode((eq < 0 ? p : p.slice(0, eq)).replace(/\+/g, ' '));
        return SECRET_PARAMS.has(name.trim().toLowerCase())
          ? `${eq < 0 ? p : p.slice(0, eq)}=${MASK}`
          : p;
      });
    u.search = `?${parts.join('&')}`;
  }
  return u.toString().replace(/%2A%2A%2A/g, MASK);
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Masks every secret in a free text (messages, log lines, CLI output). */
export function redactText(text: string): string {
  let out = text.replace(URL_RE, (m) => {
    const r = redactUrl(m);
    return r === '(URL inválida)' ? m.replace(/\/\/[^@/]*@/, `//${MASK}@`) : r;
  });
  out = out.replace(API_KEY_RE, `sk-ant-${MASK}`);
  out = out.replace(KEYWORD_RE, (_m, k: string) => `${k}=${MASK}`);
  if (secrets.size > 0) {
    const sorted = [...secrets].sort((a, b) => b.length - a.length);
    out = out.replace(new RegExp(sorted.map(escapeRe).join('|'), 'g'), MASK);
  }
  return out;
}

/** Every string inside `value` (objects, arrays, error-like objects) redacted; a new value. */
export function redactDeep<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return redactText(value) as T;
  if (value === null || typeof value !== 'object' || depth > 20) return value;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, depth + 1)) as T;
  if (value instanceof Date) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    // defineProperty: a key named `__proto__` stays a plain own property.
    Object.defineProperty(out, k, {
      value: redactDeep(v, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out as T;
}
