/**
 * The item's conversation with the merchant (#37.4): the merchant's messages of the item
 * (mensagens.extracao_id: the first one and every reply) and ours (mensagens_saida.extracao_id:
 * questions, a charge's copia-e-cola and notices) in time order, with delivery states; and the
 * agent's question, edited in the dialog, written to the outbox of the item's channel in the
 * transaction that records it (audit, the item waits for the merchant). The WhatsApp sender
 * sends it (its row's trigger gives it a job).
 */
import type pg from 'pg';
import type { ItemThread, ThreadMessage } from '@shared/contract/review-thread';
import { withTransaction } from '../db/tx';
import type { QueueContext } from './actions';
import { writeAudit } from './audit';
import { lockHeld } from './lease';

/** The thread of item `id`, oldest first. */
export async function itemThread(pool: pg.Pool, id: number): Promise<ItemThread> {
  const r = await pool.query<ThreadMessage & { em: Date }>({
    text: `SELECT * FROM (
             SELECT 'entrada' AS direcao, m.id::int AS id, m.texto, m.recebida_em AS em, m.canal,
                    NULL::text AS estado, NULL::text AS motivo, NULL::text AS modelo
               FROM mensagens m WHERE m.extracao_id = $1
             UNION ALL
             SELECT 'saida', s.id::int, s.texto, coalesce(s.enviada_em, s.criada_em), s.canal,
                    CASE WHEN s.canal = 'whatsapp' THEN s.estado
                         WHEN s.enviada_em IS NOT NULL THEN 'enviada' ELSE 'pendente' END,
                    s.motivo, s.modelo
               FROM mensagens_saida s WHERE s.extracao_id = $1) t
           ORDER BY em, direcao, id`,
    values: [id],
  });
  const canal = await questionChannel(pool, id);
  return {
    mensagens: r.rows.map((x) => ({ ...x, em: new Date(x.em).toISOString() })),
    canal: canal?.canal ?? null,
  };
}

/** The item's channel and the merchant's latest message there (what a question answers). */
async function questionChannel(
  db: pg.Pool | pg.PoolClient,
  id: number,
): Promise<{ canal: string; responde_a: string; merchant_id: number } | null> {
  const r = await db.query<{ canal: string; responde_a: string; merchant_id: number }>({
    text: `SELECT canal, mensagem_id AS responde_a, merchant_id::int AS merchant_id
             FROM mensagens WHERE extracao_id = $1 ORDER BY recebida_em DESC, id DESC LIMIT 1`,
    values: [id],
  });
  return r.rows[0] ?? null;
}

/**
 * Sends the agent's (edited) question to the merchant through the item's channel: an outbox row
 * answering the merchant's latest message, an audit entry with the text, and the item waits for
 * the merchant — one transaction, under the agent's lease. Without a channel (an item that came
 * from no message) nothing is written but the audit: the agent copies the question by hand.
 */
export async function sendQuestion(
  ctx: QueueContext,
  args: { id: number; token: string; pergunta: string },
): Promise<{ enviada: boolean; canal: string | null }> {
  const operador = ctx.settings.get().operator;
  return withTransaction(ctx.pool, async (c) => {
    await lockHeld(c, args.id, args.token);
    const ch = await questionChannel(c, args.id);
    let saida: number | null = null;
    if (ch) {
      const r = await c.query<{ id: number }>({
        text: `INSERT INTO mensagens_saida (canal, merchant_id, extracao_id, responde_a, texto, tipo)
               VALUES ($1, $2, $3, $4, $5, 'pergunta') RETURNING id::int AS id`,
        values: [ch.canal, ch.merchant_id, args.id, ch.responde_a, args.pergunta],
      });
      saida = r.rows[0]?.id ?? null;
    }
    await c.query({
      text: `UPDATE extracoes SET aguardando_desde = coalesce(aguardando_desde, now()),
               atualizada_em = now() WHERE id = $1`,
      values: [args.id],
    });
    await writeAudit(c, {
      operador,
      acao: 'pergunta_ao_lojista',
      extracaoId: args.id,
      detalhes: { pergunta: args.pergunta, canal: ch?.canal ?? null, saida },
    });
    return { enviada: saida !== null, canal: ch?.canal ?? null };
  });
}
