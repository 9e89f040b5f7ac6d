/**
 * Delivery statuses of our messages (`statuses[]` of a webhook delivery: sent, delivered, read,
 * failed) on their outbox rows, matched by wamid — or, for a row whose sending never learned its
 * wamid (the sender died between Meta's answer and its commit), by `biz_opaque_callback_data`,
 * which carries our outbox id: that status reconciles the row (wamid stored, never sent again).
 * Out-of-order safe: a row only moves forward (enviada → entregue → lida); a late `delivered`
 * after `read` changes nothing, and `failed` never undoes a delivery.
 */
import type pg from 'pg';
import { markSentToMerchant } from '../psp/admin';
import { returnItemToPerson } from './back-to-person';
import type { WaStatus } from './payload';
import { motivoStatusFalhou } from './texts';

const ESTADO_DO_STATUS: Record<string, 'enviada' | 'entregue' | 'lida' | 'falhou'> = {
  sent: 'enviada',
  delivered: 'entregue',
  read: 'lida',
  failed: 'falhou',
};

/** `biz_opaque_callback_data` of an outbox row. */
export function callbackData(saidaId: number): string {
  return `balcao-saida:${saidaId}`;
}

/** The outbox id in a `biz_opaque_callback_data`, or null. */
export function saidaOfCallback(data: string | undefined): number | null {
  const m = /^balcao-saida:([1-9][0-9]{0,15})$/.exec(data ?? '');
  const n = m ? Number(m[1]) : NaN;
  return Number.isSafeInteger(n) ? n : null;
}

/**
 * The copia-e-cola / link of a registered charge went out (the sender's answer or a status
 * webhook): the charge becomes `enviada_ao_lojista`, in the caller's transaction. Idempotent:
 * only a `registrada` charge moves, so a repeated status or a second path changes nothing.
 */
export async function chargeReachedMerchant(
  c: pg.PoolClient,
  saidaId: number,
  row: { estado: string; tipo: string; cobranca_id: number | null },
): Promise<boolean> {
  if (row.tipo !== 'cobranca_registrada' || row.cobranca_id === null) return false;
  if (!['enviada', 'entregue', 'lida'].includes(row.estado)) return false;
  return markSentToMerchant(c, row.cobranca_id, 'sistema', { canal: 'whatsapp', saida: saidaId });
}

/** Applies statuses (in their timestamp order) inside the caller's transaction; rows changed. */
export async function applyStatuses(
  c: pg.PoolClient,
  statuses: readonly WaStatus[],
): Promise<number> {
  let n = 0;
  const ordered = [...statuses].sort((a, b) => Number(a.timestamp) - Number(b.timestamp));
  for (const s of ordered) {
    const estado = ESTADO_DO_STATUS[s.status];
    if (!estado) continue;
    const code = s.errors?.[0]?.code;
    const r = await c.query<{
      id: number;
      estado: string;
      antes: string;
      tipo: string;
      cobranca_id: number | null;
    }>({
      text: `UPDATE mensagens_saida SET
               wamid = coalesce(wamid, $1),
               mensagem_id = CASE WHEN wamid IS NULL THEN $1 ELSE mensagem_id END,
               estado = CASE
                 WHEN estado = 'falhou' THEN estado
                 WHEN $2 = 'falhou' THEN
                   CASE WHEN estado IN ('pendente', 'enviando', 'enviada') THEN 'falhou' ELSE estado END
                 WHEN array_position(ARRAY['pendente','enviando','enviada','entregue','lida'], $2::text)
                    > array_position(ARRAY['pendente','enviando','enviada','entregue','lida'], estado)
                   THEN $2
                 ELSE estado END,
               enviada_em = coalesce(enviada_em, $3),
               entregue_em = CASE WHEN $2 IN ('entregue', 'lida') THEN least(coalesce(entregue_em, $3), $3)
                                  ELSE entregue_em END,
               lida_em = CASE WHEN $2 = 'lida' THEN least(coalesce(lida_em, $3), $3) ELSE lida_em END,
               falhou_em = CASE WHEN $2 = 'falhou' AND estado IN ('pendente', 'enviando', 'enviada')
                                THEN $3 ELSE falhou_em END,
               motivo = CASE WHEN $2 = 'falhou' AND estado IN ('pendente', 'enviando', 'enviada')
                             THEN $5 ELSE motivo END,
               erro_codigo = CASE WHEN $2 = 'falhou' AND estado IN ('pendente', 'enviando', 'enviada')
                                  THEN $6 ELSE erro_codigo END,
               em_andamento_ate = CASE WHEN estado = 'enviando' THEN NULL ELSE em_andamento_ate END
             WHERE canal = 'whatsapp' AND (wamid = $1 OR (wamid IS NULL AND id = $4))
             RETURNING id::int AS id, estado, tipo, cobranca_id::int AS cobranca_id,
                       (SELECT estado FROM mensagens_saida o WHERE o.id = mensagens_saida.id) AS antes`,
      values: [
        s.id,
        estado,
        new Date(Number(s.timestamp) * 1000).toISOString(),
        saidaOfCallback(s.biz_opaque_callback_data),
        motivoStatusFalhou(code),
        code ?? null,
      ],
    });
    n += r.rowCount ?? 0;
    // A delivery that failed: the item that waited for this answer goes back to a person.
    for (const row of r.rows) {
      if (row.estado === 'falhou' && row.antes !== 'falhou') {
        await returnItemToPerson(c, row.id, motivoStatusFalhou(code));
      }
      await chargeReachedMerchant(c, row.id, row);
    }
  }
  return n;
}
