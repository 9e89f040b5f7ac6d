import type { ClaimResult } from '@shared/contract/review';
import { AppError } from '@shared/errors';
import type { Alerta, DadosCobranca, ExtractionStatus, FilaEstado } from '@shared/extraction-types';
import type pg from 'pg';
import { writeAudit } from './audit';
import { query, withTransaction } from '../db/tx';

/** How long a claim lasts without renewal. The open item renews it well before that. */
export const DEFAULT_LEASE_TTL_MS = 90_000;

/**
 * Claims an item for `operador`. The decision is one conditional UPDATE in PostgreSQL: it
 * succeeds only when the item is open and its lease is free or expired (database time), so of
 * any number of simultaneous claimers exactly one gets a row back. Writes 'assumiu' to the
 * audit log in the same transaction.
 *
 * Claiming an item the caller already holds (same login, and same operator on a shared login)
 * gives back the live lease — same token, extended — without a second 'assumiu': opening the item
 * again, or a claim whose COMMIT reached the server but whose reply was lost and which is retried,
 * finds the caller holding it, not "em análise por" themselves.
 */
export async function claim(
  pool: pg.Pool,
  args: { id: number; operador: string; ttlMs?: number },
): Promise<ClaimResult> {
  const ttlMs = args.ttlMs ?? DEFAULT_LEASE_TTL_MS;
  return withTransaction(
    pool,
    async (c) => {
      const won = await c.query<{ token: string; expira_em: Date; ja_era: boolean }>({
        text: `WITH antes AS (SELECT lease_token FROM extracoes WHERE id = $1)
               UPDATE extracoes e
                SET lease_operador = $2,
                    lease_token = CASE WHEN e.lease_token IS NOT NULL AND e.lease_expira_em > now()
                                       THEN e.lease_token ELSE gen_random_uuid() END,
                    lease_expira_em = now() + $3::float8 * interval '1 millisecond'
              WHERE e.id = $1 AND e.fila_estado = 'aberta'
                AND (e.lease_token IS NULL OR e.lease_expira_em <= now()
                     OR (e.lease_login = session_user
                         AND (e.lease_operador = $2 OR balcao_sessao_pessoal())))
          RETURNING e.lease_token AS token, e.lease_expira_em AS expira_em,
                    e.lease_token IS NOT DISTINCT FROM (SELECT lease_token FROM antes) AS ja_era`,
        values: [args.id, args.operador, ttlMs],
      });
      const row = won.rows[0];
      if (row) {
        if (!row.ja_era) {
          await writeAudit(c, {
            operador: args.operador,
            acao: 'assumiu',
            extracaoId: args.id,
            detalhes: { expira_em: row.expira_em.toISOString() },
          });
        }
        return { claimed: true, token: row.token, expiraEm: row.expira_em.toISOString(), ttlMs };
      }
      const cur = await c.query<{
        fila_estado: FilaEstado;
        em_analise_por: string | null;
        resolvida_por: string | null;
      }>({
        text: `SELECT fila_estado, resolvida_por,
                    CASE WHEN lease_expira_em > now() THEN lease_operador END AS em_analise_por
               FROM extracoes WHERE id = $1`,
        values: [args.id],
      });
      const s = cur.rows[0];
      if (!s) throw new AppError('nao_encontrado', `Item ${args.id} não encontrado na fila.`);
      if (s.fila_estado !== 'aberta') {
        return { claimed: false, emAnalisePor: null, mensagem: closedMessage(s) };
      }
      return {
        claimed: false,
        emAnalisePor: s.em_analise_por,
        mensagem: s.em_analise_por
          ? `Em análise por ${s.em_analise_por}. Você pode ver o item, mas só quem está com ele pode agir.`
          : 'Não foi possível assumir o item agora. Tente de novo.',
      };
      // Retried once when the connection dies: re-claiming what the caller holds is safe (above).
    },
    { retry: true },
  );
}

function closedMessage(s: { fila_estado: FilaEstado; resolvida_por: string | null }): string {
  const by = s.resolvida_por ? ` por ${s.resolvida_por}` : '';
  switch (s.fila_estado) {
    case 'resolvida':
      return `Este item já foi resolvido${by}: a cobrança foi criada.`;
    case 'descartada':
      return `Este item foi descartado${by}.`;
    default:
      return 'Este item não precisa de revisão.';
  }
}

/**
 * Extends the caller's lease. Works while nobody else has claimed the item (even just after
 * expiry); otherwise a pt-BR conflict says who has it now.
 */
export async function renew(
  pool: pg.Pool,
  args: { id: number; token: string; ttlMs?: number },
): Promise<{ expiraEm: string }> {
  const ttlMs = args.ttlMs ?? DEFAULT_LEASE_TTL_MS;
  const r = await query<{ expira_em: Date }>(
    pool,
    `UPDATE extracoes SET lease_expira_em = now() + $3::float8 * interval '1 millisecond'
      WHERE id = $1 AND lease_token = $2 AND lease_login = session_user AND fila_estado = 'aberta'
      RETURNING lease_expira_em AS expira_em`,
    [args.id, args.token, ttlMs],
    // Idempotent: extending the caller's own lease twice is the same as once.
    { retry: true },
  );
  if (r[0]) return { expiraEm: r[0].expira_em.toISOString() };
  throw await lostLeaseError(pool, args.id, args.token);
}

/** Gives the item back (closing it). Only the holder's token releases it. */
export async function release(
  pool: pg.Pool,
  args: { id: number; token: string; operador: string },
): Promise<{ liberado: boolean }> {
  return withTransaction(pool, async (c) => {
    const r = await c.query({
      text: `UPDATE extracoes SET lease_operador = NULL, lease_token = NULL, lease_expira_em = NULL
              WHERE id = $1 AND lease_token = $2 AND lease_login = session_user`,
      values: [args.id, args.token],
    });
    if (!r.rowCount) return { liberado: false };
    await writeAudit(c, { operador: args.operador, acao: 'liberou', extracaoId: args.id });
    return { liberado: true };
  });
}

export async function lostLeaseError(
  db: pg.Pool | pg.PoolClient,
  id: number,
  token?: string,
): Promise<AppError> {
  const r = await query<{
    fila_estado: FilaEstado;
    em_analise_por: string | null;
    resolvida_por: string | null;
    de_outro_login: string | null;
  }>(
    db,
    `SELECT fila_estado, resolvida_por,
            CASE WHEN lease_expira_em > now() THEN lease_operador END AS em_analise_por,
            CASE WHEN lease_token = $2::uuid AND lease_login IS DISTINCT FROM session_user
                 THEN coalesce(lease_login, lease_operador) END AS de_outro_login
       FROM extracoes WHERE id = $1`,
    [id, token ?? null],
  );
  const s = r[0];
  if (!s) return new AppError('nao_encontrado', `Item ${id} não encontrado na fila.`);
  if (s.fila_estado !== 'aberta') return new AppError('conflito', closedMessage(s));
  if (s.de_outro_login) {
    // A lease belongs to the login that claimed it: its token is no bearer credential.
    return new AppError(
      'acesso_negado',
      `Esta reserva pertence a ${s.de_outro_login}. Só quem assumiu o item pode usá-la.`,
    );
  }
  if (s.em_analise_por) {
    return new AppError(
      'conflito',
      `Este item está em análise por ${s.em_analise_por}. Só quem está com o item pode agir.`,
    );
  }
  return new AppError(
    'conflito',
    'Sua reserva deste item expirou. Abra o item de novo para continuar.',
  );
}

/** The locked row an action works on. */
export interface LockedRow {
  id: number;
  merchant_id: number;
  texto: string;
  status: ExtractionStatus;
  fila_estado: FilaEstado;
  dados: DadosCobranca | null;
  dados_revisados: DadosCobranca | null;
  /** The item's alerts (a due-date alert asks for the date's confirmation, #42.1). */
  alertas: Alerta[];
  lease_operador: string | null;
  /** The caller's token is the live lease. */
  held: boolean;
}

/** Inside an action's transaction: locks the item row (FOR UPDATE), whoever holds it. */
export async function lockRow(c: pg.PoolClient, id: number, token: string): Promise<LockedRow> {
  const r = await c.query<LockedRow>({
    text: `SELECT id, merchant_id, texto, status, fila_estado, dados, dados_revisados, alertas,
                  lease_operador, (lease_token = $2 AND lease_expira_em > now() AND lease_login = session_user)
                    IS TRUE AS held
             FROM extracoes WHERE id = $1 FOR UPDATE`,
    values: [id, token],
  });
  const row = r.rows[0];
  if (!row) throw new AppError('nao_encontrado', `Item ${id} não encontrado na fila.`);
  return row;
}

/** Refuses, with a pt-BR conflict, unless the caller holds a live lease on an open item. */
export async function assertHeld(c: pg.PoolClient, row: LockedRow, token?: string): Promise<void> {
  if (row.fila_estado === 'aberta' && row.held) return;
  throw await lostLeaseError(c, row.id, token);
}

/** lockRow + assertHeld. */
export async function lockHeld(c: pg.PoolClient, id: number, token: string): Promise<LockedRow> {
  const row = await lockRow(c, id, token);
  await assertHeld(c, row, token);
  return row;
}

/** SQL fragment that clears the lease (for UPDATEs that take an item out of the queue). */
export const CLEAR_LEASE = 'lease_operador = NULL, lease_token = NULL, lease_expira_em = NULL';

/**
 * Gives back every item the session's login holds (sign-out), each with a 'liberou' audit
 * entry. Returns the ids.
 */
export async function releaseAllOf(pool: pg.Pool): Promise<number[]> {
  return withTransaction(pool, async (c) => {
    const r = await c.query<{ id: number }>(
      `WITH soltos AS (
         UPDATE extracoes SET ${CLEAR_LEASE}
          WHERE lease_login = session_user AND lease_token IS NOT NULL
          RETURNING id)
       INSERT INTO auditoria (operador, acao, extracao_id, detalhes)
       SELECT session_user, 'liberou', id, '{"motivo": "saiu"}'::jsonb FROM soltos
       RETURNING extracao_id AS id`,
    );
    return r.rows.map((x) => x.id);
  });
}
