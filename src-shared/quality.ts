/**
 * Quality sampling (#39.4), the pure parts: the sampler's draw (the same as the database's
 * `balcao_qualidade_sorteio`), the Wilson score interval and its pt-BR text.
 */

/** The fields a supervisor judges, in the order the view shows them. */
export const CAMPOS_QUALIDADE = [
  'valor_centavos',
  'parcelas',
  'metodo',
  'cliente_nome',
  'vencimento',
  'descricao',
] as const;
export type CampoQualidade = (typeof CAMPOS_QUALIDADE)[number];

export const ROTULO_CAMPO_QUALIDADE: Record<CampoQualidade, string> = {
  valor_centavos: 'Valor',
  parcelas: 'Parcelas',
  metodo: 'Forma de pagamento',
  cliente_nome: 'Cliente',
  vencimento: 'Vencimento',
  descricao: 'Descrição',
};

export type OrigemAmostra = 'automatica' | 'agente';

export const ROTULO_ORIGEM: Record<OrigemAmostra, string> = {
  automatica: 'Automática',
  agente: 'Confirmada por agente',
};

const TWO_32 = 4294967296;

/** murmur3's 32-bit finalizer of the charge id, then 0–9999 (hundredths of a percent). */
export function qualityDraw(id: number): number {
  if (!Number.isSafeInteger(id) || id < 0) throw new RangeError('id deve ser inteiro ≥ 0');
  let h = ((id % TWO_32) ^ (Math.floor(id / TWO_32) % TWO_32)) >>> 0;
  h = (h ^ (h >>> 16)) >>> 0;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h = (h ^ (h >>> 13)) >>> 0;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  h = (h ^ (h >>> 16)) >>> 0;
  return h % 10000;
}

/**
 * Whether a charge is sampled: always while its pair has made at most `inicial` charges
 * (`ordem` is its place among them, 1-based), else when its draw falls below the share.
 */
export function isSampled(
  id: number,
  ordem: number,
  cfg: { percentual: number; inicial: number },
): boolean {
  return ordem <= cfg.inicial || qualityDraw(id) < Math.round(cfg.percentual * 100);
}

export interface WilsonInterval {
  acertos: number;
  n: number;
  /** k / n; null with no judgement. */
  taxa: number | null;
  inferior: number | null;
  superior: number | null;
}

/** z of a two-sided 95% interval. */
const Z95 = 1.959963984540054;

/** The Wilson score interval (95%) of `acertos` successes in `n` trials. */
export function wilson95(acertos: number, n: number): WilsonInterval {
  if (!Number.isInteger(acertos) || !Number.isInteger(n) || n < 0 || acertos < 0 || acertos > n) {
    throw new RangeError('acertos e n devem ser inteiros com 0 ≤ acertos ≤ n');
  }
  if (n === 0) return { acertos, n, taxa: null, inferior: null, superior: null };
  const p = acertos / n;
  const z2 = Z95 * Z95;
  const denom = 1 + z2 / n;
  const centro = (p + z2 / (2 * n)) / denom;
  const meia = (Z95 / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return {
    acertos,
    n,
    taxa: p,
    inferior: Math.max(0, centro - meia),
    superior: Math.min(1, centro + meia),
  };
}

const pct1 = new Intl.NumberFormat('pt-BR', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** 0.942 → "94,2%". */
export function formatPct1(fracao: number): string {
  return `${pct1.format(fracao * 100)}%`;
}

/** "94,2% (IC 95%: 90,1–96,7%, n = 120)"; "sem julgamentos (n = 0)" with none. */
export function formatAccuracy(w: WilsonInterval): string {
  if (w.taxa === null || w.inferior === null || w.superior === null) {
    return 'sem julgamentos (n = 0)';
  }
  return `${formatPct1(w.taxa)} (IC 95%: ${pct1.format(w.inferior * 100)}–${pct1.format(
    w.superior * 100,
  )}%, n = ${w.n})`;
}
