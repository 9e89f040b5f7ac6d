/**
 * The PSP's Pix callbacks (#36), served by `balcao serve`: `POST /pix/webhook/{token}/pix` (the
 * PSP appends `/pix` to the URL registered with `PUT /webhook/{chave}`). The token is
 * BALCAO_PSP_WEBHOOK_TOKEN, compared in constant time; any other path is 404. The body
 * `{"pix": [{endToEndId, txid, valor, horario, ...}]}` is checked with zod, each Pix stored once
 * per endToEndId (a repeated callback changes nothing) and a step of its charge scheduled — the
 * answer does not wait for the PSP. A callback is never trusted alone: the step marks the charge
 * `paga` only after `GET /cob/{txid}` confirms it (see dispatch.ts).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type pg from 'pg';
import { z } from 'zod';
import { query } from '../db/tx';
import type { Logger } from '../util/logger';
import { COBRANCAS_QUEUE } from './worker';

export const WEBHOOK_PREFIX = '/pix/webhook/';
const MAX_BODY = 256 * 1024;

const pixRecebido = z
  .object({
    endToEndId: z.string().regex(/^[a-zA-Z0-9]{32}$/, 'endToEndId inválido'),
    txid: z.string().regex(/^[a-zA-Z0-9]{1,35}$/, 'txid inválido'),
    valor: z.string().regex(/^\d{1,10}\.\d{2}$/, 'valor inválido'),
    horario: z.string().min(1).max(64),
  })
  .passthrough();

export const webhookBody = z.object({ pix: z.array(pixRecebido).min(1).max(1000) });

export interface WebhookDeps {
  pool: pg.Pool;
  token: string;
  logger?: Logger;
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Constant-time: compares digests, so neither content nor length leaks through timing. */
export function tokenMatches(expected: string, given: string): boolean {
  return timingSafeEqual(digest(expected), digest(given));
}

function answer(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

/** Stores the callback's Pix (idempotent per endToEndId) and schedules their charges' steps. */
export async function receivePix(
  deps: Pick<WebhookDeps, 'pool' | 'logger'>,
  body: z.infer<typeof webhookBody>,
): Promise<{ novos: number; repetidos: number; desconhecidos: number }> {
  let novos = 0;
  let repetidos = 0;
  let desconhecidos = 0;
  for (const p of body.pix) {
    // The Pix and the job of its charge's next step commit together (one statement).
    const rows = await query<{ cobranca_id: string | null }>(
      deps.pool,
      `WITH p AS (
         INSERT INTO pix_recebidos (end_to_end_id, txid, valor, horario, corpo, cobranca_id)
         SELECT $1, $2, $3, $4, $5::jsonb,
                (SELECT cobranca_id FROM cobrancas_envios WHERE txid = $2)
         ON CONFLICT (end_to_end_id) DO NOTHING RETURNING cobranca_id),
       j AS (
         INSERT INTO pgboss.job (name, data, retry_limit, retry_delay, retry_backoff, expire_in,
           keep_until, policy)
         SELECT q.name, jsonb_build_object('cobranca', p.cobranca_id), q.retry_limit,
                q.retry_delay, q.retry_backoff, q.expire_seconds * interval '1 second',
                now() + q.retention_minutes * interval '1 minute', q.policy
           FROM p JOIN pgboss.queue q ON q.name = $6 WHERE p.cobranca_id IS NOT NULL)
       SELECT cobranca_id FROM p`,
      [p.endToEndId, p.txid, p.valor, p.horario, JSON.stringify(p), COBRANCAS_QUEUE],
    );
    const r = rows[0];
    if (!r) {
      repetidos++;
      continue;
    }
    novos++;
    if (r.cobranca_id === null) {
      desconhecidos++;
      deps.logger?.warn({ txid: p.txid }, 'psp: Pix recebido para txid desconhecido');
    }
  }
  return { novos, repetidos, desconhecidos };
}

/**
 * Handles a request under /pix/webhook/; false when the path is not this route's (the server
 * answers it as before).
 */
export async function handlePixWebhook(
  deps: WebhookDeps,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<boolean> {
  if (!path.startsWith(WEBHOOK_PREFIX)) return false;
  const m = /^\/pix\/webhook\/([^/]{1,256})\/pix$/.exec(path);
  if (!m?.[1] || !tokenMatches(deps.token, decodeURIComponent(m[1]))) {
    answer(res, 404, { erro: 'Rota desconhecida.' });
    return true;
  }
  if (req.method !== 'POST') {
    res.setHeader('allow', 'POST');
    answer(res, 405, { erro: 'Use POST.' });
    return true;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > MAX_BODY) {
      answer(res, 413, { erro: 'Corpo grande demais.' });
      return true;
    }
    chunks.push(c as Buffer);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    answer(res, 400, { erro: 'Corpo não é JSON válido.' });
    return true;
  }
  const parsed = webhookBody.safeParse(raw);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    answer(res, 400, {
      erro: `Notificação Pix inválida${i ? ` (${i.path.join('.')}: ${i.message})` : ''}.`,
    });
    return true;
  }
  const r = await receivePix(deps, parsed.data);
  answer(res, 200, { recebidos: r.novos, repetidos: r.repetidos });
  return true;
}
