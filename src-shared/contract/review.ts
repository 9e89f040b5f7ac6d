/**
 * The review queue's channels (`review/*`): the leases and item actions defined here, the queue's
 * items (`review-items.ts`), the charges list (`review-charges.ts`) and the failure report
 * (`review-report.ts`), whose names this module re-exports for importers of the review contract.
 */
import { z } from '../zod';
import { CAMPOS_EM_FALTANDO, type RuleError } from '../extraction-types';
import { MSG_INVALID_CHARS, validText } from '../text';
import { defineChannel } from './define';
import { ChargesListInput, type Charge, type ChargesPage } from './review-charges';
import {
  DadosCobrancaInput,
  DISCARD_REASONS,
  QUEUE_VIEWS,
  type DiscardReason,
  ReviewListInput,
  type ExtractionDetail,
  type FilterOptions,
  type QueuePage,
} from './review-items';
import { FailureReportInput, type FailureReport } from './review-report';
import { TeamPanelInput, type TeamPanel } from './review-panel';

export * from './review-charges';
export * from './review-items';
export * from './review-report';

// ---------------------------------------------------------------------------------------------
// Leases and actions

const Id = z.number().int().positive();
const Token = z.uuid('Reserva inválida. Abra o item de novo.');
const Held = z.object({ id: Id, token: Token }).strict();

export type ClaimResult =
  | { claimed: true; token: string; expiraEm: string; ttlMs: number }
  | { claimed: false; emAnalisePor: string | null; mensagem: string };

/** "Próximo pedido": the item the server claimed for the caller, or why there is none. */
export type ClaimNextResult =
  | { claimed: true; id: number; token: string; expiraEm: string; ttlMs: number }
  | { claimed: false; mensagem: string };

/** Why an item is discarded: a reason from the list, free text (the single and bulk discard). */
export const DiscardWhy = {
  motivo: z.enum(DISCARD_REASONS, 'Escolha um motivo da lista.'),
  detalhe: z
    .string()
    .trim()
    .max(500, 'Use até 500 caracteres.')
    .refine(validText, MSG_INVALID_CHARS)
    .optional(),
};
/** "Outro motivo" needs its description. */
export const discardDetailOk = (v: { motivo: DiscardReason; detalhe?: string | undefined }) =>
  v.motivo !== 'outro' || (v.detalhe?.length ?? 0) >= 3;
export const DISCARD_DETAIL_MSG = {
  message: 'Descreva o motivo quando escolher "Outro motivo".',
  path: ['detalhe'],
};

export const DiscardInput = Held.extend(DiscardWhy)
  .strict()
  .refine(discardDetailOk, DISCARD_DETAIL_MSG);

/** Why a supervisor reopens an item (recorded in the audit with who; the single and bulk reopen). */
export const ReopenMotivo = z
  .string()
  .trim()
  .min(3, 'Diga por que o pedido volta à fila.')
  .max(500, 'Use até 500 caracteres.')
  .refine(validText, MSG_INVALID_CHARS);

export interface ValidationResult {
  ok: boolean;
  /** pt-BR messages per field ('' = about the whole charge). */
  fields: Record<string, string[]>;
  erros: RuleError[];
}

export interface ConfirmResult {
  cobranca: Charge;
  /** false when the charge already existed (double click, retry, another agent). */
  criada: boolean;
}

export type RerunResult =
  | { executado: true; detalhe: ExtractionDetail }
  | { executado: false; mensagem: string; detalhe: ExtractionDetail };

/**
 * The caller's lease after an item action: still `held` (until `expiraEm`) while the item stays
 * open under the caller's token; not held once the action ended it (charge created, discarded)
 * or when the action needs none (reopen). The screen takes it from the action's answer instead
 * of asking again or releasing a lease that is already gone.
 */
export interface ItemLease {
  held: boolean;
  expiraEm: string | null;
}

/** An item action's answer: the item as it now is, with the caller's lease. */
export type ItemAfterAction = ExtractionDetail & { lease: ItemLease };

// ---------------------------------------------------------------------------------------------

export const reviewContract = {
  'review/list': defineChannel<QueuePage>()(ReviewListInput),
  'review/filterOptions': defineChannel<FilterOptions>()(
    z.object({ view: z.enum(QUEUE_VIEWS).default('aberta') }).strict(),
  ),
  'review/get': defineChannel<ExtractionDetail>()(z.object({ id: Id }).strict()),
  'review/claim': defineChannel<ClaimResult>()(z.object({ id: Id }).strict()),
  /** Claims the first free item in deadline order (the caller's assigned ones first). */
  'review/claimNext': defineChannel<ClaimNextResult>()(
    z.object({ exceto: Id.optional() }).strict(),
  ),
  'review/renew': defineChannel<{ expiraEm: string }>()(Held),
  'review/release': defineChannel<{ liberado: boolean }>()(Held),
  'review/validate': defineChannel<ValidationResult>()(
    z.object({ dados: DadosCobrancaInput }).strict(),
  ),
  'review/save': defineChannel<ItemAfterAction>()(
    Held.extend({ dados: DadosCobrancaInput }).strict(),
  ),
  'review/confirm': defineChannel<ConfirmResult & { item: ExtractionDetail; lease: ItemLease }>()(
    Held.extend({
      dados: DadosCobrancaInput,
      /**
       * The due date the agent confirmed explicitly (AAAA-MM-DD): required when the item's text
       * names another date than `dados.vencimento` (alert `vencimento_divergente`, #42.1).
       */
      vencimentoConfirmado: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/, 'Data inválida: use AAAA-MM-DD.')
        .optional(),
    }).strict(),
  ),
  'review/askMerchant': defineChannel<{ pergunta: string }>()(
    Held.extend({
      /** The fields missing in the agent's form now (default: the saved version's). */
      faltando: z.array(z.enum(CAMPOS_EM_FALTANDO)).max(CAMPOS_EM_FALTANDO.length).optional(),
    }).strict(),
  ),
  'review/recordAnswer': defineChannel<RerunResult & { lease: ItemLease }>()(
    Held.extend({
      resposta: z
        .string()
        .trim()
        .min(1, 'Escreva a resposta do lojista.')
        .max(2000, 'Use até 2000 caracteres.')
        .refine(validText, MSG_INVALID_CHARS),
    }).strict(),
  ),
  'review/reprocess': defineChannel<RerunResult & { lease: ItemLease }>()(Held),
  'review/discard': defineChannel<ItemAfterAction>()(DiscardInput),
  'review/charges': defineChannel<ChargesPage>()(ChargesListInput),
  'review/failureReport': defineChannel<FailureReport>()(FailureReportInput),
  /** Supervisors: the team panel (#39.3), the same figures as `balcao fila painel`. */
  'review/teamPanel': defineChannel<TeamPanel>()(TeamPanelInput),
  /** Supervisors: take over an item another person holds (audited with both names). */
  'review/takeOver': defineChannel<ClaimResult & { claimed: true }>()(
    z.object({ id: Id }).strict(),
  ),
  /** Supervisors: reopen a discarded item (undo of the discard). */
  'review/reopen': defineChannel<ItemAfterAction>()(
    z
      .object({
        id: Id,
        /** Why it is reopened (recorded in the audit with who). */
        motivo: ReopenMotivo.optional(),
      })
      .strict(),
  ),
} as const;
