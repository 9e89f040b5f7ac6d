import { z } from '../zod';
import {
  EXTRACTION_STATUSES,
  type Alerta,
  type DadosCobranca,
  type ExtractionStatus,
  type FilaEstado,
  type RuleError,
} from '../extraction-types';
import { defineChannel } from './define';

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
  criadaEm: string;
  /** Agent holding the lease, if any and not expired. */
  emAnalisePor: string | null;
  alertas: Alerta[];
}

export interface QueuePage {
  items: QueueItem[];
  /** Opaque keyset cursor for the next page; null at the end. */
  nextCursor: string | null;
  counts: Record<ExtractionStatus, number>;
}

export const ReviewListInput = z
  .object({
    status: z.array(z.enum(EXTRACTION_STATUSES)).max(3).optional(),
    merchantId: z.number().int().positive().optional(),
    search: z.string().trim().max(200).optional(),
    cursor: z.string().max(200).nullable().optional(),
    limit: z.number().int().min(1).max(200).default(50),
  })
  .strict();

export interface ExtractionDetail extends QueueItem {
  dados: DadosCobranca | null;
  erros: RuleError[];
}

export const reviewContract = {
  'review/list': defineChannel<QueuePage>()(ReviewListInput),
  'review/get': defineChannel<ExtractionDetail>()(
    z.object({ id: z.number().int().positive() }).strict(),
  ),
} as const;
