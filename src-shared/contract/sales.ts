import { z } from '../zod';
import type { ConsultaVendas, LinhaVenda } from '../sales-dsl';
import { ConsultarVendasInput } from '../sales-dsl';
import { MSG_INVALID_CHARS, validText } from '../text';
import type { Frescor } from '../freshness';
import { defineChannel } from './define';

export interface MerchantSummary {
  id: number;
  nome: string;
}

/** What the sales panel of one window knows (held by the main process, keyed by session). */
export interface SalesSessionView {
  /** The tenant of every query of this window; null until one is chosen. */
  merchant: MerchantSummary | null;
  /** This window's questions, oldest first. */
  history: string[];
  /** Without a key the panel works as a query builder (chips only). */
  apiKeyConfigured: boolean;
  freeSqlEnabled: boolean;
  /** Today's local date in the configured zone (period presets are resolved against it). */
  hoje: string;
  timeZone: string;
}

/** A DSL answer as the panel shows it. */
export interface SalesAnswer {
  tipo: 'resposta';
  /** `pergunta`: the model filled the DSL; `consulta`: edited chips / query builder. */
  origem: 'pergunta' | 'consulta';
  pergunta: string | null;
  merchant: MerchantSummary;
  /** The validated query with its resolved dates: the chips' state. */
  consulta: ConsultaVendas;
  linhas: LinhaVenda[];
  /** Whole-period value for a grouped result (the totals row); null without grouping. */
  total: number | null;
  interpretacao: string;
  resposta: string;
  duracaoMs: number;
  /** How fresh the data is when the analytics endpoint is a hot standby (#16); absent on the primary. */
  frescor?: Frescor;
}

/** The model asked something back: nothing ran. The question text is kept for rephrasing. */
export interface SalesClarification {
  tipo: 'esclarecimento';
  pergunta: string;
  esclarecimento: string;
  merchant: MerchantSummary;
}

/** A free-SQL fallback answer: the SQL is shown and the result is labelled to double-check. */
export interface SalesFreeAnswer {
  tipo: 'livre';
  pergunta: string;
  merchant: MerchantSummary;
  sql: string;
  /** Column names exactly as the query named them (they may repeat, `__proto__` included). */
  colunas: string[];
  /** One array per row, in `colunas` order; exact strings for numbers a double cannot hold. */
  linhas: (string | number | boolean | null)[][];
  /** Code-written summary of the rows. */
  resposta: string;
  /** True when the row limit cut the result. */
  truncado: boolean;
  duracaoMs: number;
  /** How fresh the data is when the analytics endpoint is a hot standby (#16); absent on the primary. */
  frescor?: Frescor;
}

export type SalesAskResult = SalesAnswer | SalesClarification | SalesFreeAnswer;

/** A renderer-chosen id for a cancellable request (progress events carry it). */
const RequestId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,64}$/, { message: 'Identificador de requisição inválido.' });

export const SalesAskInput = z
  .object({
    pergunta: z
      .string()
      .trim()
      .min(3, 'Escreva a pergunta sobre as vendas.')
      .max(1000, 'A pergunta é longa demais (máximo de 1000 caracteres).')
      .refine(validText, MSG_INVALID_CHARS),
    requestId: RequestId,
  })
  .strict();

export const SalesRunInput = z
  .object({
    /** The DSL edited by the chips; validated by the same rules the model's input goes through. */
    consulta: ConsultarVendasInput.omit({ pergunta_esclarecimento: true }),
    requestId: RequestId.optional(),
  })
  .strict();

export const salesContract = {
  /** Merchant picker: search by name or id. */
  'sales/merchants': defineChannel<MerchantSummary[]>()(
    z
      .object({
        query: z.string().trim().max(100).default(''),
        limit: z.number().int().min(1).max(100).default(20),
      })
      .strict(),
  ),
  /** This window's panel state (merchant, history, key configured, today). */
  'sales/session': defineChannel<SalesSessionView>()(z.object({}).strict()),
  /** Chooses the tenant of this window's queries (checked to exist). */
  'sales/selectMerchant': defineChannel<SalesSessionView>()(
    z.object({ merchantId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER) }).strict(),
  ),
  /** A question in Portuguese → the model fills the DSL → our code answers. Pushes progress. */
  'sales/ask': defineChannel<SalesAskResult>()(SalesAskInput),
  /** Cancels one of this window's requests. */
  'sales/cancel': defineChannel<{ cancelado: boolean }>()(
    z.object({ requestId: RequestId }).strict(),
  ),
  /** Runs an edited DSL without the model (chips, query builder). */
  'sales/run': defineChannel<SalesAnswer>()(SalesRunInput),
} as const;

/** Progress of a model-backed request, pushed main → renderer. */
export interface ProgressEvent {
  requestId: string;
  etapa: string;
  tentativa?: number;
  maxTentativas?: number;
}
