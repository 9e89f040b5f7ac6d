/**
 * One intake job: a stored message becomes exactly one extraction, whatever happens to workers.
 *
 * 1. Lease the message (conditional UPDATE decided by PostgreSQL; renewed while working). A job
 *    for a message another live worker holds fails and is retried later; a finished message
 *    makes the job a no-op. A dead worker's lease simply expires.
 * 2. Run the engine, RESUMING from the attempts stored for this message: every answer is
 *    stored (lease-checked) the moment it arrives, so a retried job never pays again for an
 *    attempt that got an answer; transport retries stay inside the SDK.
 * 3. Store the outcome in ONE transaction, only while still holding the lease: the extraction,
 *    then — `completo` without alert: the charge as "sistema" (the queue's own creation and
 *    audit; BALCAO_AUTO_CRIAR=0 sends every result to the queue) — `incompleto`: the question
 *    in the outbox `mensagens_saida`, the item 'aguardando_lojista' — otherwise the review
 *    queue; and the message marked `concluida`. A crash before COMMIT leaves nothing; after
 *    it, a retry finds `concluida` and stops (no second charge).
 * A reply (responde_a = a message or a question of the same channel) re-runs that thread's
 * item when it is waiting for the merchant.
 */
import { randomUUID } from 'node:crypto';
import type Anthropic from '@anthropic-ai/sdk';
import type { ContentBlock } from '@anthropic-ai/sdk/resources/messages/messages';
import { projectDados } from '@shared/charge';
import { AppError } from '@shared/errors';
import type { Uso } from '@shared/extraction-types';
import { localDate } from '@shared/time';
import type pg from 'pg';
import type { Clock } from '../clock';
import { withTransaction } from '../db/tx';
import { runChargeExtraction, type ChargeAttempt, type ExtractionOutcome } from '../extraction';
import { insertExtraction } from '../extraction/persist';
import { ToolLoopError, type StoredAnswer } from '../llm/tool-loop';
import { estimateCostUsd } from '../llm/usage';
import { createChargeInTx } from '../queue/actions';
import { writeAudit } from '../queue/audit';
import { questionFor } from '../queue/question';
import { loadRerunSource, storeRound } from '../queue/rerun';
import type { ChargeRules } from '../queue/rules';
import type { SettingsSource } from '../settings/types';
import type { Logger } from '../util/logger';

/** The item state of "aguardando lojista" (screens' queue state). */
export const AGUARDANDO_LOJISTA = 'aguardando_lojista';
/** Who the intake writes in the audit log and on charges it creates. */
export const SISTEMA = 'sistema';

export interface ProcessDeps {
  pool: pg.Pool;
  settings: SettingsSource;
  clock: Clock;
  rules: ChargeRules;
  client: Anthropic;
  gate?: <R>(call: () => Promise<R>) => Promise<R>;
  logger?: Logger;
  /** Lease of a message while a worker extracts it (renewed every third of it). */
  leaseMs?: number;
  /** Fault injection for tests: called at named points; throwing there simulates a crash. */
  faults?: (point: 'apos_tentativa' | 'apos_commit') => void | Promise<void>;
}

export type ProcessResult =
  | {
      feito: 'processada';
      resultado: Resultado;
      extracao_id: number | null;
      tentativas_novas: number;
    }
  | { feito: 'ja_concluida' | 'inexistente' };

export type Resultado = 'cobranca_criada' | 'aguardando_lojista' | 'fila' | 'sem_item_aberto';

interface LeasedMessage {
  id: number;
  canal: string;
  mensagem_id: string;
  merchant_id: number;
  texto: string;
  responde_a: string | null;
}

/** A job that must wait (message held by a live worker, thread not processed yet). */
export class RetryLater extends AppError {
  constructor(message: string) {
    super('conflito', message);
    this.name = 'RetryLater';
  }
}

const DEFAULT_LEASE_MS = 30_000;

async function lease(
  pool: pg.Pool,
  id: number,
  token: string,
  ms: number,
): Promise<LeasedMessage | 'ja_concluida' | 'inexistente'> {
  const r = await pool.query<LeasedMessage>({
    text: `UPDATE mensagens SET lease_token = $2,
                  lease_expira_em = now() + $3::float8 * interval '1 millisecond'
            WHERE id = $1 AND estado = 'pendente'
              AND (lease_token IS NULL OR lease_expira_em <= now())
        RETURNING id, canal, mensagem_id, merchant_id, texto, responde_a`,
    values: [id, token, ms],
  });
  if (r.rows[0]) return r.rows[0];
  const cur = await pool.query<{ estado: string }>({
    text: 'SELECT estado FROM mensagens WHERE id = $1',
    values: [id],
  });
  const estado = cur.rows[0]?.estado;
  if (!estado) return 'inexistente';
  if (estado !== 'pendente') return 'ja_concluida';
  throw new RetryLater(`A mensagem ${id} está sendo processada por outro worker.`);
}

const LEASE_LOST = () =>
  new AppError('conflito', 'A reserva da mensagem expirou; outro worker continua dela.');

async function storedAnswers(pool: pg.Pool, id: number): Promise<StoredAnswer[]> {
  const r = await pool.query<{
    conteudo: ContentBlock[];
    uso: Uso;
    stop_reason: string | null;
    duracao_ms: number | null;
    message_id: string | null;
  }>({
    text: `SELECT conteudo, uso, stop_reason, duracao_ms, message_id
             FROM intake_tentativas WHERE mensagem = $1 ORDER BY numero`,
    values: [id],
  });
  return r.rows.map((x) => ({
    content: x.conteudo,
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

async function storeAnswer(
  pool: pg.Pool,
  id: number,
  token: string,
  a: ChargeAttempt,
): Promise<void> {
  const r = await pool.query({
    text: `INSERT INTO intake_tentativas
             (mensagem, numero, conteudo, entrada, erros, detalhes, uso, stop_reason, duracao_ms, message_id)
           SELECT $1, $3, $4, $5, $6, $7, $8, $9, $10, $11
            WHERE EXISTS (SELECT 1 FROM mensagens
                           WHERE id = $1 AND lease_token = $2 AND estado = 'pendente')
           ON CONFLICT (mensagem, numero) DO NOTHING`,
    values: [
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
  });
  if (!r.rowCount) throw LEASE_LOST();
}

/** The thread a reply belongs to: its item, or 'pendente' when the thread is not done yet. */
async function threadItem(
  pool: pg.Pool,
  canal: string,
  respondeA: string,
): Promise<number | 'pendente' | null> {
  const r = await pool.query<{ extracao_id: number | null; estado: string }>({
    text: `SELECT extracao_id, estado FROM mensagens WHERE canal = $1 AND mensagem_id = $2
           UNION ALL
           SELECT extracao_id, 'concluida' FROM mensagens_saida WHERE canal = $1 AND mensagem_id = $2
           LIMIT 1`,
    values: [canal, respondeA],
  });
  const row = r.rows[0];
  if (!row) return null;
  if (row.estado === 'pendente') return 'pendente';
  return row.extracao_id;
}

/** A loop that ended without a usable answer (cut by max_tokens, no tool call) is `falhou`. */
function failedOutcome(
  deps: ProcessDeps,
  e: ToolLoopError,
  fallbackToday: string,
): ExtractionOutcome {
  const s = deps.settings.get();
  const uso = e.attempts.reduce<Uso>(
    (a, t) => ({
      input_tokens: a.input_tokens + t.usage.input_tokens,
      output_tokens: a.output_tokens + t.usage.output_tokens,
      cache_read_input_tokens: a.cache_read_input_tokens + t.usage.cache_read_input_tokens,
      cache_creation_input_tokens:
        a.cache_creation_input_tokens + t.usage.cache_creation_input_tokens,
    }),
    {
      input_tokens: 0,
      output_tokens: 0,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
    },
  );
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

/** Processes one message (the job handler's body). */
export async function processMessage(
  deps: ProcessDeps,
  mensagemId: number,
  signal?: AbortSignal,
): Promise<ProcessResult> {
  const leaseMs = deps.leaseMs ?? DEFAULT_LEASE_MS;
  const token = randomUUID();
  const msg = await lease(deps.pool, mensagemId, token, leaseMs);
  if (msg === 'ja_concluida' || msg === 'inexistente') return { feito: msg };

  const lost = new AbortController();
  const onAbort = () => lost.abort();
  signal?.addEventListener('abort', onAbort);
  const renew = setInterval(
    () => {
      deps.pool
        .query({
          text: `UPDATE mensagens SET lease_expira_em = now() + $3::float8 * interval '1 millisecond'
                WHERE id = $1 AND lease_token = $2 AND estado = 'pendente'`,
          values: [msg.id, token, leaseMs],
        })
        .then((r) => {
          if (!r.rowCount) lost.abort();
        })
        .catch(() => undefined);
    },
    Math.max(200, Math.floor(leaseMs / 3)),
  );
  try {
    return await processLeased(deps, msg, token, lost.signal);
  } catch (e) {
    // Give the message back at once so a retry does not wait for the lease to expire.
    await deps.pool
      .query({
        text: `UPDATE mensagens SET lease_token = NULL, lease_expira_em = NULL
                WHERE id = $1 AND lease_token = $2`,
        values: [msg.id, token],
      })
      .catch(() => undefined);
    throw e;
  } finally {
    clearInterval(renew);
    signal?.removeEventListener('abort', onAbort);
  }
}

async function processLeased(
  deps: ProcessDeps,
  msg: LeasedMessage,
  token: string,
  signal: AbortSignal,
): Promise<ProcessResult> {
  const s = deps.settings.get();
  // A reply re-runs its thread's item (when that item waits for the merchant).
  let item: number | null = null;
  let texto = msg.texto;
  let respostas: string[] = [];
  if (msg.responde_a) {
    const t = await threadItem(deps.pool, msg.canal, msg.responde_a);
    if (t === 'pendente') {
      throw new RetryLater('A mensagem respondida ainda não foi processada; tentando depois.');
    }
    if (t !== null) {
      const c = await deps.pool.connect();
      let estado: string | undefined;
      try {
        const r = await c.query<{ fila_estado: string }>({
          text: 'SELECT fila_estado FROM extracoes WHERE id = $1',
          values: [t],
        });
        estado = r.rows[0]?.fila_estado;
        if (estado === AGUARDANDO_LOJISTA) {
          const src = await loadRerunSource(c, t);
          texto = src.texto;
          respostas = [...src.respostas, msg.texto];
        }
      } finally {
        c.release();
      }
      if (estado !== AGUARDANDO_LOJISTA) return finishWithoutItem(deps, msg, token, t);
      item = t;
    }
  }

  const resume = await storedAnswers(deps.pool, msg.id);
  const before = resume.length;
  let outcome: ExtractionOutcome;
  try {
    outcome = await runChargeExtraction(
      { settings: deps.settings, clock: deps.clock, client: deps.client },
      texto,
      respostas,
      {
        signal,
        resume,
        onAnswer: async (a) => {
          await storeAnswer(deps.pool, msg.id, token, a);
          await deps.faults?.('apos_tentativa');
        },
        ...(deps.gate ? { gate: deps.gate } : {}),
      },
    );
  } catch (e) {
    if (signal.aborted) throw LEASE_LOST();
    if (
      e instanceof ToolLoopError &&
      (e.reason === 'max_tokens' || e.reason === 'sem_ferramenta')
    ) {
      outcome = failedOutcome(deps, e, localDate(deps.clock.now(), s.timeZone));
    } else {
      throw e;
    }
  }

  const auto = s.autoCriar;
  const clean = outcome.status === 'completo' && outcome.alertas.length === 0;
  const result = await withTransaction(deps.pool, async (c) => {
    const held = await c.query({
      text: `SELECT 1 FROM mensagens WHERE id = $1 AND lease_token = $2 AND estado = 'pendente'
               FOR UPDATE`,
      values: [msg.id, token],
    });
    if (!held.rowCount) throw LEASE_LOST();
    let extracaoId: number;
    if (item === null) {
      extracaoId = await insertExtraction(c, {
        merchantId: msg.merchant_id,
        texto: msg.texto,
        outcome,
        filaEstado: 'aberta',
      });
    } else {
      const cur = await c.query<{ fila_estado: string }>({
        text: 'SELECT fila_estado FROM extracoes WHERE id = $1 FOR UPDATE',
        values: [item],
      });
      if (cur.rows[0]?.fila_estado !== AGUARDANDO_LOJISTA) {
        throw new RetryLater('O item mudou enquanto o modelo respondia; refazendo a decisão.');
      }
      extracaoId = item;
      await storeRound(c, item, outcome, msg.texto);
      await writeAudit(c, {
        operador: SISTEMA,
        acao: 'extracao_complementada',
        extracaoId: item,
        depois: { status: outcome.status, dados: outcome.dados },
        detalhes: { resposta: msg.texto, canal: msg.canal, mensagem_id: msg.mensagem_id },
      });
    }
    let resultado: Resultado = 'fila';
    if (auto && clean) {
      try {
        await c.query('SAVEPOINT cobranca');
        await createChargeInTx(
          deps,
          c,
          { id: extracaoId, merchant_id: msg.merchant_id, dados: outcome.dados },
          outcome.dados,
          SISTEMA,
        );
        await c.query('RELEASE SAVEPOINT cobranca');
        resultado = 'cobranca_criada';
      } catch (e) {
        // Rules of today refuse it (e.g. a due date now past): a person decides.
        await c.query('ROLLBACK TO SAVEPOINT cobranca');
        deps.logger?.info(
          { err: e, extracaoId },
          'intake: cobrança automática recusada; vai à fila',
        );
      }
    } else if (auto && outcome.status === 'incompleto') {
      const pergunta = questionFor(outcome.dados.faltando);
      if (pergunta) {
        await c.query({
          text: `UPDATE extracoes SET fila_estado = $2, atualizada_em = now() WHERE id = $1`,
          values: [extracaoId, AGUARDANDO_LOJISTA],
        });
        await c.query({
          text: `INSERT INTO mensagens_saida (canal, merchant_id, extracao_id, origem, responde_a, texto)
                 VALUES ($1, $2, $3, $4, $5, $6)`,
          values: [msg.canal, msg.merchant_id, extracaoId, msg.id, msg.mensagem_id, pergunta],
        });
        await writeAudit(c, {
          operador: SISTEMA,
          acao: 'pergunta_ao_lojista',
          extracaoId,
          detalhes: { pergunta, faltando: outcome.dados.faltando, canal: msg.canal },
        });
        resultado = 'aguardando_lojista';
      }
    }
    await c.query({
      text: `UPDATE mensagens SET estado = 'concluida', resultado = $2, extracao_id = $3,
               processada_em = now(), lease_token = NULL, lease_expira_em = NULL,
               chamadas_api = $4
             WHERE id = $1`,
      values: [msg.id, resultado, extracaoId, outcome.attempts.length],
    });
    return { resultado, extracaoId };
  });
  await deps.faults?.('apos_commit');
  deps.logger?.debug(
    { mensagem: msg.id, resultado: result.resultado, extracao_id: result.extracaoId },
    'intake: mensagem processada',
  );
  return {
    feito: 'processada',
    resultado: result.resultado,
    extracao_id: result.extracaoId,
    tentativas_novas: outcome.attempts.length - before,
  };
}

/** A reply whose thread has no item waiting: recorded on that item for the agents. */
async function finishWithoutItem(
  deps: ProcessDeps,
  msg: LeasedMessage,
  token: string,
  item: number,
): Promise<ProcessResult> {
  await withTransaction(deps.pool, async (c) => {
    const held = await c.query({
      text: `SELECT 1 FROM mensagens WHERE id = $1 AND lease_token = $2 AND estado = 'pendente'
               FOR UPDATE`,
      values: [msg.id, token],
    });
    if (!held.rowCount) throw LEASE_LOST();
    await writeAudit(c, {
      operador: SISTEMA,
      acao: 'resposta_registrada',
      extracaoId: item,
      detalhes: { resposta: msg.texto, canal: msg.canal, mensagem_id: msg.mensagem_id },
    });
    await c.query({
      text: `UPDATE mensagens SET estado = 'concluida', resultado = 'sem_item_aberto',
               extracao_id = $2, processada_em = now(), lease_token = NULL, lease_expira_em = NULL
             WHERE id = $1`,
      values: [msg.id, item],
    });
  });
  return {
    feito: 'processada',
    resultado: 'sem_item_aberto',
    extracao_id: item,
    tentativas_novas: 0,
  };
}

/** After the last job retry: the message is marked `erro` (visible in `fila status`). */
export async function markFailed(pool: pg.Pool, mensagemId: number, motivo: string): Promise<void> {
  await pool.query({
    text: `UPDATE mensagens SET estado = 'erro', erro = left($2, 500), processada_em = now(),
             lease_token = NULL, lease_expira_em = NULL
           WHERE id = $1 AND estado = 'pendente'`,
    values: [mensagemId, motivo],
  });
}
