/** The charges created from the queue, and their list (the Cobranças page). */
import { z } from '../zod';
import type { Metodo } from '../extraction-types';
import { IsoDate, refinePeriod } from '../periods';
import { ESTADOS_ENVIO, type EnvioResumo } from './pix';

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
    /** Where its dispatch to the PSP stands (#36.7). */
    estadoEnvio: z.enum(ESTADOS_ENVIO, 'Escolha um estado de envio da lista.').optional(),
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
  /** Its dispatch to the PSP; null for a charge created before dispatches existed. */
  envio: EnvioResumo | null;
}

export interface ChargesPage {
  items: ChargeListItem[];
  nextCursor: string | null;
}
