/**
 * LGPD minimisation (#38.1): personal data in a merchant's text is replaced with numbered
 * placeholders before the text reaches the model, and restored from the map in what the model
 * answers. Pure (no Node, no DOM): the main process minimises, the screens recognise the marks.
 *
 *   [CPF_1]        CPF, with or without punctuation, check digits validated
 *   [CNPJ_1]       CNPJ, numeric or alphanumeric (IN RFB 2.229/2024), check digits validated
 *   [TELEFONE_1]   Brazilian phone: +55, DDD, 8/9 digits, usual separators
 *   [EMAIL_1]      e-mail address
 *   [CARTAO_1]     card number: 13–19 digits (spaces or dashes) passing Luhn
 *   [CHAVE_PIX_1]  EVP Pix key (UUID)
 *
 * Amounts ("R$ 1.500,00"), dates, times, "3x" and numbers failing the check digits are left as
 * written. The same value (whatever its punctuation) gets the same placeholder in one run.
 */

export const PII_KINDS = ['CPF', 'CNPJ', 'TELEFONE', 'EMAIL', 'CARTAO', 'CHAVE_PIX'] as const;
export type PiiKind = (typeof PII_KINDS)[number];

/** A placeholder this module writes, e.g. `[CPF_1]`. */
export const PLACEHOLDER_RE = /\[(CPF|CNPJ|TELEFONE|EMAIL|CARTAO|CHAVE_PIX)_(\d{1,4})\]/g;

export interface PiiMatch {
  kind: PiiKind;
  start: number;
  end: number;
  /** As written in the text. */
  value: string;
}

// ---------------------------------------------------------------------------------------------
// Check digits

const onlyDigits = (s: string) => s.replace(/\D/g, '');
const allSame = (s: string) => /^(.)\1*$/.test(s);

/** CPF check digits (mod 11); punctuation ignored; 11 equal digits are no CPF. */
export function isValidCpf(raw: string): boolean {
  const d = onlyDigits(raw);
  if (d.length !== 11 || allSame(d)) return false;
  const dv = (n: number) => {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += Number(d[i]) * (n + 1 - i);
    const r = (sum * 10) % 11;
    return r === 10 ? 0 : r;
  };
  return dv(9) === Number(d[9]) && dv(10) === Number(d[10]);
}

/**
 * CNPJ check digits, numeric or alphanumeric (12 characters 0-9/A-Z + 2 digits): mod 11 with
 * each character's value = its ASCII code − 48 (digits keep their value, A = 17).
 */
export function isValidCnpj(raw: string): boolean {
  const c = raw.toUpperCase().replace(/[./\-\s]/g, '');
  if (!/^[0-9A-Z]{12}\d{2}$/.test(c) || allSame(c)) return false;
  const value = (ch: string) => ch.charCodeAt(0) - 48;
  const dv = (n: number) => {
    let sum = 0;
    for (let i = 0; i < n; i++) {
      const weight = ((n - 1 - i) % 8) + 2; // …, 9, 8, 7, 6, 5, 4, 3, 2 from the right
      sum += value(c[i] ?? '0') * weight;
    }
    const r = sum % 11;
    return r < 2 ? 0 : 11 - r;
  };
  return dv(12) === Number(c[12]) && dv(13) === Number(c[13]);
}

/** Luhn checksum of a digit string. */
export function passesLuhn(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let n = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      n *= 2;
      if (n > 9) n -= 9;
    }
    sum += n;
  }
  return sum % 10 === 0;
}

// ---------------------------------------------------------------------------------------------
// Detection

/** Not glued to a letter, a digit, or a number's separator ("1.", "12/", "3-"). */
const B = String.raw`(?<![\p{L}\p{N}_@]|\p{N}[.,/:-])`;
const A = String.raw`(?![\p{L}\p{N}_]|[.,/:-]\p{N})`;

const EMAIL = new RegExp(
  String.raw`(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}(?![\p{L}\p{N}_-])`,
  'gu',
);
const UUID = new RegExp(
  String.raw`(?<![\p{L}\p{N}-])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![\p{L}\p{N}-])`,
  'giu',
);
const CNPJ = new RegExp(
  String.raw`${B}[0-9A-Z]{2}\.?[0-9A-Z]{3}\.?[0-9A-Z]{3}\/?[0-9A-Z]{4}-?\d{2}${A}`,
  'gu',
);
const CPF = new RegExp(String.raw`${B}\d{3}\.?\d{3}\.?\d{3}-?\d{2}${A}`, 'gu');
/** A run of digit groups joined by one space or dash (a card candidate, trimmed below). */
const DIGIT_RUN = new RegExp(String.raw`(?<![\p{L}\p{N}_+]|\p{N}[.,/:])\d+(?:[ -]\d+)*`, 'gu');
const PHONE = new RegExp(
  B +
    String.raw`(?:(?<ddi>\+\s?55|55)[\s.-]?)?` +
    String.raw`(?<ddd>\(\s?0?[1-9][1-9]\s?\)|0?[1-9][1-9])[\s.-]?` +
    String.raw`(?<num>9[\s.]?\d{4}|[2-5]\d{3})[\s.-]?\d{4}` +
    A,
  'gu',
);
/** A mobile number without DDD, only in its usual written form: 9XXXX-XXXX. */
const MOBILE_NO_DDD = new RegExp(String.raw`${B}9\d{4}[-.]\d{4}${A}`, 'gu');

function overlaps(found: readonly PiiMatch[], start: number, end: number): boolean {
  return found.some((f) => start < f.end && end > f.start);
}

/** Card numbers inside one digit run: the longest groups span with 13–19 digits passing Luhn. */
function cardsInRun(run: string, offset: number): { start: number; end: number }[] {
  const groups: { start: number; end: number; digits: string }[] = [];
  for (const m of run.matchAll(/\d+/g)) {
    groups.push({ start: m.index, end: m.index + m[0].length, digits: m[0] });
  }
  const out: { start: number; end: number }[] = [];
  let i = 0;
  while (i < groups.length) {
    let hit: { start: number; end: number; next: number } | null = null;
    for (let j = groups.length; j > i && !hit; j--) {
      const digits = groups
        .slice(i, j)
        .map((g) => g.digits)
        .join('');
      if (digits.length < 13 || digits.length > 19) continue;
      // 13-digit cards are Visa's (4…; a 13-digit 55… is a phone with the country code) and
      // 14-digit ones Diners' (30, 36, 38, 39; other 14 digits are CNPJ-shaped order numbers).
      if (digits.length === 13 && !digits.startsWith('4')) continue;
      if (digits.length === 14 && !/^3[0689]/.test(digits)) continue;
      if (allSame(digits) || !passesLuhn(digits)) continue;
      hit = { start: groups[i]!.start, end: groups[j - 1]!.end, next: j };
    }
    if (hit) {
      out.push({ start: offset + hit.start, end: offset + hit.end });
      i = hit.next;
    } else {
      i++;
    }
  }
  return out;
}

/** Every piece of personal data in `text`, in order of appearance, without overlaps. */
export function findPii(text: string): PiiMatch[] {
  const found: PiiMatch[] = [];
  const add = (kind: PiiKind, start: number, end: number) => {
    if (!overlaps(found, start, end)) {
      found.push({ kind, start, end, value: text.slice(start, end) });
    }
  };
  for (const m of text.matchAll(EMAIL)) add('EMAIL', m.index, m.index + m[0].length);
  for (const m of text.matchAll(UUID)) add('CHAVE_PIX', m.index, m.index + m[0].length);
  for (const m of text.matchAll(CNPJ)) {
    if (isValidCnpj(m[0])) add('CNPJ', m.index, m.index + m[0].length);
  }
  for (const m of text.matchAll(CPF)) {
    if (isValidCpf(m[0])) add('CPF', m.index, m.index + m[0].length);
  }
  for (const m of text.matchAll(DIGIT_RUN)) {
    for (const c of cardsInRun(m[0], m.index)) add('CARTAO', c.start, c.end);
  }
  for (const m of text.matchAll(PHONE)) {
    const written = m[0];
    const digits = onlyDigits(written);
    // Ten bare digits are as likely an order number as a landline: only with a separator.
    const formatted = /[\s().+-]/.test(written);
    if (!formatted && digits.length === 10) continue;
    add('TELEFONE', m.index, m.index + written.length);
  }
  for (const m of text.matchAll(MOBILE_NO_DDD)) add('TELEFONE', m.index, m.index + m[0].length);
  return found.sort((a, b) => a.start - b.start);
}

/** The value that identifies a match, whatever its punctuation or case. */
export function canonical(kind: PiiKind, value: string): string {
  switch (kind) {
    case 'EMAIL':
    case 'CHAVE_PIX':
      return value.toLowerCase();
    case 'CNPJ':
      return value.toUpperCase().replace(/[^0-9A-Z]/g, '');
    case 'TELEFONE': {
      const d = onlyDigits(value).replace(/^0/, '');
      return d.length >= 12 && d.startsWith('55') ? d.slice(2) : d;
    }
    default:
      return onlyDigits(value);
  }
}

// ---------------------------------------------------------------------------------------------
// Minimising and restoring

/** Placeholder → the value as first written. */
export type PiiMap = Record<string, string>;

export interface Minimized {
  texto: string;
  mapa: PiiMap;
}

/**
 * A minimisation run over several texts (a message, the merchant's replies, a note): numbering
 * goes on across them and the same value keeps its placeholder. Placeholders already in a text
 * (a card removed when the message was stored) are kept and numbered past.
 */
export interface PiiMinimizer {
  minimize(text: string): string;
  /** Placeholder → original, for every value replaced so far. */
  readonly mapa: PiiMap;
  /** `value` (any JSON-like value) with every known placeholder restored; a new value. */
  restore<T>(value: T, opts?: { except?: readonly PiiKind[] }): T;
}

export function createPiiMinimizer(): PiiMinimizer {
  const mapa: PiiMap = {};
  const byValue = new Map<string, string>();
  const counters = new Map<PiiKind, number>();
  const bump = (text: string) => {
    for (const m of text.matchAll(PLACEHOLDER_RE)) {
      const kind = m[1] as PiiKind;
      counters.set(kind, Math.max(counters.get(kind) ?? 0, Number(m[2])));
    }
  };
  const placeholderFor = (match: PiiMatch): string => {
    const key = `${match.kind}:${canonical(match.kind, match.value)}`;
    const known = byValue.get(key);
    if (known) return known;
    const n = (counters.get(match.kind) ?? 0) + 1;
    counters.set(match.kind, n);
    const ph = `[${match.kind}_${n}]`;
    byValue.set(key, ph);
    mapa[ph] = match.value;
    return ph;
  };
  return {
    mapa,
    minimize(text) {
      bump(text);
      let out = '';
      let at = 0;
      for (const m of findPii(text)) {
        out += text.slice(at, m.start) + placeholderFor(m);
        at = m.end;
      }
      return out + text.slice(at);
    },
    restore(value, opts) {
      return restorePlaceholders(value, mapa, opts?.except);
    },
  };
}

/** One text minimised on its own: the text with placeholders and the map to restore it. */
export function minimizePii(text: string): Minimized {
  const m = createPiiMinimizer();
  const texto = m.minimize(text);
  return { texto, mapa: { ...m.mapa } };
}

/** Every string inside `value` with the map's placeholders put back (except `except` kinds). */
export function restorePlaceholders<T>(
  value: T,
  mapa: PiiMap,
  except: readonly PiiKind[] = [],
  depth = 0,
): T {
  if (typeof value === 'string') {
    return value.replace(PLACEHOLDER_RE, (ph, kind: string) =>
      except.includes(kind as PiiKind) ? ph : (mapa[ph] ?? ph),
    ) as T;
  }
  if (value === null || typeof value !== 'object' || depth > 20) return value;
  if (Array.isArray(value)) {
    return value.map((v: unknown) => restorePlaceholders(v, mapa, except, depth + 1)) as T;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    Object.defineProperty(out, k, {
      value: restorePlaceholders(v, mapa, except, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out as T;
}

/** Every string inside `value` minimised with `m` (a new value). */
export function minimizeDeep<T>(value: T, m: Pick<PiiMinimizer, 'minimize'>, depth = 0): T {
  if (typeof value === 'string') return m.minimize(value) as T;
  if (value === null || typeof value !== 'object' || depth > 20) return value;
  if (Array.isArray(value)) return value.map((v: unknown) => minimizeDeep(v, m, depth + 1)) as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    Object.defineProperty(out, k, {
      value: minimizeDeep(v, m, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out as T;
}

// ---------------------------------------------------------------------------------------------
// Card numbers: never stored

/**
 * The text with every card number replaced by `[CARTAO_n]` (numbered past the card
 * placeholders already in it) — what may be stored — and how many were removed.
 */
export function removeCardNumbers(text: string): { texto: string; removidos: number } {
  let n = 0;
  for (const m of text.matchAll(PLACEHOLDER_RE)) {
    if (m[1] === 'CARTAO') n = Math.max(n, Number(m[2]));
  }
  const cards = findPii(text).filter((m) => m.kind === 'CARTAO');
  if (!cards.length) return { texto: text, removidos: 0 };
  const seen = new Map<string, string>();
  let out = '';
  let at = 0;
  for (const c of cards) {
    const key = onlyDigits(c.value);
    let ph = seen.get(key);
    if (!ph) {
      ph = `[CARTAO_${++n}]`;
      seen.set(key, ph);
    }
    out += text.slice(at, c.start) + ph;
    at = c.end;
  }
  return { texto: out + text.slice(at), removidos: cards.length };
}

/** Whether a stored text had a card number removed (it holds a `[CARTAO_n]`). */
export function hasRemovedCard(...texts: readonly (string | null | undefined)[]): boolean {
  return texts.some((t) => typeof t === 'string' && /\[CARTAO_\d{1,4}\]/.test(t));
}

/** The item's notice when a card number was removed from the merchant's text. */
export const CARD_REMOVED_NOTICE =
  'Um número de cartão foi removido desta mensagem: o Balcão não guarda dados de cartão.';

/** What the merchant is told when a message carried a card number (outgoing message). */
export const CARD_NOTICE_TO_MERCHANT =
  'Por segurança, removemos o número de cartão que você enviou e ele não foi guardado. ' +
  'Não envie dados de cartão (número, validade ou código de segurança) por mensagem: ' +
  'o cliente informa o cartão direto no link de pagamento.';

/** The system prompt's words about placeholders (pt-BR, for the model). */
export const PLACEHOLDER_PROMPT =
  '- Dados pessoais do texto foram trocados por marcadores entre colchetes: [CPF_1], [CNPJ_1], [TELEFONE_1], [EMAIL_1], [CARTAO_1], [CHAVE_PIX_1] (o número distingue valores diferentes). Trate cada marcador como o dado que ele substitui e, quando ele fizer parte de um campo, copie-o exatamente como está, com colchetes e número, sem tentar adivinhar o valor. Marcadores não são valores nem datas.';
