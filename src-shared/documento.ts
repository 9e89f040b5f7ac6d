/**
 * The payer's document (`cliente_documento`, #36.4): a CPF (11 digits) or a CNPJ, numeric or
 * alphanumeric (IN RFB 2.229/2024: 12 characters 0-9/A-Z + 2 check digits). The check digits are
 * the LGPD detector's (`pii.ts`): one implementation. Stored canonical — digits and capitals, no
 * punctuation; shown with the usual punctuation, or masked.
 */
import { isValidCnpj, isValidCpf } from './pii';

/** Upper case, without dots, slashes, dashes and spaces. */
export function canonicalDocumento(raw: string): string {
  return raw.toUpperCase().replace(/[./\-\s]/g, '');
}

/** 'cpf', 'cnpj' or null when the check digits (or the shape) fail. */
export function tipoDocumento(raw: string): 'cpf' | 'cnpj' | null {
  const c = canonicalDocumento(raw);
  if (/^\d{11}$/.test(c) && isValidCpf(c)) return 'cpf';
  if (/^[0-9A-Z]{12}\d{2}$/.test(c) && isValidCnpj(c)) return 'cnpj';
  return null;
}

export const isValidDocumento = (raw: string): boolean => tipoDocumento(raw) !== null;

/** 123.456.789-09 / 12.ABC.345/01DE-35; anything else as given. */
export function formatDocumento(raw: string): string {
  const c = canonicalDocumento(raw);
  if (c.length === 11) return `${c.slice(0, 3)}.${c.slice(3, 6)}.${c.slice(6, 9)}-${c.slice(9)}`;
  if (c.length === 14) {
    return `${c.slice(0, 2)}.${c.slice(2, 5)}.${c.slice(5, 8)}/${c.slice(8, 12)}-${c.slice(12)}`;
  }
  return raw;
}

/** For lists and logs: only the last digits (***.***.*89-09). */
export function maskDocumento(raw: string): string {
  const f = formatDocumento(raw);
  return f.replace(/[0-9A-Z](?=(?:[^0-9A-Z]*[0-9A-Z]){4})/g, '*');
}
