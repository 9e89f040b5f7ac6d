/**
 * `balcao serve`: the channel-facing endpoint `POST /mensagens`.
 * - The body is signed by the channel: `X-Balcao-Signature: sha256=<hex HMAC-SHA256 of the raw
 *   body with BALCAO_INTAKE_SECRET>`, compared in constant time; anything else → 401.
 * - Bodies are bounded (413 past MAX_BODY, counted while reading); JSON and every field are
 *   checked (message.ts) → 400 with a pt-BR reason; an unknown merchant → 400.
 * - Accepted → 202 {status: 'aceita', id}; already received → 202 {status: 'duplicada', id}.
 * Only this route exists; every answer is JSON with `erro` in pt-BR on failure.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppError } from '@shared/errors';
import type { Clock } from '../clock';
import type { Logger } from '../util/logger';
import { enqueueMessages, type EnqueueDeps } from './enqueue';
import { parseMensagem } from './message';

export const MAX_BODY = 64 * 1024;
export const SIGNATURE_HEADER = 'x-balcao-signature';
export const MIN_SECRET_LENGTH = 16;

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

async function readBody(req: IncomingMessage, max: number): Promise<Buffer> {
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

export interface IntakeServerOptions extends EnqueueDeps {
  secret: string;
  clock: Clock;
  logger?: Logger;
  port: number;
  host?: string;
  maxBody?: number;
  /** The PSP's Pix callbacks (#36): handles paths under /pix/webhook/, false for others. */
  pixWebhook?: (req: IncomingMessage, res: ServerResponse, path: string) => Promise<boolean>;
}

export interface IntakeServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

export async function startIntakeServer(opts: IntakeServerOptions): Promise<IntakeServer> {
  const max = opts.maxBody ?? MAX_BODY;
  const answer = (res: ServerResponse, status: number, body: unknown) => {
    if (res.headersSent) return;
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      ...(status === 413 ? { connection: 'close' } : {}),
    });
    res.end(JSON.stringify(body));
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0];
    if (opts.pixWebhook && (await opts.pixWebhook(req, res, path ?? ''))) return;
    if (path !== '/mensagens')
      return answer(res, 404, { erro: 'Rota desconhecida: use POST /mensagens.' });
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      return answer(res, 405, { erro: 'Use POST em /mensagens.' });
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
  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      opts.logger?.error({ err }, 'intake: falha ao receber mensagem');
      const msg =
        err instanceof AppError
          ? err.message
          : 'Erro interno ao receber a mensagem; tente de novo.';
      answer(res, err instanceof AppError && err.code === 'banco_indisponivel' ? 503 : 500, {
        erro: msg,
      });
    });
  });
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${opts.host ?? '127.0.0.1'}:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
