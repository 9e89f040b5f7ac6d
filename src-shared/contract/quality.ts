/**
 * Quality sampling (#39.4): the supervisor's "Revisão de qualidade" (a sampled charge, the model's
 * fields beside the charged ones, each judged Certo/Errado) and the measured accuracy per field
 * and per (model, prompt version), with its Wilson 95% interval.
 */
import { z } from '../zod';
import type { CampoQualidade, OrigemAmostra } from '../quality';
import { CAMPOS_QUALIDADE } from '../quality';
import { defineChannel } from './define';

/** A charge's fields as the view compares them (the model's may be missing: null). */
export interface CamposCobranca {
  valor_centavos: number | null;
  parcelas: number | null;
  metodo: string | null;
  cliente_nome: string | null;
  vencimento: string | null;
  descricao: string | null;
}

export interface QualitySample {
  cobrancaId: number;
  extracaoId: number;
  merchantNome: string;
  /** The merchant's original message. */
  texto: string;
  modelo: string;
  versaoPrompt: string;
  origem: OrigemAmostra;
  motivo: 'inicial' | 'sorteio';
  sorteadaEm: string;
  /** What the model produced. */
  extraidos: CamposCobranca;
  /** What was charged. */
  finais: CamposCobranca;
  criadaPor: string;
  /** Samples still waiting for a judgement (this one included). */
  pendentes: number;
}

/** One accuracy figure: k right of n, the Wilson 95% interval and its pt-BR text. */
export interface AccuracyFigure {
  acertos: number;
  n: number;
  taxa: number | null;
  inferior: number | null;
  superior: number | null;
  /** "94,2% (IC 95%: 90,1–96,7%, n = 120)". */
  texto: string;
}

export interface QualityVersionReport {
  modelo: string;
  versaoPrompt: string;
  amostras: number;
  julgadas: number;
  campos: ({ campo: CampoQualidade } & AccuracyFigure)[];
  /** Every field of every judged sample together. */
  todosCampos: AccuracyFigure;
  /** Judged charges with every field right. */
  cobrancasCorretas: AccuracyFigure;
  /** Automatic charges judged with at least one field wrong (an error rate). */
  errosAutomaticas: AccuracyFigure;
}

export interface QualityReport {
  percentual: number;
  inicial: number;
  pendentes: number;
  versoes: QualityVersionReport[];
}

export const QualityNextInput = z
  .object({
    /** Skip samples up to this charge (the "Pular" button); absent: the oldest pending. */
    depoisDe: z.number().int().positive().optional(),
  })
  .strict();

export const QualityJudgeInput = z
  .object({
    cobrancaId: z.number().int().positive(),
    campos: z
      .object(
        Object.fromEntries(CAMPOS_QUALIDADE.map((c) => [c, z.boolean()])) as Record<
          CampoQualidade,
          z.ZodBoolean
        >,
      )
      .strict(),
  })
  .strict();
export type QualityJudgeInput = z.infer<typeof QualityJudgeInput>;

/**
 * A wrong automatic charge (#39.4, last sentence): the supervisor's judgement (some field wrong),
 * the charge cancelled at the PSP (the charges' own cancel, #36.7) and its item back in the queue
 * for a person to redo — each step audited.
 */
export const QualityCancelInput = QualityJudgeInput.refine(
  (v) => CAMPOS_QUALIDADE.some((c) => !v.campos[c]),
  'Marque o campo errado: só uma cobrança errada é cancelada daqui.',
);

export interface QualityCancelResult {
  cobrancaId: number;
  /** The item back in the queue. */
  extracaoId: number;
  /** Who judged the sample (this call, or before it). */
  julgadaPor: string;
}

export const qualityContract = {
  'quality/next': defineChannel<QualitySample | null>()(QualityNextInput),
  'quality/judge': defineChannel<{ julgadaPor: string; julgadaEm: string }>()(QualityJudgeInput),
  'quality/report': defineChannel<QualityReport>()(z.object({}).strict()),
  'quality/cancelCharge': defineChannel<QualityCancelResult>()(QualityCancelInput),
} as const;
