/**
 * A question that cannot reach the merchant (a closed 24-hour window, an undeliverable number,
 * a refused message, a failed delivery) puts its item back in a person's hands (#37): an item
 * waiting for the merchant returns to the open queue, with the reason in pt-BR in its history.
 * Runs in the transaction that marks the outbox row failed.
 */
import type pg from 'pg';
import { writeAudit } from '../queue/audit';

const SISTEMA = 'sistema';

/** Back to the queue for the failed row `saidaId` (when it belongs to a waiting item). */
export async function returnItemToPerson(
  c: pg.PoolClient,
  saidaId: number,
  motivo: string,
): Promise<number | null> {
  const r = await c.query<{ id: number; antes: string }>({
    text: `WITH s AS (SELECT extracao_id FROM mensagens_saida WHERE id = $1),
                old AS (SELECT e.id, e.fila_estado FROM extracoes e JOIN s ON e.id = s.extracao_id
                         WHERE e.fila_estado = 'aguardando_lojista' OR e.aguardando_desde IS NOT NULL
                         FOR UPDATE OF e)
           UPDATE extracoes e
              SET fila_estado = CASE WHEN e.fila_estado = 'aguardando_lojista' THEN 'aberta'
                                     ELSE e.fila_estado END,
                  aguardando_desde = NULL, atualizada_em = now()
             FROM old WHERE e.id = old.id
           RETURNING e.id::int AS id, old.fila_estado AS antes`,
    values: [saidaId],
  });
  const row = r.rows[0];
  if (!row) return null;
  await writeAudit(c, {
    operador: SISTEMA,
    acao: 'pergunta_nao_enviada',
    extracaoId: row.id,
    antes: { fila_estado: row.antes },
    depois: { fila_estado: row.antes === 'aguardando_lojista' ? 'aberta' : row.antes },
    detalhes: { motivo, saida: saidaId, canal: 'whatsapp' },
  });
  return row.id;
}
