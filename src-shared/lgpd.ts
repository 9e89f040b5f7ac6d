/**
 * LGPD (#38 items 2–4): masks for CPF/CNPJ shown to people, the markers that replace personal
 * data, and the data subject's identifier (CPF/CNPJ, phone or e-mail) as typed in a search.
 * Pure: the main process masks before anything reaches a screen; detection is src-shared/pii.ts.
 */
import { z } from './zod';
import { canonical, findPii, isValidCnpj, isValidCpf, type PiiKind } from './pii';

/** What replaces personal fields older than the retention bound. */
export const MARCADOR_RETENCAO = '[anonimizado: retenção]';
/** What replaces a data subject's data on their request. */
export const MARCADOR_TITULAR = '[anonimizado: titular]';

/** `***.456.789-**`: a CPF with only its middle digits. */
export function maskCpf(cpf: string): string {
  const d = cpf.replace(/\D/g, '');
  return `***.${d.slice(3, 6)}.${d.slice(6, 9)}-**`;
}

/** `**.345.678/****-**`: a CNPJ (numeric or alphanumeric) with only its middle characters. */
export function maskCnpj(cnpj: string): string {
  const c = cnpj.toUpperCase().replace(/[^0-9A-Z]/g, '');
  return `**.${c.slice(2, 5)}.${c.slice(5, 8)}/****-**`;
}

/** `(**) *****-4321`: a phone with only its last four digits. */
export function maskTelefone(phone: string): string {
  const d = phone.replace(/\D/g, '');
  return `(**) ${'*'.repeat(Math.max(0, d.length - 6))}-${d.slice(-4)}`;
}

/** `j***@gmail.com`: an e-mail with only its first character and its domain. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return `${email.slice(0, 1)}***${email.slice(at)}`;
}

/** A CPF or CNPJ masked (anything else as it is). */
export function maskDocumento(value: string): string {
  if (isValidCpf(value)) return maskCpf(value);
  if (isValidCnpj(value)) return maskCnpj(value);
  return value;
}

/** `text` with every CPF and CNPJ in it masked. */
export function maskDocumentsIn(text: string): string {
  let out = '';
  let at = 0;
  for (const m of findPii(text)) {
    if (m.kind !== 'CPF' && m.kind !== 'CNPJ') continue;
    out += text.slice(at, m.start) + (m.kind === 'CPF' ? maskCpf(m.value) : maskCnpj(m.value));
    at = m.end;
  }
  return out + text.slice(at);
}

/** Every string inside `value` with its CPFs/CNPJs masked (a new value). */
export function maskDocumentsDeep<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return maskDocumentsIn(value) as T;
  if (value === null || typeof value !== 'object' || depth > 20) return value;
  if (Array.isArray(value)) return value.map((v: unknown) => maskDocumentsDeep(v, depth + 1)) as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    Object.defineProperty(out, k, {
      value: maskDocumentsDeep(v, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out as T;
}

/** A masked CPF or CNPJ as the masks above write them. */
const MASCARA_DOCUMENTO = /\*{3}\.\d{3}\.\d{3}-\*{2}|\*{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}\/\*{4}-\*{2}/g;

/** `text` cut into plain stretches and masked documents (for the supervisor's reveal). */
export function splitMasked(text: string): { texto: string; mascara: boolean }[] {
  const out: { texto: string; mascara: boolean }[] = [];
  let at = 0;
  for (const m of text.matchAll(MASCARA_DOCUMENTO)) {
    if (m.index > at) out.push({ texto: text.slice(at, m.index), mascara: false });
    out.push({ texto: m[0], mascara: true });
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push({ texto: text.slice(at), mascara: false });
  return out;
}

/**
 * The form sends back the document as it was shown: masked (#38.2). A masked value that is the
 * mask of a stored one means "unchanged" and becomes that stored value; anything else is kept.
 */
const bareDocumento = (s: string) => s.toUpperCase().replace(/[./\-\s]/g, '');

/** A masked CPF/CNPJ as shown (`***.456.789-**`) or without its punctuation. */
export function isMaskedDocumento(value: string): boolean {
  return /^(\*{3}\d{6}\*{2}|\*{2}[0-9A-Z]{6}\*{6})$/.test(bareDocumento(value));
}

export function unmaskDocumento(
  value: string | null | undefined,
  ...stored: (string | null | undefined)[]
): string | null | undefined {
  if (!value?.includes('*')) return value;
  return stored.find((s) => s && bareDocumento(maskDocumento(s)) === bareDocumento(value)) ?? value;
}

/** A data subject, as searched for: the kind of identifier and its canonical key. */
export interface Titular {
  tipo: 'documento' | 'telefone' | 'email';
  kinds: readonly PiiKind[];
  /** The canonical value (digits; CNPJ uppercase; e-mail lowercase). */
  chave: string;
  /** As shown to people and written in the audit: masked. */
  rotulo: string;
}

export const titularInputSchema = z
  .object({
    documento: z.string().trim().max(40).optional(),
    telefone: z.string().trim().max(40).optional(),
    email: z.string().trim().max(200).optional(),
  })
  .strict();
export type TitularInput = z.infer<typeof titularInputSchema>;

/** The titular named by exactly one of documento/telefone/email, or a pt-BR reason why not. */
export function parseTitular(input: TitularInput): Titular | { erro: string } {
  const given = (['documento', 'telefone', 'email'] as const).filter((k) => input[k]);
  if (given.length !== 1) {
    return { erro: 'Informe um (e só um) destes: o CPF/CNPJ, o telefone ou o e-mail do titular.' };
  }
  const tipo = given[0]!;
  const raw = input[tipo]!;
  if (tipo === 'documento') {
    if (isValidCpf(raw)) {
      return { tipo, kinds: ['CPF'], chave: canonical('CPF', raw), rotulo: maskCpf(raw) };
    }
    if (isValidCnpj(raw)) {
      return { tipo, kinds: ['CNPJ'], chave: canonical('CNPJ', raw), rotulo: maskCnpj(raw) };
    }
    return { erro: `«${raw}» não é um CPF nem um CNPJ válido (confira os dígitos verificadores).` };
  }
  if (tipo === 'telefone') {
    const found = findPii(raw);
    if (found.length !== 1 || found[0]!.kind !== 'TELEFONE') {
      return { erro: `«${raw}» não é um telefone brasileiro (DDD e 8 ou 9 dígitos).` };
    }
    const chave = canonical('TELEFONE', raw);
    return { tipo, kinds: ['TELEFONE'], chave, rotulo: maskTelefone(chave) };
  }
  const found = findPii(raw);
  if (found.length !== 1 || found[0]!.kind !== 'EMAIL' || found[0]!.value !== raw) {
    return { erro: `«${raw}» não é um endereço de e-mail.` };
  }
  const chave = canonical('EMAIL', raw);
  return { tipo, kinds: ['EMAIL'], chave, rotulo: maskEmail(chave) };
}

/** The stretches of `text` that are this titular's identifier. */
export function titularMatches(text: string, t: Titular): { start: number; end: number }[] {
  return findPii(text)
    .filter((m) => t.kinds.includes(m.kind) && canonical(m.kind, m.value) === t.chave)
    .map((m) => ({ start: m.start, end: m.end }));
}

/** Where a piece of personal data lives: table, row, column (and where inside a JSON body). */
export interface LgpdOrigem {
  tabela: string;
  id: string;
  campo: string;
}

export interface LgpdRegistro {
  origem: LgpdOrigem;
  lojista: number | null;
  extracao: number | null;
  em: string;
  /** The field's content as stored (text, or the JSON body). */
  valor: unknown;
}

export interface LgpdCobranca {
  origem: LgpdOrigem;
  lojista: number;
  extracao: number;
  cliente_nome: string;
  cliente_documento: string | null;
  valor_centavos: number;
  parcelas: number;
  metodo: string;
  vencimento: string;
  descricao: string | null;
  em: string;
}

/** Everything Balcão holds about one data subject (`balcao lgpd exportar`, the LGPD screen). */
export interface LgpdExportacao {
  titular: { tipo: Titular['tipo']; identificador: string };
  gerada_em: string;
  mensagens: LgpdRegistro[];
  extracoes: LgpdRegistro[];
  tentativas: LgpdRegistro[];
  mensagens_saida: LgpdRegistro[];
  perguntas: LgpdRegistro[];
  cobrancas: LgpdCobranca[];
  total: number;
}
