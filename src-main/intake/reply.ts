/**
 * A reply (responde_a = a message or a question of the same channel): it re-runs its thread's
 * item when that item waits for the merchant; otherwise it is recorded on the item.
 */
import type pg from 'pg';
import { loadRerunSource } from '../queue/rerun';
import { writeAudit } from '../queue/audit';
import { withTransaction } from '../db/tx';
import { holdLease, RetryLater, type LeasedMessage } from './lease';

/** The item state of "aguardando lojista" (screens' queue state). */
export const AGUARDANDO_LOJISTA = 'aguardando_lojista';
/** Who the intake writes in the audit log and on charges it creates. */
export const SISTEMA = 'sistema';

/** The thread a reply belongs to: its item, or 'pendente' when the thread is not done yet. */
async function threadItem(
  pool: pg.Pool,
  canal: string,
  respondeA: string,
): Promise<number | 'pendente' | null> {
  const r = await pool.query<{ extracao_id: number | null; estado: string }>({
    text: `SELECT extracao_id, estado FROM mensagens WHERE canal = $1 AND mensagem_id = $2
           UNION ALL
           SELECT extracao_id, 'concluida' FROM mensagens_saida WHERE canal = $1 AND mensagem_id = $2
           LIMIT 1`,
    values: [canal, respondeA],
  });
  const row = r.rows[0];
  if (!row) return null;
  if (row.estado === 'pendente') return 'pendente';
  return row.extracao_id;
}

/** What a message extracts, and when its pieces arrived (the due-date check, #42.1). */
export interface ReplyInput {
  item: number | null;
  texto: string;
  respostas: string[];
  chegadas: { texto: Date | null; respostas: (Date | null)[] };
}

/**
 * What a reply extracts: its item's text and earlier answers plus this one when the item waits
 * for the merchant, 'sem_item' (with the item) when it does not; a message that is no reply, or
 * whose thread has no item, extracts its own text. The thread's text arrived with its first
 * message; of the answers only this one's arrival is known here.
 */
export async function replyInput(
  pool: pg.Pool,
  msg: LeasedMessage,
): Promise<ReplyInput | { sem_item: number }> {
  const own = (): ReplyInput => ({
    item: null,
    texto: msg.texto,
    respostas: [],
    chegadas: { texto: msg.recebida_em, respostas: [] },
  });
  if (!msg.responde_a) return own();
  const t = await threadItem(pool, msg.canal, msg.responde_a);
  if (t === 'pendente') {
    throw new RetryLater('A mensagem respondida ainda não foi processada; tentando depois.');
  }
  if (t === null) return own();
  const c = await pool.connect();
  try {
    const r = await c.query<{ fila_estado: string; chegada: Date | null }>({
      text: `SELECT fila_estado,
                    (SELECT min(m.recebida_em) FROM mensagens m WHERE m.extracao_id = e.id) AS chegada
               FROM extracoes e WHERE id = $1`,
      values: [t],
    });
    const row = r.rows[0];
    if (row?.fila_estado !== AGUARDANDO_LOJISTA) return { sem_item: t };
    const src = await loadRerunSource(c, t);
    return {
      item: t,
      texto: src.texto,
      respostas: [...src.respostas, msg.texto],
      chegadas: {
        texto: row.chegada,
        respostas: [...src.respostas.map(() => null), msg.recebida_em],
      },
    };
  } finally {
    c.release();
  }
}

/** A reply whose thread has no item waiting: recorded on that item for the agents. */
export async function finishWithoutItem(
  pool: pg.Pool,
  msg: LeasedMessage,
  token: string,
  item: number,
): Promise<void> {
  await withTransaction(pool, async (c) => {
    await holdLease(c, msg.id, token);
    await writeAudit(c, {
      operador: SISTEMA,
      acao: 'resposta_registrada',
      extracaoId: item,
      detalhes: { resposta: msg.texto, canal: msg.canal, mensagem_id: msg.mensagem_id },
    });
    await c.query({
      text: `UPDATE mensagens SET estado = 'concluida', resultado = 'sem_item_aberto',
               extracao_id = $2, processada_em = now(), lease_token = NULL, lease_expira_em = NULL
             WHERE id = $1`,
      values: [msg.id, item],
    });
  });
}
