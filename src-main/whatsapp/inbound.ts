/**
 * A webhook delivery of WhatsApp, stored before it is acknowledged (#37):
 * - The merchant of a message is whoever its sending number is registered to
 *   (`lojistas_contatos`), never a field of the payload.
 * - A merchant's text message goes through the intake's one path (enqueueMessages: the
 *   `mensagens` row, canal 'whatsapp', mensagem_id = wamid, and its job in one transaction;
 *   UNIQUE (canal, mensagem_id) makes a retried delivery a no-op), in timestamp order.
 * - Every message is recorded once per wamid in `whatsapp_recebidas`; an unknown number gets
 *   one polite reply (at most one a day per number) and creates nothing else; a message that is
 *   not text (or too long) gets a reply saying what Balcão understands. Replies are outbox rows
 *   (`mensagens_saida`), whose trigger writes the sender's job.
 * - Statuses of our messages (`statuses[]`) update their outbox rows (statuses.ts).
 * A failure anywhere throws (the webhook answers 500 and Meta delivers again); every step is
 * idempotent, so the retry completes what the failed attempt left.
 */
import type pg from 'pg';
import { withTransaction } from '../db/tx';
import { enqueueMessagesIn, type EnqueueDeps } from '../intake/enqueue';
import type { MensagemEntrada } from '../intake/message';
import { TEXTO_MAX } from '../extraction';
import type { Logger } from '../util/logger';
import type { WaMessage, WaValue } from './payload';
import { telefoneFromWaId, telefoneVariants } from './phone';
import { applyStatuses } from './statuses';
import { RESPOSTAS, type TipoResposta } from './texts';

export const CANAL = 'whatsapp';
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export interface InboundDeps extends EnqueueDeps {
  now: Date;
  /** Only messages to this business number are taken (null: any). */
  phoneNumberId: string | null;
  logger?: Logger | undefined;
}

export interface InboundSummary {
  /** Text messages of merchants, new and already known. */
  aceitas: number;
  duplicadas: number;
  /** Messages that created no intake row (unknown number, not text). */
  sem_pedido: number;
  respostas: number;
  status_atualizados: number;
  ignoradas: number;
}

type Kind = 'texto' | TipoResposta;

interface Incoming {
  msg: WaMessage;
  phoneNumberId: string;
  telefone: string;
  merchant: number | null;
  kind: Kind;
  texto: string | null;
  enviadaEm: Date;
}

function cleanBody(s: string): string {
  return s.replaceAll('\u0000', '').replace(LONE_SURROGATE, '\uFFFD').trim();
}

/** Registered merchants of these numbers (exact form first, then the other Brazilian form). */
async function merchantsOf(pool: pg.Pool, telefones: string[]): Promise<Map<string, number>> {
  const all = [...new Set(telefones.flatMap(telefoneVariants))];
  if (!all.length) return new Map();
  const r = await pool.query<{ telefone: string; merchant_id: number }>({
    text: `SELECT telefone, merchant_id::int AS merchant_id FROM lojistas_contatos
            WHERE telefone = ANY($1::text[])`,
    values: [all],
  });
  const byTel = new Map(r.rows.map((x) => [x.telefone, x.merchant_id]));
  const out = new Map<string, number>();
  for (const t of telefones) {
    const m = telefoneVariants(t)
      .map((v) => byTel.get(v))
      .find((x) => x !== undefined);
    if (m !== undefined) out.set(t, m);
  }
  return out;
}

export async function storeDelivery(
  deps: InboundDeps,
  values: readonly WaValue[],
): Promise<InboundSummary> {
  const sum: InboundSummary = {
    aceitas: 0,
    duplicadas: 0,
    sem_pedido: 0,
    respostas: 0,
    status_atualizados: 0,
    ignoradas: 0,
  };
  const taken = values.filter((v) => {
    const ours = !deps.phoneNumberId || v.metadata.phone_number_id === deps.phoneNumberId;
    if (!ours) {
      sum.ignoradas += (v.messages?.length ?? 0) + (v.statuses?.length ?? 0);
      deps.logger?.warn(
        { phone_number_id: v.metadata.phone_number_id },
        'whatsapp: notificação de outro número ignorada',
      );
    }
    return ours;
  });
  const raw = taken.flatMap((v) =>
    (v.messages ?? []).map((msg) => ({ msg, phoneNumberId: v.metadata.phone_number_id })),
  );
  const telefones = new Map<string, string>();
  for (const { msg } of raw) {
    const t = telefoneFromWaId(msg.from);
    if (t) telefones.set(msg.from, t);
  }
  const merchants = await merchantsOf(deps.pool, [...telefones.values()]);
  const maxFuture = deps.now.getTime() + 5 * 60_000;
  const incoming: Incoming[] = [];
  for (const { msg, phoneNumberId } of raw) {
    const telefone = telefones.get(msg.from);
    if (!telefone) {
      sum.ignoradas++;
      deps.logger?.warn({ wamid: msg.id }, 'whatsapp: remetente sem número de telefone válido');
      continue;
    }
    const merchant = merchants.get(telefone) ?? null;
    const ms = Number(msg.timestamp) * 1000;
    const enviadaEm = new Date(Math.min(ms, maxFuture));
    const body = msg.type === 'text' && msg.text ? cleanBody(msg.text.body) : '';
    const kind: Kind =
      merchant === null
        ? 'numero_desconhecido'
        : !body
          ? 'nao_texto'
          : body.length > TEXTO_MAX
            ? 'texto_longo'
            : 'texto';
    incoming.push({
      msg,
      phoneNumberId,
      telefone,
      merchant,
      kind,
      texto: kind === 'texto' ? body : null,
      enviadaEm,
    });
  }
  // Per merchant in the order they were written (then in delivery order).
  const ordered = incoming
    .map((x, i) => ({ x, i }))
    .sort((a, b) => a.x.enviadaEm.getTime() - b.x.enviadaEm.getTime() || a.i - b.i)
    .map((p) => p.x);

  const texts = ordered.filter((x) => x.kind === 'texto');
  const ids = new Map<string, number>();
  const statuses = taken.flatMap((v) => v.statuses ?? []);
  // One transaction, one commit before the 200: the merchants' messages with their jobs, the
  // received rows, the replies and the statuses.
  await withTransaction(deps.pool, async (c) => {
    if (texts.length) {
      const out = await enqueueMessagesIn(
        c,
        deps,
        texts.map((x): MensagemEntrada => {
          const ctx = x.msg.context?.id;
          return {
            canal: CANAL,
            mensagem_id: x.msg.id,
            merchant: x.merchant!,
            texto: x.texto!,
            recebida_em: x.enviadaEm.toISOString(),
            ...(ctx && ctx.length <= 200 ? { responde_a: ctx } : {}),
          };
        }),
      );
      out.forEach((o, i) => {
        if (o.status === 'aceita') sum.aceitas++;
        else if (o.status === 'duplicada') sum.duplicadas++;
        if (o.id !== undefined) ids.set(texts[i]!.msg.id, o.id);
      });
    }

    if (ordered.length) {
      const fresh = await c.query<{ wamid: string }>({
        text: `INSERT INTO whatsapp_recebidas
                 (wamid, telefone, phone_number_id, tipo, merchant_id, mensagem, enviada_em)
               SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[],
                                    $6::bigint[], $7::timestamptz[])
               ON CONFLICT (wamid) DO NOTHING
               RETURNING wamid`,
        values: [
          ordered.map((x) => x.msg.id),
          ordered.map((x) => x.telefone),
          ordered.map((x) => x.phoneNumberId),
          ordered.map((x) => x.msg.type),
          ordered.map((x) => x.merchant),
          ordered.map((x) => ids.get(x.msg.id) ?? null),
          ordered.map((x) => x.enviadaEm.toISOString()),
        ],
      });
      const isFresh = new Set(fresh.rows.map((r) => r.wamid));
      const repliedUnknown = new Set<string>();
      for (const x of ordered) {
        if (x.kind === 'texto') continue;
        if (!isFresh.has(x.msg.id)) continue;
        sum.sem_pedido++;
        if (x.kind === 'numero_desconhecido') {
          // One polite reply a day per unknown number (a flood gets one answer).
          if (repliedUnknown.has(x.telefone)) continue;
          repliedUnknown.add(x.telefone);
          await c.query({
            text: 'SELECT pg_advisory_xact_lock(971, hashtext($1))',
            values: [x.telefone],
          });
          const recent = await c.query({
            text: `SELECT 1 FROM mensagens_saida
                    WHERE telefone = $1 AND tipo = 'numero_desconhecido'
                      AND criada_em > now() - interval '24 hours' LIMIT 1`,
            values: [x.telefone],
          });
          if (recent.rows.length) continue;
        }
        await c.query({
          text: `INSERT INTO mensagens_saida (canal, merchant_id, responde_a, texto, tipo, telefone)
                 VALUES ($1, $2, $3, $4, $5, $6)`,
          values: [CANAL, x.merchant, x.msg.id, RESPOSTAS[x.kind], x.kind, x.telefone],
        });
        sum.respostas++;
      }
    }
    if (statuses.length) sum.status_atualizados = await applyStatuses(c, statuses);
  });
  return sum;
}
