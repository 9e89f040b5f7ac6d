/**
 * The review queue's items as the screens show them: the queue list (its filters, sorts and
 * pages) and one item in full (attempts, audit, the charge it became, why it was discarded).
 */
import { cobrancaSchema, fieldProblem } from '../charge-schema';
import { isValidDocumento } from '../documento';
import { isMaskedDocumento } from '../lgpd';
import { z } from '../zod';
import type { ItemDeadline } from '../deadline';
import {
  EXTRACTION_STATUSES,
  type Alerta,
  type DadosCobranca,
  type ExtractionStatus,
  type FilaEstado,
  type RuleError,
  type Situacao,
  type Uso,
  SITUACOES,
} from '../extraction-types';
import type { Charge } from './review-charges';

// ---------------------------------------------------------------------------------------------
// Queue list

/** Server-side sorts, each with its own keyset. */
export const QUEUE_SORTS = ['prazo', 'recentes', 'antigas', 'tentativas'] as const;
export type QueueSort = (typeof QUEUE_SORTS)[number];

/** Which part of the queue to list: open work, or what left it. */
export const QUEUE_VIEWS = ['aberta', 'resolvida', 'descartada'] as const;
export type QueueView = (typeof QUEUE_VIEWS)[number];

/** One row of the review queue list. */
export interface QueueItem {
  id: number;
  merchantId: number;
  merchantNome: string;
  texto: string;
  status: ExtractionStatus;
  /** What the queue shows and counts (the one definition: `extracoes.situacao`, 0800). */
  situacao: Situacao;
  /** Since when the question waits for the merchant (null when it does not). */
  aguardandoDesde: string | null;
  filaEstado: FilaEstado;
  tentativas: number;
  /** First failing rule, or the missing fields, or the alert. */
  motivo: string;
  /** Code of the main reason (rule id, 'faltando', 'valor_divergente'), for filters. */
  motivoCodigo: string | null;
  criadaEm: string;
  /** Agent holding the lease, if any and not expired. */
  emAnalisePor: string | null;
  alertas: Alerta[];
  /** Who resolved or discarded it, and when (the Resolvidos/Descartados views). */
  resolvidaPor: string | null;
  resolvidaEm: string | null;
  /** The charge created from it (Resolvidos). */
  cobrancaId: number | null;
  /** Why it was discarded (Descartados). */
  descarteMotivo: DiscardReason | null;
  descarteDetalhe: string | null;
  /** The person (login) a supervisor assigned the item to (#39.5), if any. */
  atribuidaA?: string | null;
  /** Open items: when its deadline started and ends (#39.2; minutes per situation are settings). */
  prazo?: ItemDeadline | null;
}

export interface QueuePage {
  items: QueueItem[];
  /** Opaque keyset cursor for the next page; null at the end. */
  nextCursor: string | null;
  /**
   * Items per situation under the current filters (except the status/situation filters). Only
   * with the first page (no cursor); null on the following pages.
   */
  counts: Record<Situacao, number> | null;
}

export const ReviewListInput = z
  .object({
    view: z.enum(QUEUE_VIEWS).default('aberta'),
    status: z.array(z.enum(EXTRACTION_STATUSES)).max(3).optional(),
    /** The situation the queue shows (tabs). */
    situacao: z.array(z.enum(SITUACOES)).max(SITUACOES.length).optional(),
    merchantId: z.number().int().positive().optional(),
    /** Reason code (rule id, 'faltando', 'valor_divergente'). */
    motivo: z.string().trim().min(1).max(60).optional(),
    /** Only items at least this old (hours). */
    idadeMinHoras: z
      .number()
      .min(0)
      .max(24 * 365)
      .optional(),
    /** Only items younger than this (hours). */
    idadeMaxHoras: z
      .number()
      .positive()
      .max(24 * 365)
      .optional(),
    search: z.string().trim().max(200).optional(),
    sort: z.enum(QUEUE_SORTS).default('recentes'),
    cursor: z.string().max(400).nullable().optional(),
    limit: z.number().int().min(1).max(200).default(50),
  })
  .strict();
export type ReviewListInput = z.output<typeof ReviewListInput>;

export interface FilterOptions {
  merchants: { id: number; nome: string; abertas: number }[];
  motivos: { codigo: string; rotulo: string; abertas: number }[];
}

// ---------------------------------------------------------------------------------------------
// The item

/**
 * The seven fields as the form sends them: the charge's one schema (`charge-schema.ts`), with the
 * bounds the model's tool and the agent's form have. Rules on top (today, Pix/boleto, faltando)
 * run in the service; `faltando` is derived there (`normalizeDados`).
 */
const documentoMsg = {
  error: (iss: { input?: unknown }) => fieldProblem('cliente_documento', iss.input).mensagem,
  abort: true,
};
export const DadosCobrancaInput = cobrancaSchema.extend({
  // Screens get the document masked (#38.2): the mask comes back meaning "the stored one".
  cliente_documento: z
    .string(documentoMsg)
    .max(40, documentoMsg)
    .refine((v) => isValidDocumento(v) || isMaskedDocumento(v), documentoMsg)
    .nullable()
    .optional(),
});

export interface AttemptView {
  numero: number;
  /** 1 for the first run; 2, 3… for re-runs after an answer or a reprocess. */
  rodada: number;
  /** What the model sent (the tool input), null when the reply had no tool call. */
  entrada: DadosCobranca | null;
  erros: RuleError[];
  uso: Uso;
  custoUsd: number;
  stopReason: string | null;
  duracaoMs: number | null;
  criadaEm: string;
  /** Fields that differ from the previous attempt's tool input. */
  mudancas: { campo: string; antes: unknown; depois: unknown }[];
}

export interface AuditEntry {
  id: number;
  ocorridoEm: string;
  operador: string;
  acao: string;
  antes: unknown;
  depois: unknown;
  detalhes: Record<string, unknown>;
}

export interface ExtractionDetail extends QueueItem {
  /** The model's final version. */
  dados: DadosCobranca | null;
  /** The agent's saved draft, if any. */
  dadosRevisados: DadosCobranca | null;
  erros: RuleError[];
  modelo: string | null;
  uso: Uso | null;
  custoUsd: number | null;
  /** Reference date the engine used ("today" for its rules). */
  hoje: string | null;
  tentativasDetalhe: AttemptView[];
  /** Rounds after the first: the merchant's answer that started each (null = reprocess). */
  respostas: { rodada: number; resposta: string | null }[];
  eventos: AuditEntry[];
  /** Question for the merchant, from `faltando` (null when nothing is missing). */
  pergunta: string | null;
  leaseExpiraEm: string | null;
  cobranca: Charge | null;
  descarte: { motivo: DiscardReason; detalhe: string | null; por: string | null } | null;
}

// ---------------------------------------------------------------------------------------------
// Discarded items

export const DISCARD_REASONS = [
  'duplicada',
  'teste',
  'sem_resposta',
  'fora_do_escopo',
  'cancelada_pelo_lojista',
  'outro',
] as const;
export type DiscardReason = (typeof DISCARD_REASONS)[number];
export const DISCARD_REASON_LABELS: Record<DiscardReason, string> = {
  duplicada: 'Pedido duplicado',
  teste: 'Mensagem de teste',
  sem_resposta: 'Lojista não respondeu',
  fora_do_escopo: 'Não é um pedido de cobrança',
  cancelada_pelo_lojista: 'Cancelado pelo lojista',
  outro: 'Outro motivo',
};
