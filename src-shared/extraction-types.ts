/**
 * Shapes stored for charge extractions (jsonb columns of `extracoes` / `extracao_tentativas`)
 * and shown by the review queue. The charge itself (schema and type) lives in `charge-schema.ts`.
 */
export {
  CAMPOS_EM_FALTANDO,
  CAMPOS_FALTANTES,
  METODOS,
  type CampoEmFaltando,
  type CampoFaltante,
  type DadosCobranca,
  type Metodo,
} from './charge-schema';

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

/** The amount the model extracted is not one the text writes (`amounts.ts`). */
export interface AlertaValor {
  codigo: 'valor_divergente';
  mensagem: string;
  /** Amounts (centavos) found in the merchant's text. */
  valores_no_texto: number[];
}

/** The due date the model extracted is not the one the text names (`due-dates.ts`). */
export interface AlertaVencimento {
  codigo: 'vencimento_divergente';
  mensagem: string;
  /** The text's phrase, as written ("dia 20", "sexta-feira"). */
  frase: string;
  /** The date it names (YYYY-MM-DD), resolved in the business zone from the arrival. */
  data_no_texto: string;
  /** Last date it accepts: = data_no_texto, or a range's end ("semana que vem"). */
  data_no_texto_ate: string;
}

export type Alerta = AlertaValor | AlertaVencimento;

export const FILA_ESTADOS = ['aberta', 'resolvida', 'descartada', 'concluida'] as const;
export type FilaEstado = (typeof FILA_ESTADOS)[number];

/**
 * What the queue shows and counts for an item (badge, tabs, counters) — derived in ONE place,
 * the generated column `extracoes.situacao` (migration 0800); these are its values, in the
 * order the tabs show them.
 */
export const SITUACOES = [
  'falhou',
  'incompleto',
  'com_alerta',
  'completo',
  'aguardando_lojista',
] as const;
export type Situacao = (typeof SITUACOES)[number];
export const SITUACAO_LABELS: Record<Situacao, string> = {
  falhou: 'Falhou',
  incompleto: 'Incompleto',
  com_alerta: 'Com alerta',
  completo: 'Completo',
  aguardando_lojista: 'Aguardando lojista',
};
