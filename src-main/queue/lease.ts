import type { ClaimNextResult, ClaimResult } from '@shared/contract/review';
import { AppError } from '@shared/errors';
import {
  SITUACOES,
  type Alerta,
  type DadosCobranca,
  type ExtractionStatus,
  type FilaEstado,
  type Situacao,
} from '@shared/extraction-types';
import type pg from 'pg';
import { AUDIT_COLS } from './audit';
import {
  DEADLINE_START_SQL,
  DEFAULT_DEADLINE_MINUTES,
  deadlineMinutesOf,
  type DeadlineMinutes,
} from './rows';
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
  // The claim and its 'assumiu' in ONE statement (one round trip, no transaction left open while
  // the client is busy): the row lock lasts as long as the statement, not as long as the slowest
  // desktop's event loop. Retried once when the connection dies: re-claiming what the caller
  // holds is safe (above).
  const won = await query<{ token: string; expira_em: Date }>(
    pool,
    `WITH antes AS (SELECT lease_token FROM extracoes WHERE id = $1),
          ganhou AS (
            UPDATE extracoes e
               SET lease_operador = $2,
                   lease_token = CASE WHEN e.lease_token IS NOT NULL AND e.lease_expira_em > now()
                                      THEN e.lease_token ELSE gen_random_uuid() END,
                   lease_expira_em = now() + $3::float8 * interval '1 millisecond'
             WHERE e.id = $1 AND e.fila_estado = 'aberta'
               AND (e.lease_token IS NULL OR e.lease_expira_em <= now()
                    OR (e.lease_login = session_user
                        AND (e.lease_operador = $2 OR balcao_sessao_pessoal())))
         RETURNING e.id, e.lease_token AS token, e.lease_expira_em AS expira_em,
                   e.lease_token IS NOT DISTINCT FROM (SELECT lease_token FROM antes) AS ja_era),
          registro AS (
            INSERT INTO auditoria (${AUDIT_COLS})
            SELECT $2, 'assumiu', g.id, NULL, NULL,
                   jsonb_build_object('expira_em', to_char(g.expira_em AT TIME ZONE 'UTC',
                                                           'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
              FROM ganhou g WHERE NOT g.ja_era)
     SELECT token, expira_em FROM ganhou`,
    [args.id, args.operador, ttlMs],
    { retry: true },
  );
  const row = won[0];
  if (row) {
    return { claimed: true, token: row.token, expiraEm: row.expira_em.toISOString(), ttlMs };
  }
  const cur = await query<{
    fila_estado: FilaEstado;
    em_analise_por: string | null;
    resolvida_por: string | null;
  }>(
    pool,
    `SELECT fila_estado, resolvida_por,
            CASE WHEN lease_expira_em > now() THEN lease_operador END AS em_analise_por
       FROM extracoes WHERE id = $1`,
    [args.id],
  );
  const s = cur[0];
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
}

/** How many of the first free items of each situation "the next one" looks at. */
const NEXT_CANDIDATES = 16;

/**
 * "Próximo pedido" (#39.1): claims, for `operador`, the first free open item in the queue's
 * default order — the nearest deadline first — that a person can work on now: not waiting for
 * the merchant, not held by anyone, not assigned to someone else; the items a supervisor
 * assigned to the caller come first. One statement: the candidates read from the deadline
 * indexes (migration 1070), the first one whose row nobody is writing this instant taken with
 * FOR UPDATE SKIP LOCKED, claimed and audited. Of any number of agents asking at once each gets a
 * different item, and none waits for another's row lock. `exceto` is the item the caller is
 * leaving. `{ claimed: false }` when there is nothing free.
 */
export async function claimNext(
  pool: pg.Pool,
  args: {
    operador: string;
    ttlMs?: number;
    exceto?: number;
    prazos?: DeadlineMinutes;
  },
): Promise<ClaimNextResult> {
  const ttlMs = args.ttlMs ?? DEFAULT_LEASE_TTL_MS;
  const prazos = args.prazos ?? DEFAULT_DEADLINE_MINUTES;
  const values: unknown[] = [args.operador, ttlMs, args.exceto ?? 0, NEXT_CANDIDATES];
  const p = (v: unknown) => `$${values.push(v)}`;
  const free = `e.fila_estado = 'aberta' AND (e.lease_token IS NULL OR e.lease_expira_em <= now())
                AND e.id <> $3`;
  // The caller's assigned items: few, read from their own index (migration 1080), each with its
  // situation's deadline.
  const minhas = `(SELECT e.id, ${DEADLINE_START_SQL} + make_interval(mins => CASE e.situacao
                      WHEN 'falhou' THEN ${p(deadlineMinutesOf('falhou', prazos))}::int
                      ELSE ${p(deadlineMinutesOf('incompleto', prazos))}::int END) AS prazo,
                    true AS minha
                     FROM extracoes e
                    WHERE ${free} AND e.atribuida_a = $1
                      AND e.situacao <> 'aguardando_lojista'
                    ORDER BY 2, e.id LIMIT $4)`;
  // Everyone's: each situation's first free ones in deadline order (migration 1070's index).
  const branch = (s: Situacao) => {
    const min = p(deadlineMinutesOf(s, prazos));
    return `(SELECT e.id, ${DEADLINE_START_SQL} + make_interval(mins => ${min}::int) AS prazo,
                    false AS minha
               FROM extracoes e
              WHERE ${free} AND e.situacao = ${p(s)} AND e.atribuida_a IS NULL
              ORDER BY ${DEADLINE_START_SQL}, e.id LIMIT $4)`;
  };
  const branches = [
    minhas,
    ...SITUACOES.filter((s) => s !== 'aguardando_lojista').map((s) => branch(s)),
  ];
  const sql = `WITH candidatos AS (
       SELECT k.id, k.prazo, k.minha FROM (${branches.join(' UNION ALL ')}) k
        ORDER BY k.minha DESC, k.prazo, k.id LIMIT $4),
     escolhido AS (
       SELECT e.id FROM extracoes e JOIN candidatos k ON k.id = e.id
        WHERE ${free} AND (e.atribuida_a IS NULL OR e.atribuida_a = $1)
        ORDER BY k.minha DESC, k.prazo, k.id LIMIT 1
          FOR UPDATE OF e SKIP LOCKED),
     ganhou AS (
       UPDATE extracoes e
          SET lease_operador = $1, lease_token = gen_random_uuid(),
              lease_expira_em = now() + $2::float8 * interval '1 millisecond'
         FROM escolhido WHERE e.id = escolhido.id
       RETURNING e.id, e.lease_token AS token, e.lease_expira_em AS expira_em),
     registro AS (
       INSERT INTO auditoria (${AUDIT_COLS})
       SELECT $1, 'assumiu', g.id, NULL, NULL,
              jsonb_build_object('expira_em', to_char(g.expira_em AT TIME ZONE 'UTC',
                                                      'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                                 'proximo', true)
         FROM ganhou g)
     SELECT g.id, g.token, g.expira_em, (SELECT count(*) FROM candidatos)::int AS candidatos
       FROM (SELECT 1) um LEFT JOIN ganhou g ON true`;
  let row: { id: number | null; token: string; expira_em: Date; candidatos: number } | undefined;
  for (const limite of [NEXT_CANDIDATES, NEXT_CANDIDATES * 16]) {
    values[3] = limite;
    // A claim that reached the server but whose answer was lost holds an item the caller never
    // heard of: its lease expires (ttl) — not retried, so no second item is taken.
    row = (await query<NonNullable<typeof row>>(pool, sql, values))[0];
    // Every candidate was being taken by someone else this instant: once more, looking further.
    if (row?.id !== null || !row.candidatos) break;
  }
  if (!row || row.id === null) {
    return { claimed: false, mensagem: 'Não há outro pedido livre na fila agora.' };
  }
  return {
    claimed: true,
    id: row.id,
    token: row.token,
    expiraEm: row.expira_em.toISOString(),
    ttlMs,
  };
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

/** Gives the item back (closing it). Only the holder's token releases it. One statement. */
export async function release(
  pool: pg.Pool,
  args: { id: number; token: string; operador: string },
): Promise<{ liberado: boolean }> {
  const r = await query<{ id: number }>(
    pool,
    `WITH solto AS (
       UPDATE extracoes SET ${CLEAR_LEASE}
        WHERE id = $1 AND lease_token = $2 AND lease_login = session_user
        RETURNING id)
     INSERT INTO auditoria (${AUDIT_COLS})
     SELECT $3, 'liberou', id, NULL, NULL, '{}'::jsonb FROM solto
     RETURNING extracao_id AS id`,
    [args.id, args.token, args.operador],
  );
  return { liberado: r.length > 0 };
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
  /** The charge that stands for the item, when there is one (read under the row lock). */
  cobranca_id: number | null;
}

/** Inside an action's transaction: locks the item row (FOR UPDATE), whoever holds it. */
export async function lockRow(c: pg.PoolClient, id: number, token: string): Promise<LockedRow> {
  const r = await c.query<LockedRow>({
    text: `SELECT id, merchant_id, texto, status, fila_estado, dados, dados_revisados, alertas,
                  lease_operador, (lease_token = $2 AND lease_expira_em > now() AND lease_login = session_user)
                    IS TRUE AS held,
                  (SELECT c.id FROM cobrancas c
                    WHERE c.extracao_id = e.id AND c.devolvida_em IS NULL) AS cobranca_id
             FROM extracoes e WHERE id = $1 FOR UPDATE OF e`,
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
