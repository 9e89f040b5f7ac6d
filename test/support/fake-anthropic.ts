/**
 * A local fake of the Anthropic Messages API, over real HTTP on 127.0.0.1 (random port), for
 * tests that drive the real @anthropic-ai/sdk through `baseURL`.
 *
 * Usage:
 *   const fake = await startFakeAnthropic();
 *   fake.enqueue(
 *     statusReply(429, { retryAfterMs: 1 }),                  // first HTTP request
 *     toolUseReply('registrar_cobranca', { valor_centavos: 15000, ... }), // second
 *   );
 *   const client = new Anthropic({ apiKey: 'teste', baseURL: fake.url, maxRetries: 2 });
 *   ... run the code under test ...
 *   expect(fake.requests).toHaveLength(2);
 *   expect(fake.requests[1]!.body.messages).toEqual(...);   // what each request carried
 *   await fake.close();
 *
 * Scripting: each POST /v1/messages takes the next queued reply (FIFO). When the queue is empty
 * the optional handler (`fake.handle(fn)`) decides from the request (useful for concurrent
 * batches or benchmarks); without one the fake answers 500 with `x-should-retry: false` and
 * records the request in `unexpected`, so a test that sends one request too many fails loudly.
 *
 * Replies: `toolUseReply` (a tool call, stop_reason tool_use), `textReply` (no tool call),
 * `messageReply` (any Message fields), `statusReply` (an HTTP error with an API error body and
 * optional retry-after-ms), each with an optional `delayMs` before answering (timeouts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** Parsed JSON body (undefined when not JSON). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  /** Time the request arrived (ms, performance.now()). */
  at: number;
}

export interface FakeUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
}

export type FakeReply =
  | {
      kind: 'message';
      /** Fields merged over a default assistant Message. */
      message: Record<string, unknown>;
      delayMs?: number;
      /** Answer only once this settles (see `heldReply`): a request held open for as long as
       * the test needs, whatever the machine's speed. */
      until?: Promise<unknown>;
    }
  | {
      kind: 'status';
      status: number;
      body: unknown;
      headers?: Record<string, string>;
      delayMs?: number;
      until?: Promise<unknown>;
    };

export type FakeHandler = (req: RecordedRequest, index: number) => FakeReply;

export interface FakeAnthropic {
  /** Base URL for `new Anthropic({ baseURL })` / ANTHROPIC_BASE_URL. */
  url: string;
  /** Every request to /v1/messages, in arrival order (including unexpected ones). */
  requests: RecordedRequest[];
  /** Requests that found neither a queued reply nor a handler. */
  unexpected: RecordedRequest[];
  /** Queues replies, consumed one per HTTP request. */
  enqueue(...replies: FakeReply[]): void;
  /** Replies still queued. */
  pending(): number;
  /** Most /v1/messages requests that were open at the same time (bounded-concurrency checks). */
  peakConcurrency(): number;
  /** Fallback when the queue is empty. */
  handle(fn: FakeHandler | undefined): void;
  /** Clears queue, handler and recorded requests (between tests). */
  reset(): void;
  close(): Promise<void>;
}

/** The API key a request carried (`x-api-key`, or `Authorization: Bearer` as SDK 1.x sends it). */
export function apiKeyOf(req: RecordedRequest): string | undefined {
  const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
  return req.headers['x-api-key'] ?? bearer;
}

let counter = 0;
const nextId = (prefix: string) => `${prefix}_fake${(++counter).toString().padStart(6, '0')}`;

function usageOf(u: FakeUsage | undefined) {
  return {
    input_tokens: u?.input_tokens ?? 100,
    output_tokens: u?.output_tokens ?? 20,
    cache_creation_input_tokens: u?.cache_creation_input_tokens ?? 0,
    cache_read_input_tokens: u?.cache_read_input_tokens ?? 0,
  };
}

export interface ReplyOptions {
  usage?: FakeUsage;
  delayMs?: number;
  /** Text block before the tool call (models sometimes think aloud). */
  text?: string;
  /** tool_use id (default: generated). */
  id?: string;
  stopReason?: string;
}

/** A reply with one tool call. */
export function toolUseReply(name: string, input: unknown, opts: ReplyOptions = {}): FakeReply {
  const content: unknown[] = [];
  if (opts.text) content.push({ type: 'text', text: opts.text });
  content.push({ type: 'tool_use', id: opts.id ?? nextId('toolu'), name, input });
  return {
    kind: 'message',
    message: { content, stop_reason: opts.stopReason ?? 'tool_use', usage: usageOf(opts.usage) },
    ...(opts.delayMs !== undefined ? { delayMs: opts.delayMs } : {}),
  };
}

/** A reply with text only (no tool call). */
export function textReply(text: string, opts: ReplyOptions = {}): FakeReply {
  return {
    kind: 'message',
    message: {
      content: [{ type: 'text', text }],
      stop_reason: opts.stopReason ?? 'end_turn',
      usage: usageOf(opts.usage),
    },
    ...(opts.delayMs !== undefined ? { delayMs: opts.delayMs } : {}),
  };
}

/** Any Message fields (content, stop_reason, usage…). */
/**
 * A reply held until the test calls `release()`: for "while request A is in flight, B…" tests
 * without guessing how long A takes on this machine.
 */
export function heldReply(r: FakeReply): { reply: FakeReply; release: () => void } {
  let release!: () => void;
  const until = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { reply: { ...r, until }, release };
}

export function messageReply(message: Record<string, unknown>, delayMs?: number): FakeReply {
  return { kind: 'message', message, ...(delayMs !== undefined ? { delayMs } : {}) };
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

/** An HTTP error reply with the API's error body; `retryAfterMs` sets `retry-after-ms`. */
export function statusReply(
  status: number,
  opts: {
    message?: string;
    retryAfterMs?: number;
    headers?: Record<string, string>;
    delayMs?: number;
  } = {},
): FakeReply {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.retryAfterMs !== undefined) headers['retry-after-ms'] = String(opts.retryAfterMs);
  return {
    kind: 'status',
    status,
    body: {
      type: 'error',
      error: {
        type: ERROR_TYPES[status] ?? 'api_error',
        message: opts.message ?? `fake status ${status}`,
      },
    },
    headers,
    ...(opts.delayMs !== undefined ? { delayMs: opts.delayMs } : {}),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startFakeAnthropic(): Promise<FakeAnthropic> {
  let queue: FakeReply[] = [];
  let handler: FakeHandler | undefined;
  const requests: RecordedRequest[] = [];
  const unexpected: RecordedRequest[] = [];
  let open = 0;
  let peak = 0;

  const send = (res: ServerResponse, reply: FakeReply, model: string) => {
    if (res.destroyed) return;
    if (reply.kind === 'status') {
      res.writeHead(reply.status, {
        'content-type': 'application/json',
        'request-id': nextId('req'),
        ...reply.headers,
      });
      res.end(JSON.stringify(reply.body));
      return;
    }
    const message = {
      id: nextId('msg'),
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: usageOf(undefined),
      ...reply.message,
    };
    res.writeHead(200, { 'content-type': 'application/json', 'request-id': nextId('req') });
    res.end(JSON.stringify(message));
  };

  const server: Server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        body = undefined;
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) {
        if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
      }
      const path = (req.url ?? '').split('?')[0] ?? '';
      const rec: RecordedRequest = {
        method: req.method ?? '',
        path,
        headers,
        body,
        at: performance.now(),
      };
      if (req.method !== 'POST' || path !== '/v1/messages') {
        send(res, statusReply(404, { message: `fake: rota desconhecida ${path}` }), '');
        return;
      }
      const index = requests.length;
      requests.push(rec);
      open++;
      peak = Math.max(peak, open);
      res.on('close', () => {
        open--;
      });
      const model = (body as { model?: string } | undefined)?.model ?? 'fake-model';
      let reply = queue.shift();
      if (!reply && handler) reply = handler(rec, index);
      if (!reply) {
        unexpected.push(rec);
        reply = statusReply(500, {
          message: 'fake: nenhuma resposta programada para esta requisição',
          headers: { 'x-should-retry': 'false' },
        });
      }
      const r = reply;
      if (r.until) {
        let closed = false;
        res.on('close', () => {
          closed = true;
        });
        await r.until.catch(() => undefined);
        if (!closed) send(res, r, model);
      } else if (r.delayMs && r.delayMs > 0) {
        const timer = setTimeout(() => send(res, r, model), r.delayMs);
        res.on('close', () => clearTimeout(timer));
      } else {
        send(res, r, model);
      }
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    unexpected,
    enqueue: (...replies) => {
      queue.push(...replies);
    },
    pending: () => queue.length,
    peakConcurrency: () => peak,
    handle: (fn) => {
      handler = fn;
    },
    reset() {
      queue = [];
      handler = undefined;
      requests.length = 0;
      unexpected.length = 0;
      peak = open;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
