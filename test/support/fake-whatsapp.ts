/**
 * A local fake of Meta's WhatsApp Business Cloud API over real HTTP on 127.0.0.1 (random port),
 * plus a player of Meta's webhook deliveries at `balcao serve`, signed like Meta signs them.
 *
 *   const fake = await startFakeWhatsApp({ token: 'tok', phoneNumberId: '1234' });
 *   // BALCAO_WHATSAPP_API_URL = fake.apiUrl  (…/v23.0)
 *   fake.script(graphError(131047, 400));      // the next send answers that error
 *   ... run the sender ...
 *   expect(fake.sends).toHaveLength(1);        // valid send requests received
 *   expect(fake.violations).toEqual([]);       // requests that broke the published schema
 *
 * Each `POST /v23.0/{Phone-Number-ID}/messages` is checked against the `Message` request schema
 * of `business-messaging-api_v23.0.yaml` (facebook/openapi), transcribed with its source in
 * src-main/bench/whatsapp-openapi.ts — text and template messages, field names, types, enums and
 * required lists as published — plus a bearer token and a JSON content type. A violation is
 * recorded and answered as Meta does (HTTP 400, error code 100). Valid requests get
 * `{messaging_product, contacts: [{input, wa_id}], messages: [{id: 'wamid.…'}]}` (unique ids), or the next
 * scripted reply: an error object `{error: {message, type, code, error_data, fbtrace_id}}`
 * with its HTTP status, or a hold (no answer until released: the client's timeout).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkMessageRequest } from '../../src-main/bench/whatsapp-openapi';

export interface SendRequest {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  headers: Record<string, string | string[] | undefined>;
  /** The wamid answered (undefined when an error or a hold was answered). */
  wamid?: string;
}

export type ScriptedReply =
  | { kind: 'error'; status: number; code: number; message: string }
  | { kind: 'hold'; until: Promise<unknown> };

export function graphError(code: number, status = 400, message?: string): ScriptedReply {
  return { kind: 'error', status, code, message: message ?? `(#${code}) erro simulado` };
}

export function heldReply(until: Promise<unknown>): ScriptedReply {
  return { kind: 'hold', until };
}

export interface FakeWhatsApp {
  /** The API base to configure (BALCAO_WHATSAPP_API_URL). */
  apiUrl: string;
  /** Every request that passed the schema check, in arrival order. */
  sends: SendRequest[];
  /** Requests that broke the schema (or the auth), with why. */
  violations: { motivo: string; body: unknown }[];
  script(...replies: ScriptedReply[]): void;
  /** Resolves at the next valid send request (before it is answered). */
  nextSend(): Promise<SendRequest>;
  close(): Promise<void>;
}

/**
 * The schema problems of a send request body ([] when valid): Meta's published `Message`
 * schema and the reference page's extras (src-main/bench/whatsapp-openapi.ts says what was
 * transcribed from facebook/openapi and how it is read).
 */
export function checkSendRequest(b: unknown): string[] {
  return checkMessageRequest(b);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const errorBody = (code: number, message: string) => ({
  error: {
    message,
    type: code === 190 ? 'OAuthException' : 'GraphMethodException',
    code,
    error_data: { messaging_product: 'whatsapp', details: message },
    fbtrace_id: 'AFakeTraceId',
  },
});

export async function startFakeWhatsApp(opts: {
  token: string;
  phoneNumberId: string;
  /** Numbers (wa_id digits) whose 24-hour window is closed: a non-template send gets 131047. */
  janelaFechada?: Set<string>;
}): Promise<FakeWhatsApp> {
  const sends: SendRequest[] = [];
  const violations: FakeWhatsApp['violations'] = [];
  const queue: ScriptedReply[] = [];
  const waiters: ((r: SendRequest) => void)[] = [];
  let n = 0;
  // Unique across fakes, as Meta's are.
  const prefix = `wamid.fake.${randomBytes(4).toString('hex')}`;
  const path = `/v23.0/${opts.phoneNumberId}/messages`;
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readJson(req);
      if (req.method !== 'POST' || req.url !== path) {
        violations.push({ motivo: `unexpected ${req.method} ${req.url}`, body });
        return json(res, 404, errorBody(803, 'Unknown path'));
      }
      if (req.headers.authorization !== `Bearer ${opts.token}`) {
        violations.push({ motivo: 'bad bearer token', body });
        return json(res, 401, errorBody(190, 'Invalid OAuth access token'));
      }
      if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) {
        violations.push({ motivo: 'content-type is not application/json', body });
        return json(res, 400, errorBody(100, 'Invalid content type'));
      }
      const errs = checkSendRequest(body);
      if (errs.length) {
        violations.push({ motivo: errs.join('; '), body });
        return json(res, 400, errorBody(100, `(#100) Invalid parameter: ${errs.join('; ')}`));
      }
      const rec: SendRequest = { body, headers: req.headers };
      sends.push(rec);
      waiters.shift()?.(rec);
      const b = body as { to: string; type?: string };
      if (opts.janelaFechada?.has(b.to) && b.type !== 'template') {
        return json(
          res,
          400,
          errorBody(
            131047,
            'Re-engagement message: more than 24 hours have passed since the recipient last replied.',
          ),
        );
      }
      const next = queue.shift();
      if (next?.kind === 'error') return json(res, next.status, errorBody(next.code, next.message));
      if (next?.kind === 'hold') {
        await next.until.catch(() => undefined);
        res.destroy();
        return;
      }
      rec.wamid = `${prefix}.${++n}`;
      const to = (body as { to: string }).to;
      return json(res, 200, {
        messaging_product: 'whatsapp',
        contacts: [{ input: to, wa_id: to.replace(/^\+/, '') }],
        messages: [{ id: rec.wamid }],
      });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiUrl: `http://127.0.0.1:${port}/v23.0`,
    sends,
    violations,
    script: (...r) => void queue.push(...r),
    nextSend: () => new Promise((resolve) => waiters.push(resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---- Meta's webhook deliveries, signed, played at `balcao serve` ----

export interface WaTextIn {
  from: string;
  id: string;
  /** Unix seconds. */
  timestamp: number;
  body?: string;
  type?: string;
  contextId?: string;
}

export function waMessage(m: WaTextIn): Record<string, unknown> {
  const type = m.type ?? 'text';
  return {
    from: m.from,
    id: m.id,
    timestamp: String(m.timestamp),
    type,
    ...(type === 'text' ? { text: { body: m.body ?? '' } } : {}),
    ...(type === 'audio'
      ? { audio: { id: 'media.1', mime_type: 'audio/ogg; codecs=opus', voice: true } }
      : {}),
    ...(m.contextId ? { context: { from: '15550001111', id: m.contextId } } : {}),
  };
}

export function waStatus(s: {
  id: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  timestamp: number;
  recipient: string;
  callback?: string;
  errorCode?: number;
}): Record<string, unknown> {
  return {
    id: s.id,
    status: s.status,
    timestamp: String(s.timestamp),
    recipient_id: s.recipient,
    ...(s.callback ? { biz_opaque_callback_data: s.callback } : {}),
    ...(s.errorCode !== undefined
      ? { errors: [{ code: s.errorCode, title: 'erro', message: 'erro' }] }
      : {}),
  };
}

/** One `entry` of a delivery: a `messages` change for the business number. */
export function waEntry(
  phoneNumberId: string,
  value: { messages?: Record<string, unknown>[]; statuses?: Record<string, unknown>[] },
): Record<string, unknown> {
  const contacts = (value.messages ?? []).map((m) => ({
    profile: { name: 'Lojista' },
    wa_id: m.from,
  }));
  return {
    id: 'WABA-1',
    changes: [
      {
        field: 'messages',
        value: {
          messaging_product: 'whatsapp',
          metadata: { display_phone_number: '15550001111', phone_number_id: phoneNumberId },
          ...(contacts.length ? { contacts } : {}),
          ...value,
        },
      },
    ],
  };
}

export function waDelivery(...entries: Record<string, unknown>[]): string {
  return JSON.stringify({ object: 'whatsapp_business_account', entry: entries });
}

export function hubSignature(appSecret: string, body: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`;
}

/** POSTs a delivery to `{serverUrl}/whatsapp/webhook`, signed with `appSecret` (or `signature`). */
export async function playDelivery(
  serverUrl: string,
  appSecret: string,
  body: string,
  signature: string | null = hubSignature(appSecret, body),
): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await fetch(`${serverUrl}/whatsapp/webhook`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(signature !== null ? { 'x-hub-signature-256': signature } : {}),
    },
    body,
  });
  const text = await r.text();
  try {
    return { status: r.status, body: JSON.parse(text) as Record<string, unknown> };
  } catch {
    return { status: r.status, body: { texto: text } };
  }
}
