/**
 * `balcao serve`'s WhatsApp route (#37), `/whatsapp/webhook`:
 * - GET: Meta's verification — `hub.mode=subscribe` and `hub.verify_token` equal to
 *   BALCAO_WHATSAPP_VERIFY_TOKEN → 200 with `hub.challenge` as text/plain; anything else → 403.
 * - POST: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body with
 *   BALCAO_WHATSAPP_APP_SECRET>`, compared in constant time before anything is parsed (401
 *   otherwise); then the payload is checked (payload.ts, 400 with a pt-BR reason), stored
 *   (inbound.ts) and only then acknowledged with 200. A storage failure → 500 (503 when the
 *   database is out of reach): Meta delivers again, and the retry is recognised by its wamids.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from '@shared/errors';
import type { Clock } from '../clock';
import type { EnqueueDeps } from '../intake/enqueue';
import { verifySignature } from '../intake/serve';
import type { Logger } from '../util/logger';
import type { WhatsAppWebhookConfig } from './config';
import { storeDelivery } from './inbound';
import { parseDelivery } from './payload';

export const WEBHOOK_PATH = '/whatsapp/webhook';
export const HUB_SIGNATURE_HEADER = 'x-hub-signature-256';
/** Meta's deliveries batch up to 1 000 updates; 1 MiB bounds them with room. */
export const MAX_WEBHOOK_BODY = 1024 * 1024;

export interface WhatsAppWebhookDeps extends EnqueueDeps {
  config: WhatsAppWebhookConfig;
  clock: Clock;
  logger?: Logger | undefined;
  maxBody?: number;
}

function send(res: ServerResponse, status: number, body: unknown, text = false): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, {
    'content-type': text ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    ...(status === 413 ? { connection: 'close' } : {}),
  });
  res.end(text ? String(body) : JSON.stringify(body));
}

/** Equal strings, in time independent of where they differ. */
function sameSecret(a: string, b: string): boolean {
  const h = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(h(a), h(b));
}

class TooLarge extends Error {}

async function readRaw(req: IncomingMessage, max: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) throw new TooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > max) throw new TooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function verify(deps: WhatsAppWebhookDeps, req: IncomingMessage, res: ServerResponse): void {
  const q = new URL(req.url ?? '/', 'http://localhost').searchParams;
  const mode = q.get('hub.mode');
  const token = q.get('hub.verify_token') ?? '';
  const challenge = q.get('hub.challenge') ?? '';
  const want = deps.config.verifyToken;
  if (
    mode === 'subscribe' &&
    want &&
    sameSecret(token, want) &&
    challenge.length > 0 &&
    challenge.length <= 200
  ) {
    send(res, 200, challenge, true);
    return;
  }
  deps.logger?.warn({ mode }, 'whatsapp: verificação do webhook recusada');
  send(res, 403, {
    erro: want
      ? 'Verificação recusada: hub.mode deve ser subscribe e hub.verify_token deve ser o configurado.'
      : 'Verificação recusada: defina BALCAO_WHATSAPP_VERIFY_TOKEN em "balcao serve".',
  });
}

async function receive(
  deps: WhatsAppWebhookDeps,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const secret = deps.config.appSecret;
  if (!secret) {
    send(res, 503, {
      erro: 'WhatsApp não configurado: defina BALCAO_WHATSAPP_APP_SECRET em "balcao serve".',
    });
    return;
  }
  const max = deps.maxBody ?? MAX_WEBHOOK_BODY;
  let body: Buffer;
  try {
    body = await readRaw(req, max);
  } catch (e) {
    if (e instanceof TooLarge) {
      send(res, 413, {
        erro: `Corpo grande demais: o máximo é ${max.toLocaleString('pt-BR')} bytes.`,
      });
      return;
    }
    throw e;
  }
  // Nothing of the body is parsed before its signature is checked.
  if (!verifySignature(secret, body, req.headers[HUB_SIGNATURE_HEADER])) {
    deps.logger?.warn('whatsapp: notificação com assinatura inválida recusada');
    send(res, 401, { erro: 'Assinatura inválida ou ausente (X-Hub-Signature-256).' });
    return;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(body.toString('utf8'));
  } catch {
    send(res, 400, { erro: 'Corpo não é JSON válido.' });
    return;
  }
  const parsed = parseDelivery(raw);
  if (!parsed.ok) {
    deps.logger?.warn({ motivo: parsed.motivo }, 'whatsapp: notificação inválida');
    send(res, 400, { erro: parsed.motivo });
    return;
  }
  try {
    const sum = await storeDelivery(
      {
        pool: deps.pool,
        boss: deps.boss,
        ...(deps.expireInSeconds !== undefined ? { expireInSeconds: deps.expireInSeconds } : {}),
        now: deps.clock.now(),
        phoneNumberId: deps.config.phoneNumberId,
        logger: deps.logger,
      },
      parsed.values,
    );
    deps.logger?.info({ whatsapp: sum }, 'whatsapp: notificação recebida');
    send(res, 200, { status: 'recebida', ...sum });
  } catch (err) {
    deps.logger?.error({ err }, 'whatsapp: falha ao guardar a notificação');
    const unreachable = err instanceof AppError && err.code === 'banco_indisponivel';
    send(res, unreachable ? 503 : 500, {
      erro: 'Não foi possível guardar a notificação agora; o WhatsApp vai reenviá-la.',
    });
  }
}

/**
 * The route's handler for `startIntakeServer`'s hook: answers requests to
 * /whatsapp/webhook (true), leaves every other path to the server (false).
 */
export async function handleWhatsAppWebhook(
  deps: WhatsAppWebhookDeps,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<boolean> {
  if (path !== WEBHOOK_PATH) return false;
  if (req.method === 'GET') verify(deps, req, res);
  else if (req.method === 'POST') await receive(deps, req, res);
  else {
    res.setHeader('allow', 'GET, POST');
    send(res, 405, { erro: 'Use GET (verificação) ou POST (notificações) em /whatsapp/webhook.' });
  }
  return true;
}
