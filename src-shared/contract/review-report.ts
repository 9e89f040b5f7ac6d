/** The extraction failure report over a period (rules that fail most, attempts, cost). */
import { z } from '../zod';
import type { ExtractionStatus } from '../extraction-types';
import { IsoDate, refinePeriod } from '../periods';

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
