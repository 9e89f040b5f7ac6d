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
 * 3. Store the outcome atomically, only while still holding the lease — for a new message in
 *    ONE statement (storeNewItem), for a reply in one transaction: the extraction, then —
 *    `completo` without alert: the charge as "sistema" (the queue's own writer and audit;
 *    BALCAO_AUTO_CRIAR=0 sends every result to the queue) — `incompleto`: the question in the
 *    outbox `mensagens_saida`, the item 'aguardando_lojista' — otherwise the review queue; and
 *    the message marked `concluida`. A crash before the commit leaves nothing; after it, a
 *    retry finds `concluida` and stops (no second charge).
 * The few statements every message runs are prepared when the pool allows it (db/prepared.ts).
 * A reply (responde_a = a message or a question of the same channel) re-runs that thread's
 * item when it is waiting for the merchant.
 */
import { randomUUID } from 'node:crypto';
import type Anthropic from '@anthropic-ai/sdk';
import { AppError } from '@shared/errors';
import { localDate } from '@shared/time';
import type pg from 'pg';
import type { Clock } from '../clock';
import { hot } from '../db/prepared';
import { SqlParams } from '../db/sql-params';
import { isConnectionLost, mapDbError } from '../db/errors';
import { withTransaction } from '../db/tx';
import { runChargeExtraction, type ExtractionOutcome } from '../extraction';
import { forModel } from '../extraction/minimize';
import { extractionCtes } from '../extraction/persist';
import { ToolLoopError } from '../llm/tool-loop';
import { chargeCtes, createChargeInTx, prepareCharge, type PreparedCharge } from '../queue/actions';
import { AUDIT_COLS, writeAudit } from '../queue/audit';
import { CARD_NOTICE_TO_MERCHANT, hasRemovedCard } from '@shared/pii';
import { questionFor } from '@shared/question';
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
  const { item, texto, respostas, chegadas } = input;

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
        chegadas,
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
      const failed = failedOutcome(deps.settings, e, localDate(deps.clock.now(), s.timeZone));
      // Its last answer carries placeholders: restored as a valid one would be (#38.1).
      outcome = { ...failed, dados: forModel(texto, respostas).restore(failed.dados) };
    } else {
      throw e;
    }
  }

  const auto = s.autoCriar;
  const clean = outcome.status === 'completo' && outcome.alertas.length === 0;
  const pergunta =
    auto && outcome.status === 'incompleto' ? questionFor(outcome.dados.faltando) : null;
  // A card number was removed from this message (#38.1): the merchant is told not to send one.
  const aviso = hasRemovedCard(msg.texto) ? CARD_NOTICE_TO_MERCHANT : null;
  const result =
    item === null
      ? await storeNewItem(deps, msg, token, outcome, auto && clean, pergunta, aviso)
      : await storeReply(deps, msg, token, item, outcome, auto && clean, pergunta, aviso);
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

interface Stored {
  resultado: Resultado;
  extracaoId: number;
  proxima: number | null;
}

/**
 * The CTE that concludes the message (`feita`: one row only while the lease is still ours —
 * otherwise nothing of the transaction may stay, and another worker goes on from the stored
 * answers), and the SELECT list's merchant's next in line (the statement's snapshot still sees
 * this message pending, hence its exception).
 */
function concluded(
  p: SqlParams,
  msg: LeasedMessage,
  token: string,
  resultado: Resultado,
  extracaoId: string,
  chamadas: number,
): { cte: string; proxima: string } {
  const id = p.add(msg.id, '::bigint');
  return {
    cte: `feita AS (
             UPDATE mensagens SET estado = 'concluida', resultado = ${p.add(resultado)},
                    extracao_id = ${extracaoId}, processada_em = now(), lease_token = NULL,
                    lease_expira_em = NULL, chamadas_api = ${p.add(chamadas)}
              WHERE id = ${id} AND lease_token = ${p.add(token)} AND estado = 'pendente'
              RETURNING 1)`,
    proxima: `(${NEXT_IN_LINE(p.add(msg.merchant_id), id)}) AS proxima`,
  };
}

const AUTO_REFUSED = 'intake: cobrança automática recusada; vai à fila';

/**
 * A new message's outcome in ONE statement, committed on its own (one round trip): the
 * extraction and its attempts, then — a clean result whose charge today's rules accept: the item
 * inserted resolved, the charge and its audit entry (the queue's own writer, actor "sistema") —
 * a question for the merchant: the item waiting for the merchant, the question in the outbox and
 * its audit entry — otherwise the item open in the review queue; and the message concluded,
 * only while the lease is ours: otherwise the statement aborts (BL003) and nothing of it stays.
 * Its waits are bounded by the role's statement and lock timeouts (migration 0500). A charge
 * the database refuses after all (the statement fails; nothing written) sends the item to the
 * queue in a second statement. A lost connection leaves it unknown whether the statement
 * committed: the job's retry finds the message concluded, or writes it.
 */
async function storeNewItem(
  deps: ProcessDeps,
  msg: LeasedMessage,
  token: string,
  outcome: ExtractionOutcome,
  autoCharge: boolean,
  pergunta: string | null,
  aviso: string | null,
): Promise<Stored> {
  let charge: PreparedCharge | null = null;
  if (autoCharge) {
    try {
      charge = prepareCharge(deps, outcome.dados, outcome.dados);
    } catch (e) {
      // Rules of today refuse it (e.g. a due date now past): a person decides.
      deps.logger?.info({ err: e }, AUTO_REFUSED);
    }
  }
  const write = async (withCharge: PreparedCharge | null): Promise<Stored> => {
    const p = new SqlParams();
    const e = '(SELECT id FROM e)';
    const ctes = [
      extractionCtes(p, {
        merchantId: msg.merchant_id,
        texto: msg.texto,
        outcome,
        filaEstado: pergunta ? AGUARDANDO_LOJISTA : 'aberta',
        ...(withCharge ? { resolvida: { por: SISTEMA, dados: withCharge.dados } } : {}),
      }),
    ];
    let resultado: Resultado = 'fila';
    if (withCharge) {
      ctes.push(
        chargeCtes(p, {
          extracaoId: e,
          merchantId: msg.merchant_id,
          antes: outcome.dados,
          charge: withCharge,
          operador: SISTEMA,
          amostra: deps.settings.get().amostraQualidade,
          versaoDe: 'e',
        }),
      );
      resultado = 'cobranca_criada';
    } else if (pergunta) {
      ctes.push(questionCtes(p, msg, e, pergunta, outcome, aviso));
      resultado = 'aguardando_lojista';
    }
    if (aviso && !(pergunta && !withCharge)) ctes.push(noticeCte(p, msg, e, aviso));
    const done = concluded(p, msg, token, resultado, e, outcome.attempts.length);
    ctes.push(done.cte);
    try {
      const r = await deps.pool.query<{ extracao_id: number; proxima: string | null }>(
        hot(
          deps.pool,
          `WITH ${ctes.join(',\n')}
           SELECT ${e} AS extracao_id, ${done.proxima}
            WHERE CASE WHEN EXISTS (SELECT 1 FROM feita) THEN true
                       ELSE balcao_intake_reserva_perdida() END`,
          p.values,
        ),
      );
      const row = r.rows[0];
      if (!row) throw LEASE_LOST();
      return {
        resultado,
        extracaoId: Number(row.extracao_id),
        proxima: row.proxima === null ? null : Number(row.proxima),
      };
    } catch (err) {
      if ((err as { code?: unknown }).code === 'BL003') throw LEASE_LOST();
      throw err;
    }
  };
  if (!charge) return mapped(() => write(null));
  try {
    return await write(charge);
  } catch (err) {
    if (err instanceof AppError || isConnectionLost(err))
      throw mapDbError(err, { phase: 'commit' });
    // The database refused the charge (nothing of the statement was written): a person decides.
    deps.logger?.info({ err }, AUTO_REFUSED);
    return mapped(() => write(null));
  }
}

/** Database errors of the outcome's statement in pt-BR (a lost connection: saved or not). */
async function mapped<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw mapDbError(e, { phase: 'commit' });
  }
}

/**
 * The question for the merchant in the outbox and its audit entry (CTEs `s` and `q`); a notice
 * (card number removed) goes first in the same outgoing message (one per inbound message).
 */
function questionCtes(
  p: SqlParams,
  msg: LeasedMessage,
  extracaoId: string,
  pergunta: string,
  outcome: ExtractionOutcome,
  aviso: string | null = null,
): string {
  const canal = p.add(msg.canal, '::text');
  const texto = aviso ? `${aviso}\n\n${pergunta}` : pergunta;
  return `s AS (
             INSERT INTO mensagens_saida (canal, merchant_id, extracao_id, origem, responde_a, texto)
             VALUES (${canal}, ${p.add(msg.merchant_id)}, ${extracaoId}, ${p.add(msg.id)},
                     ${p.add(msg.mensagem_id)}, ${p.add(texto)})),
           q AS (
             INSERT INTO auditoria (${AUDIT_COLS})
             VALUES (${p.add(SISTEMA)}, 'pergunta_ao_lojista', ${extracaoId}, NULL, NULL,
                     ${p.add(JSON.stringify({ pergunta, faltando: outcome.dados.faltando, canal: msg.canal }))}::jsonb))`;
}

/** A notice for the merchant alone in the outbox (CTE `aviso`), when no question goes. */
function noticeCte(p: SqlParams, msg: LeasedMessage, extracaoId: string, aviso: string): string {
  return `aviso AS (
             INSERT INTO mensagens_saida (canal, merchant_id, extracao_id, origem, responde_a, texto)
             VALUES (${p.add(msg.canal, '::text')}, ${p.add(msg.merchant_id)}, ${extracaoId},
                     ${p.add(msg.id)}, ${p.add(msg.mensagem_id)}, ${p.add(aviso)}))`;
}

/**
 * A merchant's reply re-runs the item that waits for it: the round joins the same row, then the
 * charge (the queue's own creation, behind a savepoint), the next question, or the queue; and
 * the message concluded — one transaction, only while the lease is ours.
 */
async function storeReply(
  deps: ProcessDeps,
  msg: LeasedMessage,
  token: string,
  item: number,
  outcome: ExtractionOutcome,
  autoCharge: boolean,
  pergunta: string | null,
  aviso: string | null,
): Promise<Stored> {
  return withTransaction(deps.pool, async (c) => {
    const cur = await c.query<{ fila_estado: string }>({
      text: 'SELECT fila_estado FROM extracoes WHERE id = $1 FOR UPDATE',
      values: [item],
    });
    if (cur.rows[0]?.fila_estado !== AGUARDANDO_LOJISTA) {
      throw new RetryLater('O item mudou enquanto o modelo respondia; refazendo a decisão.');
    }
    await storeRound(c, item, outcome, msg.texto);
    await writeAudit(c, {
      operador: SISTEMA,
      acao: 'extracao_complementada',
      extracaoId: item,
      depois: { status: outcome.status, dados: outcome.dados },
      detalhes: { resposta: msg.texto, canal: msg.canal, mensagem_id: msg.mensagem_id },
    });
    let resultado: Resultado = 'fila';
    if (autoCharge) {
      try {
        await c.query('SAVEPOINT cobranca');
        await createChargeInTx(
          deps,
          c,
          { id: item, merchant_id: msg.merchant_id, dados: outcome.dados },
          outcome.dados,
          SISTEMA,
        );
        // (No RELEASE: COMMIT keeps what the open savepoint holds; one round trip fewer.)
        resultado = 'cobranca_criada';
      } catch (err) {
        // Rules of today refuse it (e.g. a due date now past): a person decides.
        await c.query('ROLLBACK TO SAVEPOINT cobranca');
        deps.logger?.info({ err, extracaoId: item }, AUTO_REFUSED);
      }
    } else if (pergunta) {
      const p = new SqlParams();
      await c.query({
        text: `WITH w AS (UPDATE extracoes SET fila_estado = ${p.add(AGUARDANDO_LOJISTA)},
                            atualizada_em = now() WHERE id = ${p.add(item)} RETURNING id),
                    ${questionCtes(p, msg, '(SELECT id FROM w)', pergunta, outcome, aviso)}
               SELECT 1`,
        values: p.values,
      });
      resultado = 'aguardando_lojista';
    }
    if (aviso && resultado !== 'aguardando_lojista') {
      const p = new SqlParams();
      await c.query({
        text: `WITH ${noticeCte(p, msg, p.add(item), aviso)} SELECT 1`,
        values: p.values,
      });
    }
    const p = new SqlParams();
    const done = concluded(p, msg, token, resultado, p.add(item), outcome.attempts.length);
    const r = await c.query<{ feita: boolean; proxima: string | null }>({
      text: `WITH ${done.cte} SELECT EXISTS (SELECT 1 FROM feita) AS feita, ${done.proxima}`,
      values: p.values,
    });
    if (!r.rows[0]?.feita) throw LEASE_LOST();
    const proxima = r.rows[0].proxima;
    return { resultado, extracaoId: item, proxima: proxima === null ? null : Number(proxima) };
  });
}
