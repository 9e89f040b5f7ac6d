/**
 * `balcao serve`: the channel-facing endpoint `POST /mensagens`.
 * - The body is signed by the channel: `X-Balcao-Signature: sha256=<hex HMAC-SHA256 of the raw
 *   body with BALCAO_INTAKE_SECRET>`, compared in constant time; anything else → 401.
 * - Only `Content-Type: application/json` (any charset parameter) → else 415. Bodies are bounded
 *   (413 past MAX_BODY, counted while reading); a body cut short → 400; JSON and every field are
 *   checked (message.ts) → 400 with a pt-BR reason; an unknown merchant → 400.
 * - Accepted → 202 {status: 'aceita', id}; already received → 202 {status: 'duplicada', id}.
 * Only this route exists; every answer is JSON with `erro` in pt-BR on failure — bytes that are
 * not HTTP included (400 from the parser's 'clientError').
 * One bad request never takes the server down (#40.7): its failure is logged and answered, and
 * the server goes on serving the others.
 * With `tls` it listens HTTPS (#36.3); with `tls.webhookCa` it asks every client for a certificate
 * without requiring one (WhatsApp and the channel have none), and a request to the Pix webhook
 * without a certificate signed by that CA is refused with 403 before its handler runs.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { AppError } from '@shared/errors';
import type { Clock } from '../clock';
import type { Logger } from '../util/logger';
import { enqueueMessages, type EnqueueDeps } from './enqueue';
import { parseMensagem } from './message';
import type { ServeTls } from './serve-tls';

export const MAX_BODY = 64 * 1024;
export const SIGNATURE_HEADER = 'x-balcao-signature';
export const MIN_SECRET_LENGTH = 16;
/** The PSP's callbacks (psp/webhook.ts): the paths mutual TLS guards when configured. */
const PIX_WEBHOOK_PREFIX = '/pix/webhook/';

/** `sha256=<hex>` for a body (what the channel sends; tests and tools use it). */
export function signBody(secret: string, body: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** Constant-time check of the signature header against the raw body. */
export function verifySignature(secret: string, body: Buffer, header: unknown): boolean {
  if (typeof header !== 'string') return false;
  const m = /^sha256=([0-9a-f]{64})$/i.exec(header.trim());
  if (!m?.[1]) return false;
  const given = Buffer.from(m[1].toLowerCase(), 'hex');
  const want = createHmac('sha256', secret).update(body).digest();
  return given.length === want.length && timingSafeEqual(given, want);
}

/** The shared secret, or a pt-BR configuration error. */
export function intakeSecret(env: NodeJS.ProcessEnv = process.env): string {
  const s = env.BALCAO_INTAKE_SECRET ?? '';
  if (s.length < MIN_SECRET_LENGTH) {
    throw new AppError(
      'configuracao',
      `Defina BALCAO_INTAKE_SECRET (segredo compartilhado com o canal, ao menos ${MIN_SECRET_LENGTH} caracteres) para receber mensagens.`,
    );
  }
  return s;
}

class TooLarge extends Error {}
/** The client closed its side before the body it announced was complete. */
class CutShort extends Error {}

const INCOMPLETE = 'Requisição incompleta: a conexão fechou antes do fim do corpo.';

async function readBody(req: IncomingMessage, max: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) throw new TooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > max) throw new TooLarge();
      chunks.push(chunk as Buffer);
    }
  } catch (e) {
    if (e instanceof TooLarge) throw e;
    if (req.aborted || req.destroyed) throw new CutShort();
    throw e;
  }
  return Buffer.concat(chunks);
}

/** `application/json`, with or without parameters (charset). */
export function isJsonContentType(header: string | undefined): boolean {
  const type = (header ?? '').split(';')[0]!.trim().toLowerCase();
  return type === 'application/json';
}

/** The pt-BR answer to bytes the HTTP parser refused (written on the raw socket). */
function parserRefusal(err: Error & { code?: string }): { status: number; erro: string } {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, erro: 'Cabeçalhos grandes demais.' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, erro: 'A requisição demorou demais para chegar; envie de novo.' };
    case 'HPE_INVALID_EOF_STATE':
      return { status: 400, erro: INCOMPLETE };
    default:
      return { status: 400, erro: 'Requisição HTTP malformada.' };
  }
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

export interface IntakeServerOptions extends EnqueueDeps {
  secret: string;
  clock: Clock;
  logger?: Logger;
  port: number;
  host?: string;
  maxBody?: number;
  /** WhatsApp's webhook (#37): handles /whatsapp/webhook, false for other paths. */
  whatsappWebhook?: (req: IncomingMessage, res: ServerResponse, path: string) => Promise<boolean>;
  /** The PSP's Pix callbacks (#36): handles paths under /pix/webhook/, false for others. */
  pixWebhook?: (req: IncomingMessage, res: ServerResponse, path: string) => Promise<boolean>;
  /** HTTPS (serve-tls.ts); with `webhookCa`, mutual TLS for the Pix webhook. */
  tls?: ServeTls;
}

export interface IntakeServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

export async function startIntakeServer(opts: IntakeServerOptions): Promise<IntakeServer> {
  const max = opts.maxBody ?? MAX_BODY;
  const answer = (res: ServerResponse, status: number, body: unknown) => {
    // Already answered, or the socket is gone (closed by the client or by 'clientError').
    if (res.headersSent || res.destroyed || res.socket?.writable === false) return;
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      // The unread rest of a refused body is not read: the connection ends with the answer.
      ...(status === 413 || status === 415 ? { connection: 'close' } : {}),
    });
    res.end(JSON.stringify(body));
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0];
    if (opts.whatsappWebhook && (await opts.whatsappWebhook(req, res, path ?? ''))) return;
    if (opts.tls?.webhookCa && path?.startsWith(PIX_WEBHOOK_PREFIX)) {
      // authorized: the client sent a certificate that verifies against webhookCa (the only CA
      // the server trusts). Nothing is read or stored; the path (it holds the token) is not logged.
      const socket = req.socket as TLSSocket;
      if (socket.authorized !== true) {
        opts.logger?.warn(
          {
            remoto: socket.remoteAddress,
            motivo: String(socket.authorizationError ?? 'sem certificado'),
          },
          'psp: notificação Pix recusada: sem certificado de cliente assinado pela CA do PSP (BALCAO_PSP_WEBHOOK_CA)',
        );
        res.setHeader('connection', 'close');
        return answer(res, 403, {
          erro: 'Certificado de cliente ausente ou não reconhecido: esta rota exige TLS mútuo com o PSP.',
        });
      }
    }
    if (opts.pixWebhook && (await opts.pixWebhook(req, res, path ?? ''))) return;
    if (path !== '/mensagens')
      return answer(res, 404, { erro: 'Rota desconhecida: use POST /mensagens.' });
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      return answer(res, 405, { erro: 'Use POST em /mensagens.' });
    }
    if (!isJsonContentType(req.headers['content-type'])) {
      return answer(res, 415, {
        erro: 'Tipo de conteúdo não aceito: envie o corpo em JSON com Content-Type: application/json.',
      });
    }
    let body: Buffer;
    try {
      body = await readBody(req, max);
    } catch (e) {
      if (e instanceof TooLarge) {
        return answer(res, 413, {
          erro: `Corpo grande demais: o máximo é ${max.toLocaleString('pt-BR')} bytes.`,
        });
      }
      if (e instanceof CutShort) {
        opts.logger?.debug({ url: req.url }, 'intake: requisição incompleta');
        return answer(res, 400, { erro: INCOMPLETE });
      }
      throw e;
    }
    if (!verifySignature(opts.secret, body, req.headers[SIGNATURE_HEADER])) {
      return answer(res, 401, { erro: 'Assinatura inválida ou ausente (X-Balcao-Signature).' });
    }
    let raw: unknown;
    try {
      raw = JSON.parse(body.toString('utf8'));
    } catch {
      return answer(res, 400, { erro: 'Corpo não é JSON válido.' });
    }
    const parsed = parseMensagem(raw, opts.clock.now());
    if (!parsed.ok) return answer(res, 400, { erro: parsed.motivo });
    const [out] = await enqueueMessages(opts, [parsed.value]);
    if (!out || out.status === 'recusada') {
      return answer(res, 400, { erro: out?.motivo ?? 'Mensagem recusada.' });
    }
    return answer(res, 202, { status: out.status, id: out.id });
  };
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((err: unknown) => {
      opts.logger?.error({ err }, 'intake: falha ao receber mensagem');
      const msg =
        err instanceof AppError
          ? err.message
          : 'Erro interno ao receber a mensagem; tente de novo.';
      try {
        answer(res, err instanceof AppError && err.code === 'banco_indisponivel' ? 503 : 500, {
          erro: msg,
        });
      } catch (e) {
        // The socket is gone: nobody to answer. This request failed; the server goes on.
        opts.logger?.warn({ err: e }, 'intake: resposta não enviada');
      }
    });
  };
  const tls = opts.tls;
  const server: Server = tls
    ? createHttpsServer(
        {
          cert: tls.cert,
          key: tls.key,
          ...(tls.webhookCa
            ? { ca: tls.webhookCa, requestCert: true, rejectUnauthorized: false }
            : {}),
        },
        onRequest,
      )
    : createServer(onRequest);
  // Bytes that are not HTTP, a body cut short, headers too large: a pt-BR JSON answer when the
  // socket still takes one (Node's default answers in English, without a body).
  server.on('clientError', (err: Error & { code?: string }, socket: Socket) => {
    opts.logger?.debug({ code: err.code }, 'intake: requisição malformada');
    if (!socket.writable || err.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const { status, erro } = parserRefusal(err);
    const body = JSON.stringify({ erro });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Bad Request'}\r\n` +
        'content-type: application/json; charset=utf-8\r\n' +
        `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // After listening, a server error (e.g. too many open files on accept) is logged: an 'error'
  // event without a listener would end the process.
  server.on('error', (err) => opts.logger?.error({ err }, 'intake: erro no servidor HTTP'));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${tls ? 'https' : 'http'}://${opts.host ?? '127.0.0.1'}:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
