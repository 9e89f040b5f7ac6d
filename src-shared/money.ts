/** Money is always integer centavos. Display goes through one formatter. */
const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });

export function formatBRL(centavos: number | bigint): string {
  const n = typeof centavos === 'bigint' ? Number(centavos) : centavos;
  if (!Number.isSafeInteger(n)) throw new RangeError('valor em centavos deve ser inteiro');
  return brl.format(n / 100);
}

/**
 * Parses an amount typed by a person in reais ("150", "150,5", "1.500,00", "R$ 1.500,50")
 * into integer centavos. Returns null when the text is not an amount.
 */
export function parseReaisToCentavos(text: string): number | null {
  const t = text
    .replace(/R\$\s*/i, '')
    .replace(/\s+/g, '')
    .trim();
  if (!/^\d{1,3}(\.\d{3})*(,\d{1,2})?$|^\d+(,\d{1,2})?$/.test(t)) return null;
  const [intPart, decPart = ''] = t.split(',');
  const reais = Number((intPart ?? '').replace(/\./g, ''));
  const cents = Number(decPart.padEnd(2, '0'));
  const total = reais * 100 + cents;
  return Number.isSafeInteger(total) ? total : null;
}
