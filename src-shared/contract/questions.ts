/**
 * The "Perguntas" report: what the sales-question log says about the DSL and the prompt —
 * outcomes over a period, the questions that went unanswered, the chips people change after an
 * answer — and the path from a logged question to an eval case.
 */
import { z } from '../zod';
import { IsoDate, MAX_PERIOD_DAYS, refinePeriod } from '../periods';
import { defineChannel } from './define';

/** How a sales question ended (view `perguntas_registradas`). */
export const DESFECHOS = [
  'dsl',
  'esclarecimento',
  'nao_expressavel',
  'sql_livre',
  'sql_recusado',
  'erro_modelo',
  'erro',
] as const;
export type Desfecho = (typeof DESFECHOS)[number];

/** Each outcome: its label for people, and whether the person got an answer. */
const DESFECHO: Record<Desfecho, { label: string; respondida: boolean }> = {
  dsl: { label: 'Respondida pela consulta pronta', respondida: true },
  esclarecimento: { label: 'Pediu esclarecimento', respondida: false },
  nao_expressavel: { label: 'Fora da consulta pronta (SQL livre desligado)', respondida: false },
  sql_livre: { label: 'Respondida por SQL livre', respondida: true },
  sql_recusado: { label: 'SQL livre recusado', respondida: false },
  erro_modelo: { label: 'Erro do modelo', respondida: false },
  erro: { label: 'Falha ao consultar', respondida: false },
};

/** An outcome as people read it ("Pediu esclarecimento"). */
export function desfechoLabel(d: Desfecho): string {
  return DESFECHO[d].label;
}

/** Outcomes that gave the person an answer. */
export const DESFECHOS_RESPONDIDOS: readonly Desfecho[] = DESFECHOS.filter(
  (d) => DESFECHO[d].respondida,
);

/** The chips of an answer, as the report compares them. */
export const CAMPOS_CHIP = ['periodo', 'metrica', 'modalidades', 'agrupar_por', 'ordem'] as const;
export type CampoChip = (typeof CAMPOS_CHIP)[number];

export const CAMPO_CHIP_LABELS: Record<CampoChip, string> = {
  periodo: 'Período',
  metrica: 'Métrica',
  modalidades: 'Modalidades',
  agrupar_por: 'Agrupamento',
  ordem: 'Ordem e limite',
};

export const QuestionsReportInput = z
  .object({ de: IsoDate, ate: IsoDate })
  .strict()
  .superRefine(refinePeriod(MAX_PERIOD_DAYS));

export interface DesfechoContagem {
  desfecho: Desfecho;
  quantidade: number;
  /** quantidade / total (0 when there are none). */
  fracao: number;
  /** The same fraction over the previous period of the same length (null: no questions then). */
  fracaoAnterior: number | null;
}

export interface PerguntaRegistrada {
  id: number;
  pergunta: string;
  merchantId: number;
  /** The merchant's name, as everywhere a merchant is named. */
  merchantNome: string;
  desfecho: Desfecho;
  /** ISO instant. */
  criadaEm: string;
  /** Local day it was asked (the eval case's reference date). */
  dia: string;
}

export interface GrupoNaoRespondido {
  /** The normalised text (accents, case and punctuation folded). */
  chave: string;
  quantidade: number;
  lojistas: number;
  ultimaVez: string;
  /** The most frequent outcome of the group. */
  desfecho: Desfecho;
  /** Up to three distinct wordings, most recent first. */
  exemplos: PerguntaRegistrada[];
}

export interface EdicaoChip {
  campo: CampoChip;
  /** Edits after an answer that changed this chip. */
  quantidade: number;
  /** The most frequent changes, described in pt-BR. */
  mudancas: { antes: string; depois: string; quantidade: number }[];
}

export interface QuestionsReport {
  de: string;
  ate: string;
  timeZone: string;
  /** Questions asked in text (chip edits are not questions). */
  total: number;
  totalAnterior: number;
  desfechos: DesfechoContagem[];
  /** Answered / total. */
  fracaoRespondidas: number;
  porDia: { dia: string; total: number; respondidas: number }[];
  naoRespondidas: GrupoNaoRespondido[];
  /** Chip edits after an answer, by chip, most edited first. */
  edicoes: EdicaoChip[];
  totalEdicoes: number;
  /** Free-SQL attempts by the model (consultas_livres). */
  sqlLivre: { aceitas: number; recusadas: number; falharam: number };
  /** The latest questions of the period (for "virar caso de avaliação"). */
  recentes: PerguntaRegistrada[];
}

export const EvalCaseInput = z
  .object({
    /** The logged question (consultas_vendas.id). */
    id: z.number().int().positive(),
    /** The DSL the question should produce, as the model would fill it. */
    esperado: z.record(z.string(), z.unknown()),
    nota: z.string().trim().max(300).optional(),
  })
  .strict();

export interface EvalCaseDraft {
  id: number;
  pergunta: string;
  /** Reference date: the local day the question was asked. */
  hoje: string;
  /** What the model filled when it was asked (a starting point to confirm or correct). */
  sugerido: Record<string, unknown>;
  /** Where the case will be appended (null: not configured here). */
  arquivo: string | null;
}

export interface EvalCaseResult {
  arquivo: string;
  linha: number;
  /** The JSONL line written. */
  caso: { pergunta: string; hoje: string; esperado: Record<string, unknown>; nota?: string };
}

export const questionsContract = {
  'sales/questionsReport': defineChannel<QuestionsReport>()(QuestionsReportInput),
  'sales/evalCaseDraft': defineChannel<EvalCaseDraft>()(
    z.object({ id: z.number().int().positive() }).strict(),
  ),
  'sales/addEvalCase': defineChannel<EvalCaseResult>()(EvalCaseInput),
} as const;
