/**
 * Pix helpers shared by the PSP dispatch, the CLI and the screens (#36): the merchant's Pix key
 * (CPF, CNPJ — the alphanumeric one too —, e-mail, +55 phone, EVP), and the API Pix decimal
 * string of an amount ("150.00"), built from integer centavos with string arithmetic.
 */

export type TipoChavePix = 'cpf' | 'cnpj' | 'email' | 'telefone' | 'evp';

export type ChavePixResult =
  { ok: true; chave: string; tipo: TipoChavePix } | { ok: false; motivo: string };

const digitsOnly = (s: string) => s.replace(/[.\-/\s]/g, '');

/** CPF check digits (mod 11). Rejects the eleven repeated digits. */
export function cpfValido(cpf: string): boolean {
  if (!/^\d{11}$/.test(cpf) || /^(\d)\1{10}$/.test(cpf)) return false;
  const d = [...cpf].map(Number);
  for (const n of [9, 10]) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += d[i]! * (n + 1 - i);
    const dv = ((sum * 10) % 11) % 10;
    if (dv !== d[n]) return false;
  }
  return true;
}

/**
 * CNPJ check digits, numeric or alphanumeric (IN RFB 2.229/2024): 12 characters [0-9A-Z] and two
 * numeric check digits by mod 11, each character worth its ASCII code − 48.
 */
export function cnpjValido(cnpj: string): boolean {
  if (!/^[0-9A-Z]{12}\d{2}$/.test(cnpj) || /^(\d)\1{13}$/.test(cnpj)) return false;
  const v = [...cnpj].map((ch) => ch.charCodeAt(0) - 48);
  for (const n of [12, 13]) {
    let sum = 0;
    let w = 2;
    for (let i = n - 1; i >= 0; i--) {
      sum += v[i]! * w;
      w = w === 9 ? 2 : w + 1;
    }
    const r = sum % 11;
    const dv = r < 2 ? 0 : 11 - r;
    if (dv !== v[n]) return false;
  }
  return true;
}

const EMAIL =
  /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;
const EVP = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Validates and normalizes a Pix key as the DICT stores it; pt-BR reason otherwise. */
export function validarChavePix(entrada: string): ChavePixResult {
  const raw = entrada.trim();
  if (!raw) return { ok: false, motivo: 'Informe a chave Pix.' };
  if (raw.length > 77)
    return { ok: false, motivo: 'Chave Pix longa demais (máximo 77 caracteres).' };
  if (raw.includes('@')) {
    const email = raw.toLowerCase();
    return EMAIL.test(email)
      ? { ok: true, chave: email, tipo: 'email' }
      : { ok: false, motivo: `E-mail inválido como chave Pix: ${raw}.` };
  }
  if (raw.startsWith('+')) {
    const tel = raw.replace(/[\s()-]/g, '');
    if (!tel.startsWith('+55')) {
      return { ok: false, motivo: 'Telefone como chave Pix precisa ser do Brasil (+55).' };
    }
    return /^\+55[1-9]{2}9?\d{8}$/.test(tel)
      ? { ok: true, chave: tel, tipo: 'telefone' }
      : { ok: false, motivo: `Telefone inválido como chave Pix: ${raw} (use +55, DDD e número).` };
  }
  const lower = raw.toLowerCase();
  if (EVP.test(lower)) return { ok: true, chave: lower, tipo: 'evp' };
  const doc = digitsOnly(raw).toUpperCase();
  if (/^\d{11}$/.test(doc)) {
    return cpfValido(doc)
      ? { ok: true, chave: doc, tipo: 'cpf' }
      : { ok: false, motivo: `CPF inválido (dígitos verificadores não conferem): ${raw}.` };
  }
  if (/^[0-9A-Z]{14}$/.test(doc)) {
    return cnpjValido(doc)
      ? { ok: true, chave: doc, tipo: 'cnpj' }
      : { ok: false, motivo: `CNPJ inválido (dígitos verificadores não conferem): ${raw}.` };
  }
  return {
    ok: false,
    motivo:
      'Chave Pix não reconhecida: use CPF, CNPJ, e-mail, telefone com +55 ou chave aleatória (UUID).',
  };
}

/** Integer centavos as the API Pix decimal string (`\d{1,10}\.\d{2}`): 15000 → "150.00". */
export function centavosParaDecimal(centavos: number): string {
  if (!Number.isSafeInteger(centavos) || centavos < 0) {
    throw new RangeError('valor em centavos deve ser inteiro e não negativo');
  }
  const s = String(centavos).padStart(3, '0');
  return `${s.slice(0, -2)}.${s.slice(-2)}`;
}

/** The API Pix decimal string back to centavos ("150.00" → 15000); null when malformed. */
export function decimalParaCentavos(valor: string): number | null {
  const m = /^(\d{1,10})\.(\d{2})$/.exec(valor);
  if (!m) return null;
  return Number(m[1]) * 100 + Number(m[2]);
}
