/**
 * Shapes stored for charge extractions (jsonb columns of `extracoes` / `extracao_tentativas`)
 * and shown by the review queue. The zod schema of the tool lives in `charge.ts`.
 */
export const METODOS = ['pix', 'boleto', 'cartao'] as const;
export type Metodo = (typeof METODOS)[number];

/** The five fields that can be listed in `faltando`. */
export const CAMPOS_FALTANTES = [
  'valor_centavos',
  'parcelas',
  'metodo',
  'cliente_nome',
  'vencimento',
] as const;
export type CampoFaltante = (typeof CAMPOS_FALTANTES)[number];

/** The seven tool fields. */
export interface DadosCobranca {
  valor_centavos: number | null;
  parcelas: number | null;
  metodo: Metodo | null;
  cliente_nome: string | null;
  vencimento: string | null;
  descricao: string | null;
  faltando: CampoFaltante[];
}

export const EXTRACTION_STATUSES = ['completo', 'incompleto', 'falhou'] as const;
export type ExtractionStatus = (typeof EXTRACTION_STATUSES)[number];

/** One broken business rule, in words a colleague (and the model) can act on. */
export interface RuleError {
  /** Field name, or '' for a rule about the whole charge. */
  campo: string;
  /** Stable rule id (e.g. 'parcelas_pix_boleto'), for reports. */
  regra: string;
  mensagem: string;
}

export interface Uso {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

export interface Alerta {
  codigo: 'valor_divergente';
  mensagem: string;
  /** Amounts (centavos) found in the merchant's text. */
  valores_no_texto: number[];
}

export const FILA_ESTADOS = ['aberta', 'resolvida', 'descartada', 'concluida'] as const;
export type FilaEstado = (typeof FILA_ESTADOS)[number];
