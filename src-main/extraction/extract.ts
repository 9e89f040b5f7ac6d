/**
 * Charge extraction: merchant text → Claude (forced `registrar_cobranca`) → our rules,
 * with the validation-feedback loop → completo / incompleto / falhou, amount sanity alert,
 * usage and cost → persisted to `extracoes` + `extracao_tentativas` (one transaction) BEFORE
 * the result is returned.
 *
 *   extractCharge(deps, { texto, merchantId })          → new extraction
 *   followUpExtraction(deps, { extracaoId, resposta })   → re-run of an `incompleto` one on its
 *                                                          original text + the merchant's answers,
 *                                                          same row, history kept
 */
import { strictToolsFor } from '../llm/strict';
import type Anthropic from '@anthropic-ai/sdk';
import { amountAlert } from '@shared/amounts';
import { dueDateAlert } from '@shared/due-dates';
import {
  chargeTool,
  ruleErrorText,
  validateCharge,
  projectDados,
  withFaltaDocumento,
} from '@shared/charge';
import { AppError } from '@shared/errors';
import type {
  Alerta,
  DadosCobranca,
  ExtractionStatus,
  FilaEstado,
  RuleError,
} from '@shared/extraction-types';
import { removeCardNumbers } from '@shared/pii';
import { localDate } from '@shared/time';
import type pg from 'pg';
import type { Clock } from '../clock';
import { createClaudeClient } from '../llm/client';
import { runToolLoop, type StoredAnswer, type Validation } from '../llm/tool-loop';
import { estimateCostUsd } from '../llm/usage';
import type { SettingsSource } from '../settings/types';
import type { Logger } from '../util/logger';
import { forModel } from './minimize';
import { chargeSystemPrompt, chargeUserMessage } from './prompt';
import { ensureMerchant, loadForFollowUp, saveFollowUp, saveNewExtraction } from './persist';
import type { ChargeAttempt, ExtractionOutcome, ExtractionResult } from './outcome';

export type { ChargeAttempt, ExtractionOutcome, ExtractionResult } from './outcome';

export const TEXTO_MAX = 4_000;

export interface ExtractionDeps {
  settings: SettingsSource;
  clock: Clock;
  /** App-role pool; null = do not store (extracao_id null). */
  pool: pg.Pool | null;
  logger?: Logger;
  /** Injected client (tests/bench); default: createClaudeClient(settings). */
  client?: Anthropic;
}

export interface RunHooks {
  signal?: AbortSignal;
  onAttempt?: (info: { attempt: number; maxAttempts: number }) => void;
  /** Answers already stored for this run (a retried job resumes from them; see tool-loop). */
  resume?: readonly StoredAnswer[];
  /** Store each new answer before the loop goes on. */
  onAnswer?: (attempt: ChargeAttempt) => Promise<void>;
  /** Wraps every model call (shared in-flight cap and pauses of the intake workers). */
  gate?: <R>(call: () => Promise<R>) => Promise<R>;
  /**
   * When the text and each answer arrived (the due-date check reads "amanhã", "dia 20" from
   * there, #42.1); a piece without one is read from now.
   */
  chegadas?: { texto?: Date | null; respostas?: readonly (Date | null)[] };
}

/** falhou, incompleto and alerted results need a person; the rest is done. */
export function queueStateFor(status: ExtractionStatus, alertas: readonly Alerta[]): FilaEstado {
  return status !== 'completo' || alertas.length > 0 ? 'aberta' : 'concluida';
}

function checkText(texto: unknown, what: string): string {
  // PostgreSQL text cannot hold U+0000; it carries no meaning in a message.
  const t = typeof texto === 'string' ? texto.replaceAll('\u0000', '').trim() : '';
  if (t === '') {
    throw new AppError('entrada_invalida', `${what} está vazio: escreva o pedido do lojista.`);
  }
  if (t.length > TEXTO_MAX) {
    throw new AppError(
      'entrada_invalida',
      `${what} tem ${t.length.toLocaleString('pt-BR')} caracteres; o máximo é ${TEXTO_MAX.toLocaleString('pt-BR')}.`,
    );
  }
  return t;
}

/**
 * The extraction without storage: prompt, tool loop with our rules, status, alerts, cost.
 * `respostas` are the merchant's follow-up answers (empty for a first run).
 */
export async function runChargeExtraction(
  deps: Pick<ExtractionDeps, 'settings' | 'clock' | 'client'>,
  texto: string,
  respostas: readonly string[],
  hooks: RunHooks = {},
): Promise<ExtractionOutcome> {
  const s = deps.settings.get();
  const client = deps.client ?? createClaudeClient(deps.settings);
  const hoje = localDate(deps.clock.now(), s.timeZone);
  const t0 = performance.now();
  // LGPD (#38.1): the model sees placeholders; its answer is restored before our rules.
  const pii = forModel(texto, respostas);
  const validate = pii.validate((input: unknown): Validation<DadosCobranca, RuleError[]> => {
    const v = validateCharge(input, { today: hoje });
    return v.ok ? v : { ok: false, errors: v.errors.map(ruleErrorText), details: v.errors };
  });
  const r = await runToolLoop<DadosCobranca, RuleError[]>({
    client,
    model: s.model,
    maxTokens: s.maxTokens,
    system: chargeSystemPrompt(hoje, s.timeZone),
    tool: chargeTool({ strict: strictToolsFor(s) }),
    messages: [{ role: 'user', content: chargeUserMessage(pii.texto, pii.respostas) }],
    validate,
    maxAttempts: s.maxAttempts,
    timeoutMs: s.requestTimeoutMs,
    ...(hooks.onAttempt ? { onAttempt: hooks.onAttempt } : {}),
    ...(hooks.signal ? { signal: hooks.signal } : {}),
    ...(hooks.resume ? { resume: hooks.resume } : {}),
    ...(hooks.onAnswer ? { onAnswer: hooks.onAnswer } : {}),
    ...(hooks.gate ? { gate: hooks.gate } : {}),
  });
  let status: ExtractionStatus;
  let dados: DadosCobranca;
  let erros: RuleError[];
  if (r.ok) {
    // A boleto without the payer's document is incomplete: the merchant is asked (#36.4).
    dados = withFaltaDocumento(r.value);
    erros = [];
    status = dados.faltando.length ? 'incompleto' : 'completo';
  } else {
    const last = r.attempts[r.attempts.length - 1];
    dados = projectDados(pii.restore(last?.input));
    erros = r.details ?? [];
    status = 'falhou';
  }
  const fullText = [texto, ...respostas].join('\n');
  const alert = amountAlert(fullText, dados.valor_centavos, dados.parcelas);
  // The due date the text names, read from when each piece arrived (#42.1) — never later than
  // the clock's now (clock skew; a test's fixed clock).
  const now = deps.clock.now();
  const parts = [texto, ...respostas].map((t, i) => {
    const at = i === 0 ? hooks.chegadas?.texto : hooks.chegadas?.respostas?.[i - 1];
    return { texto: t, chegada: at && at.getTime() < now.getTime() ? at : now };
  });
  const dateAlert = dueDateAlert(parts, dados.vencimento, s.timeZone);
  const alertas: Alerta[] = [];
  if (alert) alertas.push(alert);
  if (dateAlert) alertas.push(dateAlert);
  return {
    status,
    dados,
    erros,
    alertas,
    attempts: r.attempts,
    uso: r.usage,
    custo_estimado_usd: estimateCostUsd(r.usage, s.model, s.prices),
    modelo: s.model,
    hoje,
    duracao_ms: Math.round(performance.now() - t0),
    fila_estado: queueStateFor(status, alertas),
  };
}

/** A new extraction: checks input and merchant, runs the extraction, stores, then returns. */
export async function extractCharge(
  deps: ExtractionDeps,
  input: {
    texto: string;
    merchantId: number;
    /** A batch line's key (`balcao extract --file`): stored once, a re-run skips it. */
    chaveLote?: string;
  } & RunHooks,
): Promise<ExtractionResult> {
  // A card number is never stored (#38.1): the text keeps [CARTAO_n] instead.
  const texto = removeCardNumbers(checkText(input.texto, 'O texto')).texto;
  if (!Number.isSafeInteger(input.merchantId) || input.merchantId <= 0) {
    throw new AppError('entrada_invalida', 'Lojista inválido: use um número inteiro positivo.');
  }
  // Fail before spending tokens: a client without key, an unknown merchant.
  const client = deps.client ?? createClaudeClient(deps.settings);
  if (deps.pool) await ensureMerchant(deps.pool, input.merchantId);
  const outcome = await runChargeExtraction({ ...deps, client }, texto, [], input);
  const id = deps.pool
    ? await saveNewExtraction(deps.pool, {
        merchantId: input.merchantId,
        texto,
        outcome,
        ...(input.chaveLote ? { chaveLote: input.chaveLote } : {}),
      })
    : null;
  deps.logger?.info(
    { extracao_id: id, status: outcome.status, tentativas: outcome.attempts.length },
    'extração concluída',
  );
  return { ...outcome, extracao_id: id, merchant_id: input.merchantId, rodada: 1 };
}

/**
 * Follow-up of an `incompleto` extraction: re-runs on the original text plus every answer so
 * far, updates the same row (same queue item) and keeps the previous rounds' outcome and
 * attempts as history.
 */
export async function followUpExtraction(
  deps: ExtractionDeps & { pool: pg.Pool; operator?: string },
  input: { extracaoId: number; resposta: string } & RunHooks,
): Promise<ExtractionResult> {
  const resposta = removeCardNumbers(checkText(input.resposta, 'A resposta do lojista')).texto;
  const client = deps.client ?? createClaudeClient(deps.settings);
  const prev = await loadForFollowUp(deps.pool, input.extracaoId);
  const respostas = [...prev.respostas, resposta];
  const outcome = await runChargeExtraction({ ...deps, client }, prev.texto, respostas, input);
  const rodada = await saveFollowUp(deps.pool, {
    prev,
    resposta,
    outcome,
    operator: deps.operator ?? deps.settings.get().operator,
  });
  return { ...outcome, extracao_id: prev.id, merchant_id: prev.merchantId, rodada };
}
