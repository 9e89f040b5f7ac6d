/**
 * The WhatsApp Cloud API as `balcao bench-whatsapp` sees it: a local HTTP server (real HTTP, the
 * product's own Graph client through `BALCAO_WHATSAPP_API_URL`) that takes
 * `POST /v23.0/{phone-number-id}/messages`, checks each request against Meta's published schema
 * (whatsapp-openapi.ts) and the bearer token, answers a unique wamid after `latenciaMs`, and keeps
 * the books: when each outgoing message arrived, the merchant message it answers
 * (`context.message_id`) and our outbox id (`biz_opaque_callback_data`).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkMessageRequest } from './whatsapp-openapi';

export interface GraphSend {
  /** Arrival (Date.now()). */
  chegada: number;
  to: string;
  /** The merchant's message it answers. */
  contexto: string | null;
  /** Our outbox row id (biz_opaque_callback_data). */
  callback: string | null;
  tipo: string;
}

export interface FakeGraphApi {
  /** The base to configure (BALCAO_WHATSAPP_API_URL). */
  apiUrl: string;
  token: string;
  phoneNumberId: string;
  sends: GraphSend[];
  /** Requests refused: schema, token, path (must stay empty). */
  violacoes: { motivo: string }[];
  close(): Promise<void>;
}

export async function startFakeGraphApi(opts: {
  latenciaMs: number;
  phoneNumberId: string;
}): Promise<FakeGraphApi> {
  const token = `bench-${randomBytes(12).toString('hex')}`;
  const sends: GraphSend[] = [];
  const violacoes: { motivo: string }[] = [];
  const prefix = `wamid.bench.${randomBytes(4).toString('hex')}`;
  const path = `/v23.0/${opts.phoneNumberId}/messages`;
  let n = 0;
  const reply = (res: ServerResponse, status: number, body: unknown) => {
    const out = () => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (opts.latenciaMs > 0) setTimeout(out, opts.latenciaMs);
    else out();
  };
  const error = (code: number, message: string) => ({
    error: { message, type: 'OAuthException', code, fbtrace_id: 'ABench' },
  });
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const chegada = Date.now();
      if (req.method !== 'POST' || req.url !== path) {
        violacoes.push({ motivo: `${req.method} ${req.url}` });
        return reply(res, 404, error(803, 'Unknown path'));
      }
      if (req.headers.authorization !== `Bearer ${token}`) {
        violacoes.push({ motivo: 'token' });
        return reply(res, 401, error(190, 'Invalid OAuth access token'));
      }
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        violacoes.push({ motivo: 'JSON inválido' });
        return reply(res, 400, error(100, 'Invalid JSON'));
      }
      const errs = checkMessageRequest(body);
      if (errs.length) {
        violacoes.push({ motivo: errs.join('; ') });
        return reply(res, 400, error(100, `(#100) Invalid parameter: ${errs.join('; ')}`));
      }
      const b = body as {
        to: string;
        type: string;
        context?: { message_id?: string };
        biz_opaque_callback_data?: string;
      };
      sends.push({
        chegada,
        to: b.to,
        contexto: b.context?.message_id ?? null,
        callback: b.biz_opaque_callback_data ?? null,
        tipo: b.type,
      });
      reply(res, 200, {
        messaging_product: 'whatsapp',
        contacts: [{ input: b.to, wa_id: b.to.replace(/^\+/, '') }],
        messages: [{ id: `${prefix}.${++n}` }],
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiUrl: `http://127.0.0.1:${port}/v23.0`,
    token,
    phoneNumberId: opts.phoneNumberId,
    sends,
    violacoes,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
