/**
 * One intake job: a stored message becomes exactly one extraction, whatever happens to workers.
 *
 * 1. Lease the message (conditional UPDATE decided by PostgreSQL; renewed while working). A job
 *    for a message another live worker holds fails and is retried later; a finished message
 *    makes the job a no-op. A dead worker's lease simply expires. A merchant's messages go one
 *    at a time in arrival order: a message with an earlier one pending is not leased
 *    ('aguarda_anterior'), and the outcome's commit names the merchant's next in line.
 * 2. Run the extraction, RESUMING from the attempts stored for this message: every answer is
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
import { localDate } from '@shared/time';
import type pg from 'pg';
import type { Clock } from '../clock';
import { withTransaction } from '../db/tx';
import { runChargeExtraction, type ExtractionOutcome } from '../extraction';
import { insertExtraction } from '../extraction/persist';
import { ToolLoopError } from '../llm/tool-loop';
import { checkDados, createChargeInTx } from '../queue/actions';
import { writeAudit } from '../queue/audit';
import { questionFor } from '@shared/question';
import { normalizeDados } from '@shared/charge-schema';
import type { DadosCobranca } from '@shared/extraction-types';
import { storeRound } from '../queue/rerun';
import type { ChargeRules } from '../queue/rules';
import type { SettingsSource } from '../settings/types';
import type { Logger } from '../util/logger';
import { failedOutcome, storeAnswer, toStoredAnswers } from './answers';
import {
  DEFAULT_LEASE_MS,
  lease,
  LEASE_LOST,
  nextInLine,
  NEXT_IN_LINE,
  RetryLater,
  whileLeased,
  type LeasedMessage,
} from './lease';
import { AGUARDANDO_LOJISTA, finishWithoutItem, replyInput, SISTEMA } from './reply';

export { AGUARDANDO_LOJISTA, SISTEMA } from './reply';
export { markFailed, RetryLater } from './lease';

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
      /** The merchant's next message in line once this one is done (the worker takes it). */
      proxima: number | null;
    }
  | { feito: 'ja_concluida' | 'inexistente' }
  /** Not first in line for its merchant: `anterior` goes first (arrival order, one at a time). */
  | { feito: 'aguarda_anterior'; anterior: number };

export type Resultado = 'cobranca_criada' | 'aguardando_lojista' | 'fila' | 'sem_item_aberto';

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
  if ('aguarda' in msg) return { feito: 'aguarda_anterior', anterior: msg.aguarda };
  return whileLeased(deps.pool, { id: msg.id, token, ms: leaseMs }, signal, (lost) =>
    processLeased(deps, msg, token, lost),
  );
}

async function processLeased(
  deps: ProcessDeps,
  msg: LeasedMessage,
  token: string,
  signal: AbortSignal,
): Promise<ProcessResult> {
  const s = deps.settings.get();
  // A reply re-runs its thread's item (when that item waits for the merchant).
  const input = await replyInput(deps.pool, msg);
  if ('sem_item' in input) {
    await finishWithoutItem(deps.pool, msg, token, input.sem_item);
    return {
      feito: 'processada',
      resultado: 'sem_item_aberto',
      extracao_id: input.sem_item,
      tentativas_novas: 0,
      proxima: await nextInLine(deps.pool, msg.merchant_id),
    };
  }
  const { item, texto, respostas } = input;

  const resume = toStoredAnswers(msg.tentativas);
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
      outcome = failedOutcome(deps.settings, e, localDate(deps.clock.now(), s.timeZone));
    } else {
      throw e;
    }
  }

  const auto = s.autoCriar;
  const clean = outcome.status === 'completo' && outcome.alertas.length === 0;
  // A new clean item whose charge today's rules accept is inserted already resolved (one write
  // of the row); the charge's own creation below checks them again and, when it is refused after
  // all, the item goes back to the queue.
  const charge =
    auto && clean ? chargeDados(deps, outcome.dados) : { ok: false as const, dados: null };
  const result = await withTransaction(deps.pool, async (c) => {
    let extracaoId: number;
    const resolvedOnInsert = item === null && charge.ok;
    if (item === null) {
      extracaoId = await insertExtraction(c, {
        merchantId: msg.merchant_id,
        texto: msg.texto,
        outcome,
        filaEstado: 'aberta',
        ...(charge.ok ? { resolvida: { por: SISTEMA, dados: charge.dados } } : {}),
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
    if (auto && clean && !charge.ok && item === null) {
      deps.logger?.info({ extracaoId }, 'intake: cobrança automática recusada; vai à fila');
    } else if (auto && clean) {
      try {
        await c.query('SAVEPOINT cobranca');
        await createChargeInTx(
          deps,
          c,
          { id: extracaoId, merchant_id: msg.merchant_id, dados: outcome.dados },
          outcome.dados,
          SISTEMA,
          { novaExtracao: item === null, extracaoResolvida: resolvedOnInsert },
        );
        // (No RELEASE: COMMIT keeps what the open savepoint holds; one round trip fewer.)
        resultado = 'cobranca_criada';
      } catch (e) {
        // Rules of today refuse it (e.g. a due date now past): a person decides.
        await c.query('ROLLBACK TO SAVEPOINT cobranca');
        if (resolvedOnInsert) await reopen(c, extracaoId);
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
    // Concluded — only while the lease is still ours: otherwise nothing of this transaction
    // stays (another worker goes on from the stored answers) — and, in the same round trip, the
    // merchant's next message in line (the statement's snapshot still sees this one pending,
    // hence the exception of $1).
    const done = await c.query<{ feita: boolean; proxima: string | null }>({
      text: `WITH feita AS (
               UPDATE mensagens SET estado = 'concluida', resultado = $2, extracao_id = $3,
                      processada_em = now(), lease_token = NULL, lease_expira_em = NULL,
                      chamadas_api = $4
                WHERE id = $1 AND lease_token = $6 AND estado = 'pendente'
                RETURNING 1)
             SELECT EXISTS (SELECT 1 FROM feita) AS feita,
                    (${NEXT_IN_LINE('$5', '$1::bigint')}) AS proxima`,
      values: [msg.id, resultado, extracaoId, outcome.attempts.length, msg.merchant_id, token],
    });
    if (!done.rows[0]?.feita) throw LEASE_LOST();
    const proxima = done.rows[0]?.proxima ?? null;
    return { resultado, extracaoId, proxima: proxima === null ? null : Number(proxima) };
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
    proxima: result.proxima,
  };
}

/** The charge the intake would create from a clean outcome, when today's rules accept it. */
function chargeDados(
  deps: Pick<ProcessDeps, 'rules' | 'clock' | 'settings'>,
  dados: ExtractionOutcome['dados'],
): { ok: true; dados: DadosCobranca } | { ok: false; dados: null } {
  const normal = normalizeDados(dados);
  return checkDados(deps, normal).ok ? { ok: true, dados: normal } : { ok: false, dados: null };
}

/** An item inserted resolved whose charge was refused after all goes back to the queue. */
async function reopen(c: pg.PoolClient, extracaoId: number): Promise<void> {
  await c.query({
    text: `UPDATE extracoes SET fila_estado = 'aberta', dados_revisados = NULL,
             resolvida_por = NULL, resolvida_em = NULL, atualizada_em = now()
           WHERE id = $1`,
    values: [extracaoId],
  });
}
