/**
 * Accepting messages: each (canal, mensagem_id) is stored once and gets exactly one job, in the
 * same transaction (nothing half-written: a message without its job, or a job without its
 * message, never commits). A repeat is a `duplicada`, not an error.
 */
import type PgBoss from 'pg-boss';
import { removeCardNumbers } from '@shared/pii';
import type pg from 'pg';
import { withTransaction } from '../db/tx';
import { insertJobs } from './jobs';
import type { MensagemEntrada } from './message';

export type EnqueueStatus = 'aceita' | 'duplicada' | 'recusada';

export interface EnqueueOutcome {
  status: EnqueueStatus;
  /** `mensagens.id` (accepted or the earlier copy of a duplicate). */
  id?: number;
  /** pt-BR reason of a refusal. */
  motivo?: string;
}

export interface EnqueueDeps {
  pool: pg.Pool;
  boss: PgBoss;
  expireInSeconds?: number;
}

/** Stores a batch (one transaction); outcomes in input order. */
export async function enqueueMessages(
  deps: EnqueueDeps,
  msgs: readonly MensagemEntrada[],
): Promise<EnqueueOutcome[]> {
  if (!msgs.length) return [];
  return withTransaction(deps.pool, (c) => enqueueMessagesIn(c, deps, msgs));
}

/**
 * The same, inside the caller's transaction (the WhatsApp webhook stores a delivery's messages,
 * its received rows and its statuses in one commit before it answers).
 */
export async function enqueueMessagesIn(
  c: pg.PoolClient,
  deps: Pick<EnqueueDeps, 'boss' | 'expireInSeconds'>,
  msgs: readonly MensagemEntrada[],
): Promise<EnqueueOutcome[]> {
  if (!msgs.length) return [];
  const known = await c.query<{ id: number }>({
    text: 'SELECT id FROM merchants WHERE id = ANY($1::bigint[])',
    values: [[...new Set(msgs.map((m) => m.merchant))]],
  });
  const merchants = new Set(known.rows.map((r) => r.id));
  const out: EnqueueOutcome[] = msgs.map((m) =>
    merchants.has(m.merchant)
      ? { status: 'duplicada' }
      : {
          status: 'recusada',
          motivo: `Mensagem recusada — lojista ${m.merchant} não encontrado.`,
        },
  );
  const idx = msgs.flatMap((m, i) => (merchants.has(m.merchant) ? [i] : []));
  if (!idx.length) return out;
  const col = <T>(f: (m: MensagemEntrada) => T) => idx.map((i) => f(msgs[i]!));
  const ins = await c.query<{ id: number; canal: string; mensagem_id: string }>({
    text: `INSERT INTO mensagens (canal, mensagem_id, merchant_id, texto, recebida_em, responde_a)
           SELECT canal, mensagem_id, merchant_id, texto, coalesce(recebida_em, now()), responde_a
             FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::timestamptz[], $6::text[])
                  AS t(canal, mensagem_id, merchant_id, texto, recebida_em, responde_a)
           ON CONFLICT (canal, mensagem_id) DO NOTHING
           RETURNING id, canal, mensagem_id`,
    values: [
      col((m) => m.canal),
      col((m) => m.mensagem_id),
      col((m) => m.merchant),
      // A card number is never stored (#38.1): the text keeps [CARTAO_n] instead.
      col((m) => removeCardNumbers(m.texto).texto),
      col((m) => m.recebida_em ?? null),
      col((m) => m.responde_a ?? null),
    ],
  });
  const key = (canal: string, id: string) => `${canal}\u0000${id}`;
  const fresh = new Map(ins.rows.map((r) => [key(r.canal, r.mensagem_id), r.id]));
  // A key repeated inside the batch: the first line is accepted, the rest are duplicates.
  const seen = new Set<string>();
  const missing: string[] = [];
  for (const i of idx) {
    const m = msgs[i]!;
    const k = key(m.canal, m.mensagem_id);
    const id = fresh.get(k);
    if (id !== undefined && !seen.has(k)) out[i] = { status: 'aceita', id };
    else if (id !== undefined) out[i] = { status: 'duplicada', id };
    else missing.push(k);
    seen.add(k);
  }
  await insertJobs(
    deps.boss,
    c,
    ins.rows.map((r) => r.id),
    deps.expireInSeconds,
  );
  if (missing.length) {
    const prev = await c.query<{ id: number; canal: string; mensagem_id: string }>({
      text: `SELECT m.id, m.canal, m.mensagem_id FROM mensagens m
               JOIN unnest($1::text[], $2::text[]) AS t(canal, mensagem_id) USING (canal, mensagem_id)`,
      values: [idx.map((i) => msgs[i]!.canal), idx.map((i) => msgs[i]!.mensagem_id)],
    });
    const ids = new Map(prev.rows.map((r) => [key(r.canal, r.mensagem_id), r.id]));
    for (const i of idx) {
      const o = out[i]!;
      if (o.status === 'duplicada') {
        const id = ids.get(key(msgs[i]!.canal, msgs[i]!.mensagem_id));
        if (id !== undefined) o.id = id;
      }
    }
  }
  return out;
}

/** Counts per status, for the CLI. */
export function countOutcomes(out: readonly EnqueueOutcome[]): Record<EnqueueStatus, number> {
  const n = { aceita: 0, duplicada: 0, recusada: 0 };
  for (const o of out) n[o.status]++;
  return n;
}
