/**
 * Deterministic reading of amounts written in pt-BR merchant text, and the sanity check that
 * compares them with the amount the model extracted.
 *
 * Recognised (value in centavos):
 *   "R$ 150", "R$150", "R$ 1.500,50", "R$1.500,50", "R$ 150.00"   → currency prefix
 *   "150 reais", "1 real", "150,00 reais", "2 mil reais", "1,5 mil"  → currency word / "mil"
 *   "150 contos", "50 pila"                                           → common slang
 *   "150,00", "1.500", "1.500,50"                                     → unambiguous bare money
 * A bare integer ("150", "3x", "dia 15") is NOT an amount: too ambiguous. Percentages,
 * dates (15/03), times (10:30), CPF/CNPJ-like digit groups and phone numbers are skipped.
 */
import type { Alerta } from './extraction-types';
import { formatBRL } from './money';

// A number in pt-BR notation: thousands with dots and optional ",dd"; or plain digits with
// optional ",d"/",dd"; or (only after R$ / before "reais") "dd.dd" with a decimal point.
const NUM = String.raw`\d{1,3}(?:\.\d{3})+(?:,\d{1,2})?|\d+(?:,\d{1,2})?`;
const NUM_DOT_DECIMAL = String.raw`\d+\.\d{2}`;
// Not glued to other digits, separators, dates or identifiers.
const BEFORE = String.raw`(?<![\w.,/:-])`;
const AFTER = String.raw`(?![\w%]|[.,/:-]\d)`;

const PREFIXED = new RegExp(
  String.raw`R\$\s*(${NUM_DOT_DECIMAL}|${NUM})(\s*mil\b)?${AFTER}`,
  'giu',
);
const SUFFIXED = new RegExp(
  String.raw`${BEFORE}(${NUM_DOT_DECIMAL}|${NUM})(\s*mil)?\s*(?:reais|real|contos?|pilas?)\b`,
  'giu',
);
const MIL = new RegExp(String.raw`${BEFORE}(${NUM})\s*mil\b`, 'giu');
const BARE = new RegExp(
  String.raw`${BEFORE}(\d{1,3}(?:\.\d{3})+(?:,\d{2})?|\d+,\d{2})${AFTER}`,
  'gu',
);

function toCentavos(num: string, mil: boolean): number | null {
  let reais: number;
  let cents: number;
  if (/^\d+\.\d{2}$/.test(num)) {
    // "150.00": decimal point (only reached with a currency marker)
    const [i = '', d = ''] = num.split('.');
    reais = Number(i);
    cents = Number(d);
  } else {
    const [i = '', d = ''] = num.split(',');
    reais = Number(i.replace(/\./g, ''));
    cents = Number(d.padEnd(2, '0'));
  }
  let total = reais * 100 + cents;
  if (mil) total *= 1000;
  return Number.isSafeInteger(total) ? total : null;
}

interface Hit {
  index: number;
  end: number;
  centavos: number;
}

function collect(re: RegExp, text: string, hits: Hit[], milGroup: boolean): void {
  re.lastIndex = 0;
  for (const m of text.matchAll(re)) {
    const num = m[1];
    if (!num || m.index === undefined) continue;
    const start = m.index;
    const end = start + m[0].length;
    // a longer, earlier pattern already covered this span
    if (hits.some((h) => start < h.end && end > h.index)) continue;
    const mil = milGroup ? Boolean(m[2]) : true;
    const c = toCentavos(num, mil);
    if (c !== null) hits.push({ index: start, end, centavos: c });
  }
}

/** Amounts (centavos) written in the text, in order of appearance, without repeats. */
export function amountsInText(text: string): number[] {
  const hits: Hit[] = [];
  collect(PREFIXED, text, hits, true);
  collect(SUFFIXED, text, hits, true);
  // "2 mil" alone: only with the word, so it is not a bare ambiguous number
  collect(MIL, text, hits, false);
  collect(BARE, text, hits, true);
  hits.sort((a, b) => a.index - b.index);
  return [...new Set(hits.map((h) => h.centavos))];
}

/** "3x de R$ 50": the text states an installment amount. */
const INSTALLMENT_AMOUNT = /\b(\d{1,2})\s*x\s*de\b/iu;

/**
 * The sanity check: when the text has amounts and none equals the extracted one (or the model
 * left the amount empty although the text has one), an alert for the review queue. When the
 * text states installments ("3x de R$ 50,00"), installment × parcelas also matches.
 */
export function amountAlert(
  text: string,
  valorCentavos: number | null,
  parcelas: number | null = null,
): Alerta | null {
  const found = amountsInText(text);
  if (found.length === 0) return null;
  if (valorCentavos !== null && found.includes(valorCentavos)) return null;
  if (
    valorCentavos !== null &&
    parcelas !== null &&
    parcelas > 1 &&
    INSTALLMENT_AMOUNT.test(text) &&
    found.some((c) => c * parcelas === valorCentavos)
  ) {
    return null;
  }
  const noTexto = found
    .filter((c) => Number.isSafeInteger(c))
    .map((c) => formatBRL(c))
    .join(', ');
  const mensagem =
    valorCentavos === null
      ? `A mensagem menciona ${noTexto}, mas o valor ficou vazio. Confira o valor antes de criar a cobrança.`
      : `O valor extraído (${formatBRL(valorCentavos)}) não bate com ${found.length > 1 ? 'nenhum dos valores escritos' : 'o valor escrito'} na mensagem (${noTexto}). Confira antes de criar a cobrança.`;
  return { codigo: 'valor_divergente', mensagem, valores_no_texto: found };
}
