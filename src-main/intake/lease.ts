/**
 * A message's lease: the worker that holds it (a token until an expiry PostgreSQL decides)
 * alone may store answers and the outcome for it; it is renewed while the worker extracts and
 * given back at once when the job fails.
 */
import { AppError } from '@shared/errors';
import type { Uso } from '@shared/extraction-types';
import type pg from 'pg';
import { hot } from '../db/prepared';

export interface LeasedMessage {
  id: number;
  canal: string;
  mensagem_id: string;
  merchant_id: number;
  texto: string;
  responde_a: string | null;
  /** When the channel received it (the due-date check reads "amanhã" from there, #42.1). */
  recebida_em: Date;
  /** The answers already stored for it (a retried job resumes from them), in order. */
  tentativas: StoredAnswerRow[];
}

/** One stored answer as `intake_tentativas` keeps it (answers.ts turns it into the loop's). */
export interface StoredAnswerRow {
  conteudo: unknown[];
  uso: Uso;
  stop_reason: string | null;
  duracao_ms: number | null;
  message_id: string | null;
}

/** A job that must wait (message held by a live worker, thread not processed yet). */
export class RetryLater extends AppError {
  constructor(message: string) {
    super('conflito', message);
    this.name = 'RetryLater';
  }
}

export const DEFAULT_LEASE_MS = 30_000;

/**
 * The message is not first in line for its merchant (issue #17: a merchant's backlog drains in
 * arrival order, one message at a time): `anterior` is the message that goes first — an older
 * pending one, or the one a live worker is extracting for the same merchant.
 */
export interface AwaitsEarlier {
  aguarda: number;
}

/**
 * Takes the message's lease when it is pending, free, and first in line for its merchant:
 * no older pending message of the merchant (by `recebida_em`, then `id`) and none of the
 * merchant's other messages held by a live worker. PostgreSQL decides, in one statement.
 */
export async function lease(
  pool: pg.Pool,
  id: number,
  token: string,
  ms: number,
): Promise<LeasedMessage | AwaitsEarlier | 'ja_concluida' | 'inexistente'> {
  // One round trip: the lease and, with it, the answers already stored for the message. Its
  // commit does not wait for the disk (synchronous_commit off for this statement's transaction
  // alone): a lease lost in a database crash only lets another worker take the message, and
  // every answer and outcome stored under it commits synchronously and re-checks the lease.
  const r = await pool.query<LeasedMessage>(
    hot(
      pool,
      `WITH l AS (
             UPDATE mensagens m SET lease_token = $2,
                    lease_expira_em = now() + $3::float8 * interval '1 millisecond'
              WHERE m.id = $1 AND m.estado = 'pendente'
                AND (m.lease_token IS NULL OR m.lease_expira_em <= now())
                AND NOT EXISTS (SELECT 1 FROM mensagens o
                                 WHERE o.merchant_id = m.merchant_id AND o.estado = 'pendente'
                                   AND (o.recebida_em, o.id) < (m.recebida_em, m.id))
                AND NOT EXISTS (SELECT 1 FROM mensagens o
                                 WHERE o.merchant_id = m.merchant_id AND o.estado = 'pendente'
                                   AND o.id <> m.id AND o.lease_expira_em > now())
          RETURNING m.id, m.canal, m.mensagem_id, m.merchant_id, m.texto, m.responde_a,
                    m.recebida_em)
           SELECT l.*, coalesce((
                    SELECT json_agg(json_build_object(
                             'conteudo', t.conteudo, 'uso', t.uso, 'stop_reason', t.stop_reason,
                             'duracao_ms', t.duracao_ms, 'message_id', t.message_id)
                           ORDER BY t.numero)
                      FROM intake_tentativas t WHERE t.mensagem = l.id), '[]') AS tentativas
             FROM l, (SELECT set_config('synchronous_commit', 'off', true)) AS sem_esperar_disco`,
      [id, token, ms],
    ),
  );
  if (r.rows[0]) return r.rows[0];
  const cur = await pool.query<{ estado: string; ocupada: boolean; antes: string | null }>({
    text: `SELECT m.estado, coalesce(m.lease_expira_em > now(), false) AS ocupada,
                  (SELECT o.id FROM mensagens o
                    WHERE o.merchant_id = m.merchant_id AND o.estado = 'pendente' AND o.id <> m.id
                      AND ((o.recebida_em, o.id) < (m.recebida_em, m.id)
                           OR o.lease_expira_em > now())
                    ORDER BY o.recebida_em, o.id LIMIT 1) AS antes
             FROM mensagens m WHERE m.id = $1`,
    values: [id],
  });
  const row = cur.rows[0];
  if (!row) return 'inexistente';
  if (row.estado !== 'pendente') return 'ja_concluida';
  if (row.ocupada) {
    throw new RetryLater(`A mensagem ${id} está sendo processada por outro worker.`);
  }
  if (row.antes !== null) return { aguarda: Number(row.antes) };
  // Freed between the two statements: the job simply tries again.
  throw new RetryLater(`A mensagem ${id} mudou de estado; tentando de novo.`);
}

/**
 * The merchant's next message in line: the first pending one by arrival, other than `exceto`
 * (SQL expressions: placeholders). One SELECT for `nextInLine` and for the outcome's final
 * statement, where the statement's snapshot still sees the message just concluded as pending.
 */
export const NEXT_IN_LINE = (merchant: string, exceto = 'NULL') =>
  `SELECT o.id FROM mensagens o
    WHERE o.merchant_id = ${merchant} AND o.estado = 'pendente' AND o.id IS DISTINCT FROM ${exceto}
    ORDER BY o.recebida_em, o.id LIMIT 1`;

/**
 * The merchant's next message in line (first pending by arrival), or null: what a worker that
 * has just stored an outcome takes next, so a merchant's backlog drains in order without
 * waiting for its jobs' turns.
 */
export async function nextInLine(pool: pg.Pool, merchantId: number): Promise<number | null> {
  const r = await pool.query<{ id: string }>({
    text: NEXT_IN_LINE('$1'),
    values: [merchantId],
  });
  return r.rows[0] ? Number(r.rows[0].id) : null;
}

export const LEASE_LOST = () =>
  new AppError('conflito', 'A reserva da mensagem expirou; outro worker continua dela.');

/** Inside the outcome's transaction: still ours? Locks the message row, or throws LEASE_LOST. */
export async function holdLease(c: pg.PoolClient, id: number, token: string): Promise<void> {
  const held = await c.query({
    text: `SELECT 1 FROM mensagens WHERE id = $1 AND lease_token = $2 AND estado = 'pendente'
             FOR UPDATE`,
    values: [id, token],
  });
  if (!held.rowCount) throw LEASE_LOST();
}

/**
 * Runs `fn` while holding the message's lease: renewed every third of `ms` (its signal aborts
 * once the lease is lost, or when `signal` does), given back at once if `fn` throws so a retry
 * does not wait for it to expire.
 */
export async function whileLeased<T>(
  pool: pg.Pool,
  msg: { id: number; token: string; ms: number },
  signal: AbortSignal | undefined,
  fn: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const lost = new AbortController();
  const onAbort = () => lost.abort();
  signal?.addEventListener('abort', onAbort);
  const renew = setInterval(
    () => {
      pool
        .query({
          text: `UPDATE mensagens SET lease_expira_em = now() + $3::float8 * interval '1 millisecond'
                WHERE id = $1 AND lease_token = $2 AND estado = 'pendente'`,
          values: [msg.id, msg.token, msg.ms],
        })
        .then((r) => {
          if (!r.rowCount) lost.abort();
        })
        .catch(() => undefined);
    },
    Math.max(200, Math.floor(msg.ms / 3)),
  );
  try {
    return await fn(lost.signal);
  } catch (e) {
    await pool
      .query({
        text: `UPDATE mensagens SET lease_token = NULL, lease_expira_em = NULL
                WHERE id = $1 AND lease_token = $2`,
        values: [msg.id, msg.token],
      })
      .catch(() => undefined);
    throw e;
  } finally {
    clearInterval(renew);
    signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * After the last job retry: the message is marked `erro` (visible in `fila status`) — unless a
 * live worker holds it (that worker stores its outcome). A message never stays pending without
 * a job, which would hold its merchant's later messages back forever.
 */
export async function markFailed(pool: pg.Pool, mensagemId: number, motivo: string): Promise<void> {
  await pool.query({
    text: `UPDATE mensagens SET estado = 'erro', erro = left($2, 500), processada_em = now(),
             lease_token = NULL, lease_expira_em = NULL
           WHERE id = $1 AND estado = 'pendente'
             AND (lease_expira_em IS NULL OR lease_expira_em <= now())`,
    values: [mensagemId, motivo],
  });
}
