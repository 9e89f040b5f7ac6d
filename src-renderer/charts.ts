/**
 * Chart formatting shared by every chart (recharts): money axes in R$, even ticks, pt-BR
 * tooltips. Values are integer centavos; ticks are chosen in reais so they read as round money.
 */
const brlCompact = new Intl.NumberFormat('pt-BR', {
  style: 'currency',
  currency: 'BRL',
  notation: 'compact',
  minimumFractionDigits: 0,
  maximumFractionDigits: 1,
});
const brlPlain = new Intl.NumberFormat('pt-BR', {
  style: 'currency',
  currency: 'BRL',
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
});
const intCompact = new Intl.NumberFormat('pt-BR', {
  notation: 'compact',
  maximumFractionDigits: 1,
});

/** Axis label of an amount in centavos: "R$ 600", "R$ 1,2 mil", "R$ 3 mi". */
export function moneyTick(centavos: number): string {
  const reais = centavos / 100;
  return Math.abs(reais) < 1000 ? brlPlain.format(reais) : brlCompact.format(reais);
}

export function countTick(n: number): string {
  return intCompact.format(n);
}

/** Axis label of a US$ cost: "US$ 0,10". */
export function usdTick(v: number): string {
  return `US$ ${v.toLocaleString('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** A round step ≥ raw: 1, 2, 2.5 or 5 × 10^k. */
function niceStep(raw: number): number {
  if (!(raw > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}

/**
 * Even ticks from 0 over `max`, about `count` intervals. For money, the step is a round number
 * of reais (never "6,5 / 19,5 mil"); for counts, a whole number.
 */
export function evenTicks(max: number, opts: { money?: boolean; count?: number } = {}): number[] {
  const count = opts.count ?? 5;
  const unit = opts.money ? 100 : 1;
  const top = Math.max(max, 0) / unit;
  const step = Math.max(niceStep(top / count), 1);
  const n = Math.max(1, Math.ceil(top / step));
  return Array.from({ length: n + 1 }, (_, i) => Math.round(i * step * unit));
}

/** Tooltip separator and name as people read them ("Total bruto: R$ 253,65"). */
export const TOOLTIP_SEPARATOR = ': ';
