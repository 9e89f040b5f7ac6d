/**
 * Bulk actions on the review queue (#39.5): a supervisor assigns, discards or reopens several
 * items at once. Each item runs in its own transaction — its change and its audit entry commit
 * together or not at all — through the same functions as the single actions (`discardInTx`,
 * `reopenInTx`), so the rules are the single actions' rules. An item that cannot be changed now
 * (another person holds it, it already left the queue, someone is changing it this instant) is
 * skipped with a pt-BR reason; the others are done.
 */
import type { Assignee, BulkInput, BulkItemResult, BulkResult } from '@shared/contract/review-bulk';
import { AppError } from '@shared/errors';
import { PAPEIS, papeisLabel, type Papel } from '@shared/permissions';
import type pg from 'pg';
import { query, withTransaction } from '../db/tx';
import { GROUP_ROLES } from '../db/roles';
import { discardInTx } from './actions';
import { writeAudit } from './audit';
import { CLEAR_LEASE, lostLeaseError } from './lease';
import { reopenInTx } from './supervisor';

/** What a row locked by another transaction right now says (the item is skipped, not waited on). */
export const MSG_ITEM_OCUPADO =
  'Outra pessoa está alterando este pedido neste instante; nada foi feito nele. Tente de novo.';

/**
 * The people an item can be assigned to: logins that may log in and are members of the queue's
 * roles (suporte, supervisor), by name.
 */
export async function listAssignees(pool: pg.Pool): Promise<Assignee[]> {
  const rows = await query<{ login: string; papeis: string[] }>(
    pool,
    `SELECT r.rolname AS login, array_agg(substr(g.rolname, 8) ORDER BY g.rolname) AS papeis
       FROM pg_roles r
       JOIN pg_auth_members m ON m.member = r.oid
       JOIN pg_roles g ON g.oid = m.roleid
      WHERE g.rolname = ANY($1::text[]) AND r.rolcanlogin AND NOT r.rolsuper
        AND r.rolname NOT LIKE 'balcao\\_%'
      GROUP BY r.rolname ORDER BY r.rolname`,
    [[GROUP_ROLES.suporte, GROUP_ROLES.supervisor]],
  );
  return rows.map((r) => ({
    login: r.login,
    papeis: papeisLabel(r.papeis.filter((p): p is Papel => PAPEIS.includes(p as Papel))),
  }));
}

interface Locked {
  fila_estado: string;
  atribuida_a: string | null;
}

/** Locks the item row without waiting: a row another transaction holds skips the item. */
async function lockNowait(c: pg.PoolClient, id: number): Promise<Locked> {
  let r: pg.QueryResult<Locked>;
  try {
    r = await c.query<Locked>({
      text: 'SELECT fila_estado, atribuida_a FROM extracoes WHERE id = $1 FOR UPDATE NOWAIT',
      values: [id],
    });
  } catch (e) {
    if ((e as { code?: unknown }).code === '55P03')
      throw new AppError('conflito', MSG_ITEM_OCUPADO);
    throw e;
  }
  const row = r.rows[0];
  if (!row) throw new AppError('nao_encontrado', `Pedido ${id} não encontrado na fila.`);
  return row;
}

/**
 * A lease for the caller on an open item that nobody else holds live (free, expired, or the
 * caller's own): the single actions' precondition, taken for the length of this transaction.
 * Otherwise the single actions' own refusal (closed, in another person's hands).
 */
async function holdForAction(
  c: pg.PoolClient,
  id: number,
  operador: string,
): Promise<{ token: string; jaEra: boolean }> {
  const r = await c.query<{ token: string; ja_era: boolean }>({
    text: `WITH antes AS (SELECT lease_token FROM extracoes WHERE id = $1)
           UPDATE extracoes e
              SET lease_operador = $2,
                  lease_token = CASE WHEN e.lease_token IS NOT NULL AND e.lease_expira_em > now()
                                     THEN e.lease_token ELSE gen_random_uuid() END,
                  lease_expira_em = greatest(e.lease_expira_em, now() + interval '1 minute')
            WHERE e.id = $1 AND e.fila_estado = 'aberta'
              AND (e.lease_token IS NULL OR e.lease_expira_em <= now()
                   OR (e.lease_login = session_user
                       AND (e.lease_operador = $2 OR balcao_sessao_pessoal())))
        RETURNING e.lease_token AS token,
                  e.lease_token IS NOT DISTINCT FROM (SELECT lease_token FROM antes) AS ja_era`,
    values: [id, operador],
  });
  const row = r.rows[0];
  if (!row) throw await lostLeaseError(c, id);
  return { token: row.token, jaEra: row.ja_era };
}

async function assignInTx(
  c: pg.PoolClient,
  args: { id: number; para: string; operador: string },
): Promise<void> {
  const cur = await lockNowait(c, args.id);
  if (cur.fila_estado === 'aberta' && cur.atribuida_a === args.para) {
    throw new AppError('conflito', `Já está atribuído a ${args.para}.`);
  }
  const held = await holdForAction(c, args.id, args.operador);
  // The caller's own live lease (another of their windows) stays; a lease taken here goes.
  await c.query({
    text: `UPDATE extracoes SET atribuida_a = $2, atribuida_por = $3, atualizada_em = now()
                  ${held.jaEra ? '' : `, ${CLEAR_LEASE}`}
            WHERE id = $1`,
    values: [args.id, args.para, args.operador],
  });
  await writeAudit(c, {
    operador: args.operador,
    acao: 'atribuida',
    extracaoId: args.id,
    antes: { atribuida_a: cur.atribuida_a },
    depois: { atribuida_a: args.para },
    detalhes: { em_lote: true },
  });
}

/** One item of a bulk action, in its own transaction: done, or skipped with the reason. */
async function one(
  pool: pg.Pool,
  id: number,
  fn: (c: pg.PoolClient) => Promise<void>,
): Promise<BulkItemResult> {
  try {
    await withTransaction(pool, fn);
    return { id, feito: true };
  } catch (e) {
    if (e instanceof AppError && e.code !== 'banco_indisponivel' && e.code !== 'interno') {
      return { id, feito: false, motivo: e.message };
    }
    throw e;
  }
}

/**
 * Runs one bulk action, item by item in the order given. A database that is down stops the run
 * (the error says so); what was done before stays done and audited.
 */
export async function bulkAction(
  pool: pg.Pool,
  input: BulkInput,
  operador: string,
): Promise<BulkResult> {
  if (input.acao === 'atribuir') {
    const pessoas = await listAssignees(pool);
    if (!pessoas.some((p) => p.login === input.para)) {
      throw new AppError(
        'entrada_invalida',
        `Não há "${input.para}" entre as pessoas da fila (suporte ou supervisor).`,
        { para: ['Escolha uma pessoa da lista.'] },
      );
    }
  }
  const itens: BulkItemResult[] = [];
  for (const id of input.ids) {
    switch (input.acao) {
      case 'atribuir':
        itens.push(await one(pool, id, (c) => assignInTx(c, { id, para: input.para, operador })));
        break;
      case 'descartar':
        itens.push(
          await one(pool, id, async (c) => {
            await lockNowait(c, id);
            const { token } = await holdForAction(c, id, operador);
            await discardInTx(c, {
              id,
              token,
              motivo: input.motivo,
              detalhe: input.detalhe,
              operador,
              detalhes: { em_lote: true },
            });
          }),
        );
        break;
      case 'reabrir':
        itens.push(
          await one(pool, id, async (c) => {
            await lockNowait(c, id);
            await reopenInTx(c, {
              id,
              operador,
              motivo: input.motivo,
              detalhes: { em_lote: true },
            });
          }),
        );
        break;
    }
  }
  const feitos = itens.filter((i) => i.feito).length;
  return { acao: input.acao, feitos, ignorados: itens.length - feitos, itens };
}
