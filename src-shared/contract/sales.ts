import { z } from '../zod';
import { defineChannel } from './define';

export interface MerchantSummary {
  id: number;
  nome: string;
}

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
} as const;

/** Progress of a model-backed request, pushed main → renderer. */
export interface ProgressEvent {
  requestId: string;
  etapa: string;
  tentativa?: number;
  maxTentativas?: number;
}
