/**
 * Deterministic reading of the due date a pt-BR merchant text names, and the cross-check that
 * compares it with the `vencimento` the model extracted (the date's twin of `amounts.ts`).
 *
 * Every phrase is resolved in the business zone (America/Sao_Paulo by default) from the
 * message's ARRIVAL instant — not from when it is processed:
 *
 *   "hoje", "hj", "amanhã", "depois de amanhã"    → arrival day, +1, +2
 *   "dia 20", "vence dia 5", "dia primeiro"        → the next day N on or after the arrival day:
 *                                                    this month if not passed, else next month;
 *                                                    a month without that day (dia 31 in a
 *                                                    30-day month, dia 30 in February) is
 *                                                    ambiguous → no reading
 *   "dia 15 do mês que vem"                         → day 15 of next month
 *   "15/01", "15/1", "dia 15 de janeiro"            → the nearest such date: in the future, or
 *                                                    passed by at most 60 days (a past date is
 *                                                    read as written; the agent must look)
 *   "15/01/2027", "15/01/27", "15 de jan de 2027"   → that date
 *   "sexta", "sexta-feira", "6ª feira", "sábado"    → the next such weekday ON OR AFTER the
 *                                                    arrival day: "sexta" written on a Friday is
 *                                                    that Friday. This is the extraction prompt's
 *                                                    convention and the eval answer key's (a
 *                                                    weekday named for a deadline includes the
 *                                                    day it is written; next week's Friday is
 *                                                    "sexta que vem" / "próxima sexta")
 *   "sexta que vem", "próxima sexta"                → the next such weekday after the arrival
 *                                                    day when it falls in NEXT week (Mon–Sun);
 *                                                    when it still falls in this week ("próxima
 *                                                    sexta" said on a Monday: this Friday or
 *                                                    next week's?) it is ambiguous → no reading
 *   "sexta da semana que vem"                       → the Friday of next week
 *   "semana que vem", "próxima semana"              → a RANGE: Monday to Sunday of next week
 *   "esta semana"                                    → a range: arrival day to Sunday
 *   "daqui a 10 dias", "em 3 dias", "prazo de 30 dias", "daqui a uma semana" → arrival + N
 *   "fim do mês", "último dia do mês"              → the last day of the arrival's month
 *   "fim do mês que vem"                             → the last day of next month
 *   "mês que vem", "próximo mês"                    → a range: the whole next month
 *
 * Never read (no guess): "dia útil"/"dias úteis", "segunda via", "quinta parcela", "sexta
 * passada", "fim de semana", "início do mês", bare numbers ("3x", "R$ 20", "vence 20"), times.
 * When a text names several dates that disagree, the ones introduced by a due word ("vence",
 * "vencimento", "prazo", "até", "pagar até") decide; if those still disagree (or none is
 * marked), there is no reading.
 */
import { DateTime } from 'luxon';
import type { Alerta, AlertaVencimento } from './extraction-types';
import { DEFAULT_TIME_ZONE, formatDateBR } from './time';

/** One date the text names. */
export interface DueDateReading {
  /** The phrase as written in the text ("dia 20", "sexta-feira"). */
  frase: string;
  /** First date it accepts (YYYY-MM-DD). */
  de: string;
  /** Last date it accepts (= `de` for a single day; a range for "semana que vem"). */
  ate: string;
  /** Introduced (or followed) by a due word: "vence", "vencimento", "prazo", "até". */
  marcada: boolean;
}

type Day = DateTime<true>;

// ---------------------------------------------------------------------------------------------
// Folding: lower case without accents, one UTF-16 unit per unit, so a match's indices slice the
// original text.

function fold(text: string): string {
  let out = '';
  for (const ch of text) {
    const lower = ch.toLowerCase();
    const base = lower.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
    if (base.length === ch.length) out += base;
    else if (lower.length === ch.length) out += lower;
    else out += ch;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Words

const B = String.raw`(?<![\p{L}\d])`;
const E = String.raw`(?![\p{L}\d])`;

const MONTHS: Record<string, number> = {
  janeiro: 1,
  fevereiro: 2,
  marco: 3,
  abril: 4,
  maio: 5,
  junho: 6,
  julho: 7,
  agosto: 8,
  setembro: 9,
  outubro: 10,
  novembro: 11,
  dezembro: 12,
  jan: 1,
  fev: 2,
  mar: 3,
  abr: 4,
  mai: 5,
  jun: 6,
  jul: 7,
  ago: 8,
  set: 9,
  out: 10,
  nov: 11,
  dez: 12,
};
const MONTH = `(${Object.keys(MONTHS).join('|')})`;

const WEEKDAY_WORDS: Record<string, number> = {
  segunda: 1,
  terca: 2,
  quarta: 3,
  quinta: 4,
  sexta: 5,
  sabado: 6,
  domingo: 7,
};
// Ordinals that are not weekdays when a noun follows: "segunda via", "quinta parcela".
const ORDINAL_NOUNS =
  'vias?|parcelas?|prestac(?:ao|oes)|vez|vezes|cobrancas?|opcao|tentativas?|mensagens?|semana|quinzena|etapa|serie|pessoa|compra|conta|fatura|nota|linha|ordem|chamada|maquin\\w*|unidade|loja|filial|boleto|link|cliente';
/** A weekday: its name (with or without "-feira"), or "2ª feira" … "6ª-feira". */
const WD = String.raw`(?:(segunda|terca|quarta|quinta|sexta)(?:(?:-|\s)feira)?|(sabado|domingo)|([2-6])\s?(?:a|ª|o|º)?(?:-|\s)?feira)`;

function weekdayOf(m: RegExpMatchArray, at: number): number | null {
  const name = m[at] ?? m[at + 1];
  if (name) return WEEKDAY_WORDS[name] ?? null;
  const n = Number(m[at + 2]);
  return n >= 2 && n <= 6 ? n - 1 : null;
}

const NUMBER_WORDS: Record<string, number> = {
  um: 1,
  uma: 1,
  dois: 2,
  duas: 2,
  tres: 3,
  quatro: 4,
  cinco: 5,
  seis: 6,
  sete: 7,
  oito: 8,
  nove: 9,
  dez: 10,
  quinze: 15,
  vinte: 20,
  trinta: 30,
  quarenta: 40,
  sessenta: 60,
  noventa: 90,
};
const COUNT = `(\\d{1,3}|${Object.keys(NUMBER_WORDS).join('|')})`;
function countOf(s: string | undefined): number | null {
  if (!s) return null;
  const n = /^\d+$/.test(s) ? Number(s) : (NUMBER_WORDS[s] ?? NaN);
  return Number.isSafeInteger(n) && n >= 0 && n <= 366 ? n : null;
}

const DAY_N = String.raw`(\d{1,2}|primeiro)(?:º|°|o)?`;
function dayNumberOf(s: string | undefined): number | null {
  if (s === 'primeiro') return 1;
  const n = Number(s);
  return Number.isInteger(n) && n >= 1 && n <= 31 ? n : null;
}

// ---------------------------------------------------------------------------------------------
// Calendar (plain days, UTC-based: the zone only decides which day the arrival is)

function utcDay(y: number, m: number, d: number): Day | null {
  const t = DateTime.utc(y, m, d);
  return t.isValid ? t : null;
}

const iso = (d: Day): string => d.toISODate();

interface Ctx {
  today: Day;
}

type Span = readonly [Day, Day];
/** A resolver: a span of dates, or null for a phrase that names no single reading. */
type Resolve = (m: RegExpMatchArray, c: Ctx) => Span | null;

const one = (d: Day | null): Span | null => (d ? [d, d] : null);

/** "dia N": this month if N is still ahead (or today), else next month; never a rolled day. */
function nextDayN(n: number | null, c: Ctx): Span | null {
  if (n === null) return null;
  const t = c.today;
  if (n >= t.day) return one(utcDay(t.year, t.month, n));
  const next = t.plus({ months: 1 });
  return one(utcDay(next.year, next.month, n));
}

/** dd/mm without a year: the nearest — ahead, or passed by at most 60 days. */
function nearestDayMonth(d: number, m: number, c: Ctx): Day | null {
  const t = c.today;
  const cands = [t.year - 1, t.year, t.year + 1, t.year + 2]
    .map((y) => utcDay(y, m, d))
    .filter((x): x is Day => x !== null);
  const ahead = cands.find((x) => x >= t) ?? null;
  const past = [...cands].reverse().find((x) => x < t) ?? null;
  if (past && t.diff(past, 'days').days <= 60) return past;
  return ahead;
}

function withYear(y: string | undefined): number | null {
  if (!y) return null;
  return y.length === 2 ? 2000 + Number(y) : Number(y);
}

function dayMonth(d: number | null, m: number | null, y: number | null, c: Ctx): Span | null {
  if (d === null || m === null || m < 1 || m > 12) return null;
  if (y !== null) return one(utcDay(y, m, d));
  return one(nearestDayMonth(d, m, c));
}

const mondayOf = (d: Day): Day => d.minus({ days: d.weekday - 1 });

/** The weekday on or after today. */
function weekdayOnOrAfter(wd: number | null, c: Ctx): Span | null {
  if (wd === null) return null;
  return one(c.today.plus({ days: (wd - c.today.weekday + 7) % 7 }));
}

/** "sexta que vem" / "próxima sexta": the next one after today, if it falls in next week. */
function weekdayNextWeek(wd: number | null, c: Ctx): Span | null {
  if (wd === null) return null;
  const d1 = c.today.plus({ days: (wd - c.today.weekday + 7) % 7 || 7 });
  return d1 >= mondayOf(c.today).plus({ days: 7 }) ? one(d1) : null;
}

const lastOfMonth = (d: Day): Day => d.endOf('month').startOf('day');

// ---------------------------------------------------------------------------------------------
// Patterns, in priority order: a later match that overlaps an earlier one is skipped. A pattern
// with `ignore` consumes its words without a reading (they are not a due date).

interface Pattern {
  re: RegExp;
  resolve: Resolve | 'ignore';
}

const rx = (s: string): RegExp => new RegExp(s, 'gu');
const NEXT_MONTH = String.raw`(?:mes\s+que\s+vem|proximo\s+mes|mes\s+seguinte)`;
const THIS_MONTH = String.raw`(?:deste|desse|este|esse|neste|nesse)\s+mes`;
const NEXT_WEEK = String.raw`(?:semana\s+que\s+vem|proxima\s+semana|semana\s+seguinte)`;

const PATTERNS: Pattern[] = [
  // Not dates: business days, past weekdays, the weekend, vague parts of a month.
  { re: rx(String.raw`${B}(?:\d{1,2}\s*(?:º|°|o)?\s*)?dias?\s+ute?is${E}`), resolve: 'ignore' },
  {
    re: rx(String.raw`${B}(?:${WD}\s+passad[oa]|(?:ultim[oa]|passad[oa])\s+${WD})${E}`),
    resolve: 'ignore',
  },
  { re: rx(String.raw`${B}(?:fim|final)\s+de\s+semana${E}`), resolve: 'ignore' },
  {
    re: rx(String.raw`${B}(?:inicio|comeco|meio|meados)\s+(?:do|de|deste|desse)\s+mes${E}`),
    resolve: 'ignore',
  },

  // 15/01, 15/1/2027, dia 15/01/27
  {
    re: rx(
      String.raw`(?<![\p{L}\d/.,])(?:dia\s+)?(\d{1,2})/(\d{1,2})(?:/(\d{4}|\d{2}))?(?![\d/]|[.,]\d)`,
    ),
    resolve: (m, c) => dayMonth(dayNumberOf(m[1]), Number(m[2]), withYear(m[3]), c),
  },
  // dia 15 de janeiro (de 2027)
  {
    re: rx(String.raw`${B}(?:dia\s+)?${DAY_N}\s+de\s+${MONTH}\.?(?:\s+(?:de\s+)?(\d{4}))?${E}`),
    resolve: (m, c) => dayMonth(dayNumberOf(m[1]), MONTHS[m[2] ?? ''] ?? null, withYear(m[3]), c),
  },
  // dia 15 do mês que vem
  {
    re: rx(String.raw`${B}dia\s+${DAY_N}\s+(?:do|no)\s+${NEXT_MONTH}${E}`),
    resolve: (m, c) => {
      const n = dayNumberOf(m[1]);
      const next = c.today.plus({ months: 1 });
      return n === null ? null : one(utcDay(next.year, next.month, n));
    },
  },
  // dia 15 deste mês
  {
    re: rx(String.raw`${B}dia\s+${DAY_N}\s+${THIS_MONTH}${E}`),
    resolve: (m, c) => {
      const n = dayNumberOf(m[1]);
      return n === null ? null : one(utcDay(c.today.year, c.today.month, n));
    },
  },
  // daqui a 10 dias, em 3 dias, prazo de 30 dias, pra 30 dias (never "dias úteis": see above)
  {
    re: rx(
      String.raw`${B}(?:daqui\s+(?:a\s+)?|em\s+|dentro\s+de\s+|prazo\s+de\s+|para\s+|pra\s+)${COUNT}\s+(dias?|semanas?)(?:\s+corridos)?${E}(?!\s+ute?is)`,
    ),
    resolve: (m, c) => {
      const n = countOf(m[1]);
      if (n === null) return null;
      return one(c.today.plus({ days: m[2]?.startsWith('semana') ? n * 7 : n }));
    },
  },
  // sexta da semana que vem
  {
    re: rx(String.raw`${B}${WD}\s+(?:da|na)\s+${NEXT_WEEK}${E}`),
    resolve: (m, c) => {
      const wd = weekdayOf(m, 1);
      return wd === null ? null : one(mondayOf(c.today).plus({ days: 7 + wd - 1 }));
    },
  },
  // sexta desta semana
  {
    re: rx(String.raw`${B}${WD}\s+(?:desta|dessa|nesta|nessa)\s+semana${E}`),
    resolve: (m, c) => {
      const wd = weekdayOf(m, 1);
      const d = wd === null ? null : mondayOf(c.today).plus({ days: wd - 1 });
      // Already past this week (said on a Sunday, Brazilian calendars start the week): unclear.
      return d && d >= c.today ? one(d) : null;
    },
  },
  // próxima sexta, sexta que vem
  {
    re: rx(String.raw`${B}(?:proxim[oa]\s+${WD}|${WD}\s+que\s+vem)${E}`),
    resolve: (m, c) => weekdayNextWeek(weekdayOf(m, 1) ?? weekdayOf(m, 4), c),
  },
  // fim do mês que vem / último dia do próximo mês
  {
    re: rx(String.raw`${B}(?:fim|final|ultimo\s+dia)\s+(?:do\s+)?${NEXT_MONTH}${E}`),
    resolve: (_m, c) => one(lastOfMonth(c.today.plus({ months: 1 }))),
  },
  // fim do mês / último dia deste mês
  {
    re: rx(String.raw`${B}(?:fim|final|ultimo\s+dia)\s+(?:do\s+mes|${THIS_MONTH})${E}`),
    resolve: (_m, c) => one(lastOfMonth(c.today)),
  },
  // mês que vem (the whole month)
  {
    re: rx(String.raw`${B}${NEXT_MONTH}${E}`),
    resolve: (_m, c) => {
      const first = c.today.plus({ months: 1 }).startOf('month');
      return [first, lastOfMonth(first)];
    },
  },
  // este mês (today to its end)
  {
    re: rx(String.raw`${B}${THIS_MONTH}${E}`),
    resolve: (_m, c) => [c.today, lastOfMonth(c.today)],
  },
  // semana que vem (Monday to Sunday)
  {
    re: rx(String.raw`${B}${NEXT_WEEK}${E}`),
    resolve: (_m, c) => {
      const mon = mondayOf(c.today).plus({ days: 7 });
      return [mon, mon.plus({ days: 6 })];
    },
  },
  // esta semana (today to Sunday)
  {
    re: rx(String.raw`${B}(?:esta|essa|nesta|nessa)\s+semana${E}`),
    resolve: (_m, c) => [c.today, mondayOf(c.today).plus({ days: 6 })],
  },
  // depois de amanhã, amanhã, hoje
  {
    re: rx(String.raw`${B}depois\s+de\s+amanha${E}`),
    resolve: (_m, c) => one(c.today.plus({ days: 2 })),
  },
  { re: rx(String.raw`${B}amanha${E}`), resolve: (_m, c) => one(c.today.plus({ days: 1 })) },
  { re: rx(String.raw`${B}(?:hoje|hj)${E}`), resolve: (_m, c) => one(c.today) },
  // dia 20
  {
    re: rx(String.raw`${B}dia\s+${DAY_N}${E}(?![/.,]\d)`),
    resolve: (m, c) => nextDayN(dayNumberOf(m[1]), c),
  },
  // sexta, sexta-feira, sábado (not "segunda via", "quinta parcela")
  {
    re: rx(String.raw`${B}${WD}${E}(?!\s+(?:${ORDINAL_NOUNS})${E})`),
    resolve: (m, c) => weekdayOnOrAfter(weekdayOf(m, 1), c),
  },
];

// A due word before the phrase (same clause) or right after it.
const MARK_BEFORE =
  /(?:venc\w*|prazo|pag(?:ar|amento|ue|a)\s+(?:ate|em|no|na)|(?<![\p{L}])ate)[^.;!?\n,]{0,25}$/u;
const MARK_AFTER = /^[^.;!?\n,]{0,20}(?:venc\w*|prazo)/u;

interface Hit {
  index: number;
  end: number;
  span: Span | null;
}

/** The dates a text names, in order of appearance (phrases that name none are left out). */
export function dueDatesInText(
  text: string,
  arrival: Date,
  zone: string = DEFAULT_TIME_ZONE,
): DueDateReading[] {
  const local = DateTime.fromJSDate(arrival, { zone });
  if (!local.isValid) return [];
  const today = utcDay(local.year, local.month, local.day);
  if (!today) return [];
  const src = text.normalize('NFC');
  const f = fold(src);
  const c: Ctx = { today };
  const hits: Hit[] = [];
  for (const p of PATTERNS) {
    p.re.lastIndex = 0;
    for (const m of f.matchAll(p.re)) {
      const start = m.index;
      const end = start + m[0].length;
      if (hits.some((h) => start < h.end && end > h.index)) continue;
      hits.push({ index: start, end, span: p.resolve === 'ignore' ? null : p.resolve(m, c) });
    }
  }
  hits.sort((a, b) => a.index - b.index);
  const out: DueDateReading[] = [];
  for (const h of hits) {
    if (!h.span) continue;
    out.push({
      frase: src.slice(h.index, h.end),
      de: iso(h.span[0]),
      ate: iso(h.span[1]),
      marcada:
        MARK_BEFORE.test(f.slice(Math.max(0, h.index - 40), h.index)) ||
        MARK_AFTER.test(f.slice(h.end, h.end + 30)),
    });
  }
  return out;
}

/**
 * THE due date a text names, or null: none, or several that disagree with no due word to tell
 * them apart (never a guess).
 */
export function readDueDate(
  text: string,
  arrival: Date,
  zone: string = DEFAULT_TIME_ZONE,
): DueDateReading | null {
  const all = dueDatesInText(text, arrival, zone);
  const distinct = (rs: DueDateReading[]) => new Set(rs.map((r) => `${r.de}..${r.ate}`)).size;
  if (all.length === 0) return null;
  if (distinct(all) === 1) return all.find((r) => r.marcada) ?? all[0] ?? null;
  const marked = all.filter((r) => r.marcada);
  return marked.length > 0 && distinct(marked) === 1 ? (marked[0] ?? null) : null;
}

/** How a reading reads for people: "20/12/2026", or "14/12/2026 a 20/12/2026". */
export function formatReading(r: { de: string; ate: string }): string {
  return r.de === r.ate ? formatDateBR(r.de) : `${formatDateBR(r.de)} a ${formatDateBR(r.ate)}`;
}

/** Does a date fall within what the text says? */
export function agreesWith(r: { de: string; ate: string }, vencimento: string | null): boolean {
  return vencimento !== null && r.de <= vencimento && vencimento <= r.ate;
}

/** One piece of the merchant's text and when it arrived. */
export interface DatedText {
  texto: string;
  chegada: Date;
}

/**
 * The cross-check: when the text names a due date and the extracted `vencimento` is not it (or
 * is empty), an alert for the review queue. With the merchant's answers, the latest piece that
 * names a date decides (the answers come later and win, as the prompt tells the model).
 */
export function dueDateAlert(
  parts: readonly DatedText[],
  vencimento: string | null,
  zone: string = DEFAULT_TIME_ZONE,
): AlertaVencimento | null {
  let reading: DueDateReading | null = null;
  for (let i = parts.length - 1; i >= 0 && !reading; i--) {
    const p = parts[i];
    if (p) reading = readDueDate(p.texto, p.chegada, zone);
  }
  if (!reading || agreesWith(reading, vencimento)) return null;
  const lida = `«${reading.frase}» (${formatReading(reading)})`;
  const mensagem =
    vencimento === null
      ? `A mensagem diz ${lida}, mas o vencimento ficou vazio. Confira o vencimento antes de criar a cobrança.`
      : `O vencimento extraído (${formatDateBR(vencimento)}) não bate com o que a mensagem diz: ${lida}. Confira a data antes de criar a cobrança.`;
  return {
    codigo: 'vencimento_divergente',
    mensagem,
    frase: reading.frase,
    data_no_texto: reading.de,
    data_no_texto_ate: reading.ate,
  };
}

/**
 * The item's due-date alert when the charge's `vencimento` still differs from the text's date:
 * that date must be confirmed explicitly before the charge is created (form, CLI and service
 * alike). null when there is no such alert or the date now agrees with the text.
 */
export function dateToConfirm(
  alertas: readonly Alerta[] | null | undefined,
  vencimento: string | null,
): AlertaVencimento | null {
  const a = (alertas ?? []).find(
    (x): x is AlertaVencimento => x.codigo === 'vencimento_divergente',
  );
  if (!a) return null;
  return agreesWith({ de: a.data_no_texto, ate: a.data_no_texto_ate }, vencimento) ? null : a;
}

/** Why a charge whose date differs from the text's waits for the date's confirmation. */
export function dateToConfirmMessage(a: AlertaVencimento, vencimento: string | null): string {
  const lida = `«${a.frase}» → ${formatReading({ de: a.data_no_texto, ate: a.data_no_texto_ate })}`;
  return vencimento
    ? `O vencimento ${formatDateBR(vencimento)} não é o que a mensagem diz (${lida}). Confirme esse vencimento para criar a cobrança.`
    : `A mensagem diz ${lida}, mas o vencimento está vazio.`;
}
