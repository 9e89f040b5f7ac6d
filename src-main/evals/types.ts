/**
 * Model evals, generic over suites: each suite reads its JSONL cases, runs one case through the
 * product's own model path (same prompt, tool, validation loop) and compares the result with
 * the case's expectation field by field.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type pg from 'pg';
import type { Settings, SettingsSource } from '../settings/types';

import type { Comparacao } from '../extraction/compare';
import { isAppError } from '@shared/errors';
import { ToolLoopError } from '../llm';

/** Field-by-field comparison: defined with the extraction's comparer, used by every suite. */
export type { Comparacao, Diferenca } from '../extraction/compare';

/** Verdict of a free-SQL case: results compared by rows and values, or why they couldn't be. */
export type VereditoSql = 'igual' | 'diferente' | 'recusada' | 'erro';

export interface ExecucaoCaso {
  /** The tool input of every model attempt, in order (what `--record` stores). */
  entradas: unknown[];
  comparacao: Comparacao;
  /** Suites that compare results (sql): the case's verdict. */
  veredito?: VereditoSql;
  /** pt-BR message when the run failed before producing a result (API error, no tool call). */
  erro?: string;
}

export interface EvalRunContext {
  client: Anthropic;
  settings: SettingsSource;
  /** Settings snapshot (zone, model…). */
  config: Settings;
  /** Suites with `precisaBanco`: the analytics login on the suite's fixed data. */
  sqlDb?: { analytics: pg.Pool; merchantId: number };
}

export interface EvalSuite<C = unknown> {
  /** Name used by `--suite` and the recordings file. */
  nome: string;
  /** Cases file, relative to the project root. */
  arquivo: string;
  /** The tool the model fills (for replays). */
  ferramenta: string;
  /** Runs on a database with the suite's fixed data (created and dropped by the runner). */
  precisaBanco?: boolean;
  /** Validates one JSONL line (throws a zod error when malformed). */
  parse(raw: unknown): C;
  /** The case's text (question or merchant message): shown in reports, key of recordings. */
  texto(c: C): string;
  /** The case's reference date (YYYY-MM-DD): part of the recording key. */
  hoje(c: C): string;
  /** Runs the model path for one case and compares. Never throws for model/API failures. */
  executar(c: C, ctx: EvalRunContext): Promise<ExecucaoCaso>;
}

/** What the model sent, attempt by attempt (the recordings replay these). */
export const entradasDe = (attempts: readonly { input: unknown }[]): unknown[] =>
  attempts.map((a) => a.input);

/** A case whose model step threw: what it had sent before (a tool loop's attempts) and why. */
export function falhaDoCaso(e: unknown): { entradas: unknown[]; erro: string } {
  return {
    entradas: e instanceof ToolLoopError ? entradasDe(e.attempts) : [],
    erro: isAppError(e) ? e.message : 'erro inesperado',
  };
}

/** A sales case's question as the model steps take it (`interpretQuestion`, `writeFreeSql`). */
export function perguntaDoCaso(c: { pergunta: string; hoje: string }, ctx: EvalRunContext) {
  return { client: ctx.client, settings: ctx.config, pergunta: c.pergunta, hoje: c.hoje };
}
