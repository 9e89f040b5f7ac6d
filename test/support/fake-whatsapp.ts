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
 * of `business-messaging-api_v23.0.yaml` (facebook/openapi) for what Balcão sends: bearer
 * token; `messaging_product` = "whatsapp"; `to` a non-empty string; `type` one of the
 * schema's message types; for text, `text.body` a string of 1–4096 characters and
 * `preview_url` boolean; `context.message_id` a string; `recipient_type` "individual";
 * `biz_opaque_callback_data` a string of at most 512; no other top-level field. A violation is
 * recorded and answered as Meta does (HTTP 400, error code 100). Valid requests get
 * `{messaging_product, contacts: [{input, wa_id}], messages: [{id: 'wamid.…'}]}` (unique ids), or the next
 * scripted reply: an error object `{error: {message, type, code, error_data, fbtrace_id}}`
 * with its HTTP status, or a hold (no answer until released: the client's timeout).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

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

const MESSAGE_TYPES = new Set([
  'audio',
  'contacts',
  'document',
  'image',
  'interactive',
  'location',
  'reaction',
  'sticker',
  'template',
  'text',
  'video',
]);
const TOP_LEVEL = new Set([
  'messaging_product',
  'recipient_type',
  'to',
  'type',
  'text',
  'context',
  'biz_opaque_callback_data',
  ...MESSAGE_TYPES,
]);

/** The schema problems of a send request body ([] when valid). */
export function checkSendRequest(b: unknown): string[] {
  const errs: string[] = [];
  if (typeof b !== 'object' || b === null || Array.isArray(b)) return ['body is not an object'];
  const o = b as Record<string, unknown>;
  for (const k of Object.keys(o)) if (!TOP_LEVEL.has(k)) errs.push(`unknown field ${k}`);
  if (o.messaging_product !== 'whatsapp') errs.push('messaging_product must be "whatsapp"');
  if (typeof o.to !== 'string' || !o.to) errs.push('to must be a non-empty string');
  if (o.recipient_type !== undefined && o.recipient_type !== 'individual') {
    errs.push('recipient_type must be "individual"');
  }
  const type = o.type ?? 'text';
  if (typeof type !== 'string' || !MESSAGE_TYPES.has(type)) errs.push('type not in the enum');
  if (type === 'text') {
    const t = o.text as Record<string, unknown> | undefined;
    if (typeof t !== 'object' || t === null) errs.push('text is required for type text');
    else {
      if (typeof t.body !== 'string') errs.push('text.body must be a string');
      else if (t.body.length < 1 || [...t.body].length > 4096) errs.push('text.body 1–4096');
      if (t.preview_url !== undefined && typeof t.preview_url !== 'boolean') {
        errs.push('text.preview_url must be boolean');
      }
    }
  }
  if (type === 'template') errs.push(...checkTemplate(o.template));
  if (o.context !== undefined) {
    const c = o.context as Record<string, unknown> | null;
    if (typeof c !== 'object' || c === null || typeof c.message_id !== 'string') {
      errs.push('context.message_id must be a string');
    }
  }
  if (o.biz_opaque_callback_data !== undefined) {
    const d = o.biz_opaque_callback_data;
    if (typeof d !== 'string' || d.length > 512) errs.push('biz_opaque_callback_data ≤ 512');
  }
  return errs;
}

/**
 * The `template` object of a send (Meta's Template Object): `name` (required, string),
 * `language` (required: `code` a string, `policy` only "deterministic"), `components` (optional
 * array of `{type: header|body|button|footer, parameters?}`); a text parameter is
 * `{type: 'text', text}` with a non-empty text that Meta accepts in a body: no line break, no tab,
 * not more than four spaces in a row. No other field.
 */
export function checkTemplate(t: unknown): string[] {
  const errs: string[] = [];
  if (typeof t !== 'object' || t === null || Array.isArray(t)) {
    return ['template is required for type template'];
  }
  const o = t as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (!['name', 'language', 'components', 'namespace'].includes(k)) {
      errs.push(`unknown field template.${k}`);
    }
  }
  if (typeof o.name !== 'string' || !o.name) errs.push('template.name must be a non-empty string');
  const lang = o.language as Record<string, unknown> | undefined;
  if (typeof lang !== 'object' || lang === null) errs.push('template.language is required');
  else {
    if (typeof lang.code !== 'string' || !lang.code) errs.push('template.language.code required');
    if (lang.policy !== undefined && lang.policy !== 'deterministic') {
      errs.push('template.language.policy must be "deterministic"');
    }
  }
  if (o.components !== undefined) {
    if (!Array.isArray(o.components)) errs.push('template.components must be an array');
    else {
      for (const c of o.components as unknown[]) {
        const comp = c as Record<string, unknown> | null;
        if (typeof comp !== 'object' || comp === null) {
          errs.push('template.components[] must be objects');
          continue;
        }
        if (!['header', 'body', 'button', 'footer'].includes(String(comp.type))) {
          errs.push('template.components[].type not in the enum');
        }
        if (comp.parameters === undefined) continue;
        if (!Array.isArray(comp.parameters)) {
          errs.push('template.components[].parameters must be an array');
          continue;
        }
        for (const p of comp.parameters as unknown[]) {
          const par = p as Record<string, unknown> | null;
          if (typeof par !== 'object' || par === null || typeof par.type !== 'string') {
            errs.push('parameters[].type must be a string');
          } else if (par.type === 'text') {
            if (typeof par.text !== 'string' || !par.text) errs.push('parameters[].text required');
            else if (/[\n\t]| {5,}/.test(par.text)) {
              errs.push(
                'parameters[].text cannot have new-line/tab characters or more than 4 consecutive spaces',
              );
            }
          }
        }
      }
    }
  }
  return errs;
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
