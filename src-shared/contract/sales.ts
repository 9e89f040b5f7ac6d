import { z } from '../zod';
import type { EsclarecimentoVendas, RespostaLivreVendas, RespostaVendas } from '../sales-dsl';
import { ConsultarVendasInput } from '../sales-dsl';
import { MSG_INVALID_CHARS, validText } from '../text';
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

/** Longest question accepted (characters): the IPC input, the model step and the question box. */
export const MAX_PERGUNTA = 1000;
export const MSG_PERGUNTA_LONGA = `A pergunta é longa demais (máximo de ${MAX_PERGUNTA} caracteres).`;

/**
 * The panel's answers are the sales results (`ResultadoVendas`) plus the window's context:
 * the question asked (also this window's new history entry) and the merchant it ran for.
 */
interface PanelContext {
  merchant: MerchantSummary;
}

/** A DSL answer as the panel shows it. */
export interface SalesAnswer extends RespostaVendas, PanelContext {
  /** `pergunta`: the model filled the DSL; `consulta`: edited chips / query builder. */
  origem: 'pergunta' | 'consulta';
  pergunta: string | null;
  duracaoMs: number;
}

/** The model asked something back: nothing ran. The question text is kept for rephrasing. */
export interface SalesClarification extends EsclarecimentoVendas, PanelContext {
  pergunta: string;
}

/** A free-SQL fallback answer: the SQL is shown and the result is labelled to double-check. */
export interface SalesFreeAnswer extends RespostaLivreVendas, PanelContext {
  pergunta: string;
  duracaoMs: number;
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
      .max(MAX_PERGUNTA, MSG_PERGUNTA_LONGA)
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
