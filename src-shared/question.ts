import type { CampoEmFaltando } from './extraction-types';
import { CAMPOS_EM_FALTANDO } from './extraction-types';

const PHRASES: Record<CampoEmFaltando, string> = {
  valor_centavos: 'o valor da cobrança',
  parcelas: 'o número de parcelas',
  metodo: 'a forma de pagamento (Pix, boleto ou cartão)',
  cliente_nome: 'o nome do cliente',
  vencimento: 'a data de vencimento',
  cliente_documento: 'o CPF ou CNPJ do cliente (o boleto registrado exige)',
};

/** "a", "a e b", "a, b e c". */
export function joinPtBr(parts: string[]): string {
  if (parts.length <= 1) return parts[0] ?? '';
  return `${parts.slice(0, -1).join(', ')} e ${parts[parts.length - 1]}`;
}

/**
 * The question an agent sends the merchant for the missing fields, in the tool's field order:
 * ['vencimento', 'valor_centavos'] → "Qual o valor da cobrança e a data de vencimento?".
 * Null when nothing is missing.
 */
export function questionFor(faltando: readonly string[]): string | null {
  const fields = CAMPOS_EM_FALTANDO.filter((c) => faltando.includes(c));
  if (!fields.length) return null;
  return `Qual ${joinPtBr(fields.map((f) => PHRASES[f]))}?`;
}
