/**
 * The model's answers for a message: each is stored (lease-checked) the moment it arrives, so
 * a retried job resumes from them instead of paying again; a loop that ended without a usable
 * answer becomes a `falhou` outcome.
 */
import type { ContentBlock } from '@anthropic-ai/sdk/resources/messages/messages';
import { projectDados } from '@shared/charge';
import type pg from 'pg';
import { hot } from '../db/prepared';
import type { ChargeAttempt, ExtractionOutcome } from '../extraction';
import type { StoredAnswer, ToolLoopError } from '../llm/tool-loop';
import { estimateCostUsd, sumUso } from '../llm/usage';
import type { SettingsSource } from '../settings/types';
import { LEASE_LOST, type StoredAnswerRow } from './lease';

/** The stored answers the lease brought back, as the tool loop resumes from them. */
export function toStoredAnswers(rows: readonly StoredAnswerRow[]): StoredAnswer[] {
  return rows.map((x) => ({
    content: x.conteudo as ContentBlock[],
    usage: x.uso,
    stopReason: x.stop_reason,
    durationMs: x.duracao_ms ?? 0,
    messageId: x.message_id ?? '',
  }));
}

/** JSON for jsonb: PostgreSQL text cannot hold U+0000. */
const json = (v: unknown) =>
  JSON.stringify(v ?? null, (_k, val: unknown) =>
    typeof val === 'string' ? val.replaceAll('\u0000', '') : val,
  );

export async function storeAnswer(
  pool: pg.Pool,
  id: number,
  token: string,
  a: ChargeAttempt,
): Promise<void> {
  const r = await pool.query(
    hot(
      pool,
      `INSERT INTO intake_tentativas
             (mensagem, numero, conteudo, entrada, erros, detalhes, uso, stop_reason, duracao_ms, message_id)
           SELECT $1, $3, $4, $5, $6, $7, $8, $9, $10, $11
            WHERE EXISTS (SELECT 1 FROM mensagens
                           WHERE id = $1 AND lease_token = $2 AND estado = 'pendente')
           ON CONFLICT (mensagem, numero) DO NOTHING`,
      [
        id,
        token,
        a.number,
        json(a.content ?? []),
        json(a.input),
        json(a.errors),
        json(a.details ?? null),
        json(a.usage),
        a.stopReason,
        a.durationMs,
        a.messageId,
      ],
    ),
  );
  if (!r.rowCount) throw LEASE_LOST();
}

/** A loop that ended without a usable answer (cut by max_tokens, no tool call) is `falhou`. */
export function failedOutcome(
  settings: SettingsSource,
  e: ToolLoopError,
  fallbackToday: string,
): ExtractionOutcome {
  const s = settings.get();
  const uso = sumUso(e.attempts.map((t) => t.usage));
  return {
    status: 'falhou',
    dados: projectDados(e.attempts[e.attempts.length - 1]?.input),
    erros: [{ campo: '', regra: 'modelo', mensagem: e.message }],
    alertas: [],
    attempts: e.attempts as ChargeAttempt[],
    uso,
    custo_estimado_usd: estimateCostUsd(uso, s.model, s.prices),
    modelo: s.model,
    hoje: fallbackToday,
    duracao_ms: e.attempts.reduce((a, t) => a + t.durationMs, 0),
    fila_estado: 'aberta',
  };
}
