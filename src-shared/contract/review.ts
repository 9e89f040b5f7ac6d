import { cobrancaSchema } from '../charge-schema';
import { z } from '../zod';
import {
  EXTRACTION_STATUSES,
  type Alerta,
  type DadosCobranca,
  type ExtractionStatus,
  type FilaEstado,
  type Metodo,
  type RuleError,
  type Uso,
} from '../extraction-types';
import { IsoDate, refinePeriod } from '../periods';
import { MSG_INVALID_CHARS, validText } from '../text';
import { defineChannel } from './define';

// ---------------------------------------------------------------------------------------------
// Queue list

/** Server-side sorts, each with its own keyset. */
export const QUEUE_SORTS = ['recentes', 'antigas', 'tentativas'] as const;
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
}

export interface QueuePage {
  items: QueueItem[];
  /** Opaque keyset cursor for the next page; null at the end. */
  nextCursor: string | null;
  /**
   * Items per status under the current filters (except the status filter itself). Only with
   * the first page (no cursor); null on the following pages.
   */
  counts: Record<ExtractionStatus, number> | null;
}

export const ReviewListInput = z
  .object({
    view: z.enum(QUEUE_VIEWS).default('aberta'),
    status: z.array(z.enum(EXTRACTION_STATUSES)).max(3).optional(),
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
export const DadosCobrancaInput = cobrancaSchema;

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

export interface Charge {
  id: number;
  extracaoId: number;
  merchantId: number;
  merchantNome: string;
  valorCentavos: number;
  parcelas: number;
  metodo: Metodo;
  clienteNome: string;
  vencimento: string;
  descricao: string | null;
  /** Fields the agent changed from the model's version. */
  alteracoes: Record<string, { modelo: unknown; agente: unknown }>;
  criadaPor: string;
  criadaEm: string;
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
// Leases and actions

const Id = z.number().int().positive();
const Token = z.uuid('Reserva inválida. Abra o item de novo.');
const Held = z.object({ id: Id, token: Token }).strict();

export type ClaimResult =
  | { claimed: true; token: string; expiraEm: string; ttlMs: number }
  | { claimed: false; emAnalisePor: string | null; mensagem: string };

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

export const DiscardInput = Held.extend({
  motivo: z.enum(DISCARD_REASONS, 'Escolha um motivo da lista.'),
  detalhe: z
    .string()
    .trim()
    .max(500, 'Use até 500 caracteres.')
    .refine(validText, MSG_INVALID_CHARS)
    .optional(),
})
  .strict()
  .refine((v) => v.motivo !== 'outro' || (v.detalhe?.length ?? 0) >= 3, {
    message: 'Descreva o motivo quando escolher "Outro motivo".',
    path: ['detalhe'],
  });

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

// ---------------------------------------------------------------------------------------------
// Charges list and report

/** Where a created charge stands against today (its due date), for the charges list. */
export const CHARGE_SITUACOES = ['a_vencer', 'vence_hoje', 'vencida'] as const;
export type ChargeSituacao = (typeof CHARGE_SITUACOES)[number];
export const CHARGE_SITUACAO_LABELS: Record<ChargeSituacao, string> = {
  a_vencer: 'A vencer',
  vence_hoje: 'Vence hoje',
  vencida: 'Vencida',
};

export const ChargesListInput = z
  .object({
    merchantId: z.number().int().positive().optional(),
    /** Client, description, merchant or agent (literal text, case-insensitive). */
    search: z.string().trim().max(200).optional(),
    /** Charge number. */
    numero: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
    situacao: z.enum(CHARGE_SITUACOES).optional(),
    /** Created in these local days (inclusive), both or neither. */
    de: IsoDate.optional(),
    ate: IsoDate.optional(),
    cursor: z.string().max(400).nullable().optional(),
    limit: z.number().int().min(1).max(200).default(50),
  })
  .strict()
  .superRefine((v, ctx) => {
    if ((v.de === undefined) !== (v.ate === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'Informe as duas datas do período.', path: ['ate'] });
    } else if (v.de !== undefined && v.ate !== undefined) {
      refinePeriod()({ de: v.de, ate: v.ate }, ctx);
    }
  });

export interface ChargeListItem extends Charge {
  situacao: ChargeSituacao;
}

export interface ChargesPage {
  items: ChargeListItem[];
  nextCursor: string | null;
}

export const FailureReportInput = z
  .object({ de: IsoDate, ate: IsoDate, merchantId: z.number().int().positive().optional() })
  .strict()
  .superRefine(refinePeriod());

export interface FailureReport {
  de: string;
  ate: string;
  timeZone: string;
  total: number;
  porStatus: Record<ExtractionStatus, number>;
  /** Rules that failed most over every attempt, with example texts. */
  regras: {
    regra: string;
    campo: string;
    mensagem: string;
    falhas: number;
    extracoes: number;
    exemplos: { extracaoId: number; texto: string }[];
  }[];
  /** How many extractions needed 1, 2, 3… attempts. */
  tentativas: { tentativas: number; extracoes: number }[];
  mediaTentativas: number;
  porDia: {
    dia: string;
    extracoes: number;
    falhou: number;
    incompleto: number;
    inputTokens: number;
    outputTokens: number;
    cacheReadTokens: number;
    cacheWriteTokens: number;
    custoUsd: number;
  }[];
  custoTotalUsd: number;
  comAlerta: number;
  /** comAlerta / total (0 when there are none). */
  fracaoAlertas: number;
  /** Validation-failure rate: porStatus.falhou / total (0 when there are none). */
  taxaFalhasValidacao: number;
  /** Alert threshold of that rate, a fraction (setting BALCAO_ALERTA_FALHAS_VALIDACAO, %). */
  limiteFalhasValidacao: number;
}

// ---------------------------------------------------------------------------------------------

export const reviewContract = {
  'review/list': defineChannel<QueuePage>()(ReviewListInput),
  'review/filterOptions': defineChannel<FilterOptions>()(
    z.object({ view: z.enum(QUEUE_VIEWS).default('aberta') }).strict(),
  ),
  'review/get': defineChannel<ExtractionDetail>()(z.object({ id: Id }).strict()),
  'review/claim': defineChannel<ClaimResult>()(z.object({ id: Id }).strict()),
  'review/renew': defineChannel<{ expiraEm: string }>()(Held),
  'review/release': defineChannel<{ liberado: boolean }>()(Held),
  'review/validate': defineChannel<ValidationResult>()(
    z.object({ dados: DadosCobrancaInput }).strict(),
  ),
  'review/save': defineChannel<ExtractionDetail>()(
    Held.extend({ dados: DadosCobrancaInput }).strict(),
  ),
  'review/confirm': defineChannel<ConfirmResult>()(
    Held.extend({ dados: DadosCobrancaInput }).strict(),
  ),
  'review/askMerchant': defineChannel<{ pergunta: string }>()(Held),
  'review/recordAnswer': defineChannel<RerunResult>()(
    Held.extend({
      resposta: z
        .string()
        .trim()
        .min(1, 'Escreva a resposta do lojista.')
        .max(2000, 'Use até 2000 caracteres.')
        .refine(validText, MSG_INVALID_CHARS),
    }).strict(),
  ),
  'review/reprocess': defineChannel<RerunResult>()(Held),
  'review/discard': defineChannel<ExtractionDetail>()(DiscardInput),
  'review/charges': defineChannel<ChargesPage>()(ChargesListInput),
  'review/failureReport': defineChannel<FailureReport>()(FailureReportInput),
  /** Supervisors: take over an item another person holds (audited with both names). */
  'review/takeOver': defineChannel<ClaimResult & { claimed: true }>()(
    z.object({ id: Id }).strict(),
  ),
  /** Supervisors: reopen a discarded item (undo of the discard). */
  'review/reopen': defineChannel<ExtractionDetail>()(z.object({ id: Id }).strict()),
} as const;
