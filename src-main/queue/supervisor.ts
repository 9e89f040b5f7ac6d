import type { ClaimResult } from '@shared/contract/review';
import { AppError } from '@shared/errors';
import type { FilaEstado } from '@shared/extraction-types';
import type pg from 'pg';
import { writeAudit } from './audit';
import { withTransaction } from '../db/tx';
import { DEFAULT_LEASE_TTL_MS } from './lease';

/**
 * A supervisor takes over an open item another person holds (or nobody holds): a new lease for
 * the caller, audited with both names ('assumiu_de', detalhes.de = who had it). The database
 * (trigger of migration 0720) refuses it to anyone but a supervisor login.
 */
export async function takeOver(
  pool: pg.Pool,
  args: { id: number; operador: string; ttlMs?: number },
): Promise<ClaimResult & { claimed: true }> {
  const ttlMs = args.ttlMs ?? DEFAULT_LEASE_TTL_MS;
  return withTransaction(pool, async (c) => {
    const cur = await c.query<{
      fila_estado: FilaEstado;
      login: string | null;
      operador: string | null;
      viva: boolean;
    }>({
      text: `SELECT fila_estado, lease_login AS login, lease_operador AS operador,
                    coalesce(lease_expira_em > now(), false) AS viva
               FROM extracoes WHERE id = $1 FOR UPDATE`,
      values: [args.id],
    });
    const s = cur.rows[0];
    if (!s) throw new AppError('nao_encontrado', `Item ${args.id} não encontrado na fila.`);
    if (s.fila_estado !== 'aberta') {
      throw new AppError('conflito', 'Este item não está na fila: não há reserva para assumir.');
    }
    const won = await c.query<{ token: string; expira_em: Date; login: string }>({
      text: `UPDATE extracoes
                SET lease_operador = $2, lease_token = gen_random_uuid(),
                    lease_expira_em = now() + $3::float8 * interval '1 millisecond'
              WHERE id = $1
          RETURNING lease_token AS token, lease_expira_em AS expira_em, lease_login AS login`,
      values: [args.id, args.operador, ttlMs],
    });
    const row = won.rows[0]!;
    await writeAudit(c, {
      operador: args.operador,
      acao: 'assumiu_de',
      extracaoId: args.id,
      antes: s.viva ? { login: s.login, operador: s.operador } : null,
      depois: { login: row.login },
      detalhes: {
        de: s.viva ? (s.login ?? s.operador) : null,
        expira_em: row.expira_em.toISOString(),
      },
    });
    return { claimed: true, token: row.token, expiraEm: row.expira_em.toISOString(), ttlMs };
  });
}

/**
 * Undo of a discard: the item goes back to the open queue (supervisors only, enforced by the
 * database), audited with who discarded it and who reopened it. A created charge is final —
 * unless it was cancelled (#39.4: a wrong automatic charge cancelled from the quality review):
 * then the item goes back for a person to redo it, and the cancelled charge stays in its history.
 */
export async function reopen(
  pool: pg.Pool,
  args: { id: number; operador: string; motivo?: string | undefined },
): Promise<{ reaberto: true }> {
  return withTransaction(pool, (c) => reopenInTx(c, args));
}

/**
 * THE reopen, inside the caller's transaction (the single reopen, each item of a bulk reopen,
 * the quality review's redo): the item row locked, the rules above, the change and its
 * 'reaberta' audit entry (`detalhes` adds to it).
 */
export async function reopenInTx(
  c: pg.PoolClient,
  args: {
    id: number;
    operador: string;
    motivo?: string | undefined;
    detalhes?: Record<string, unknown>;
  },
): Promise<{ reaberto: true }> {
  const cur = await c.query<{
    fila_estado: FilaEstado;
    resolvida_por: string | null;
    resolvida_por_login: string | null;
    descarte_motivo: string | null;
  }>({
    text: `SELECT fila_estado, resolvida_por, resolvida_por_login, descarte_motivo
             FROM extracoes WHERE id = $1 FOR UPDATE`,
    values: [args.id],
  });
  const s = cur.rows[0];
  if (!s) throw new AppError('nao_encontrado', `Item ${args.id} não encontrado na fila.`);
  let cobrancaCancelada: number | null = null;
  if (s.fila_estado === 'resolvida') {
    // The charge that stands for the item, and whether it was cancelled at the PSP.
    const ch = await c.query<{ id: string; estado: string | null }>({
      text: `SELECT c.id, e.estado FROM cobrancas c
               LEFT JOIN cobrancas_envios e ON e.cobranca_id = c.id
              WHERE c.extracao_id = $1 AND c.devolvida_em IS NULL FOR UPDATE OF c`,
      values: [args.id],
    });
    const charge = ch.rows[0];
    if (!charge || charge.estado !== 'cancelada') {
      throw new AppError(
        'conflito',
        'A cobrança deste item já foi criada: ela é definitiva e o item não pode ser reaberto.',
      );
    }
    cobrancaCancelada = Number(charge.id);
    await c.query({
      text: `UPDATE cobrancas SET devolvida_em = now(), devolvida_por = $2 WHERE id = $1`,
      values: [cobrancaCancelada, args.operador],
    });
  } else if (s.fila_estado !== 'descartada') {
    throw new AppError('conflito', 'Só um item descartado pode ser reaberto.');
  }
  await c.query({
    text: `UPDATE extracoes
              SET fila_estado = 'aberta', resolvida_por = NULL, resolvida_em = NULL,
                  descarte_motivo = NULL, descarte_detalhe = NULL, atualizada_em = now()
            WHERE id = $1`,
    values: [args.id],
  });
  await writeAudit(c, {
    operador: args.operador,
    acao: 'reaberta',
    extracaoId: args.id,
    antes: {
      fila_estado: s.fila_estado,
      ...(cobrancaCancelada === null
        ? { descarte_motivo: s.descarte_motivo }
        : { cobranca_id: cobrancaCancelada }),
    },
    depois: { fila_estado: 'aberta' },
    detalhes: {
      ...(cobrancaCancelada === null
        ? { descartada_por: s.resolvida_por_login ?? s.resolvida_por }
        : // Who created the charge: its label ("sistema" for the automatic ones).
          { resolvida_por: s.resolvida_por ?? s.resolvida_por_login }),
      ...(args.motivo ? { motivo: args.motivo } : {}),
      ...args.detalhes,
    },
  });
  return { reaberto: true };
}
