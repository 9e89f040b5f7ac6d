/**
 * Test bridge: serves the BUILT renderer (out/renderer) to a real browser over loopback and
 * answers `window.balcao` calls with the SAME handlers and the SAME wrapper (`invokeChannel`)
 * as the Electron main process. Test-only: never imported by src-main, never packaged.
 *
 * - Listens on 127.0.0.1 only, random port; every request needs the random token (given once
 *   at /__bridge/login?token=…, then an HttpOnly SameSite=Strict cookie) and our Host header.
 * - The page's CSP is kept except `connect-src`, widened from 'none' to 'self' so the client
 *   can reach the bridge; nothing else can be reached.
 * - The injected client builds `window.balcao` with `createBalcaoApi`, the function the
 *   preload uses: same shape (invoke + on), same contract checks. Events arrive over SSE.
 * - Each page load is a session (like an Electron window): its own `CallContext.sessionId`,
 *   an AbortSignal fired when the page goes away, and `emit` to that page only.
 * - With `psp` (#36.7): the services talk to that PSP (as main does from BALCAO_PSP_*), the
 *   bridge answers the PSP's webhook (`POST /pix/webhook/{token}/pix`, the handler of
 *   `balcao serve`, without the page's token: the PSP has none) and `pix.step(id)` runs one step
 *   of a charge's dispatch in-process — the body of the `cobrancas` worker's job.
 */
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHANNELS, EVENTS } from '../../src-shared/contract';
import { createHandlers } from '../../src-main/ipc/handlers';
import { invokeChannel } from '../../src-main/ipc/invoke';
import type { CallContext, Handlers } from '../../src-main/ipc/types';
import type { ServiceDeps } from '../../src-main/deps';
import type { AccessGate } from '../../src-main/people/session';
import { createBalcaoApi } from '../../src-main/shell/api-factory';
import { pixClientFromEnv } from '../../src-main/psp';
import { syncCharge, type StepResult } from '../../src-main/psp/dispatch';
import { handlePixWebhook, WEBHOOK_PREFIX } from '../../src-main/psp/webhook';

export const DEFAULT_RENDERER_DIR = fileURLToPath(new URL('../../out/renderer', import.meta.url));
const COOKIE = 'balcao_bridge';
const MAX_BODY = 1_000_000;

export interface BridgeOptions {
  /** Services to call; the bridge builds handlers with createHandlers(deps). */
  deps?: ServiceDeps;
  /** Or ready-made handlers (e.g. to wrap one handler in a test). */
  handlers?: Handlers;
  /** Who may call what (people and permissions, #18), as main passes it; absent: everything. */
  gate?: AccessGate;
  rendererDir?: string;
  /**
   * Point the services at a PSP (needs `deps`): `env` as main reads it (BALCAO_PSP_URL,
   * _CLIENT_ID, _CLIENT_SECRET, _CERT, _KEY, _CA); `webhookToken` opens the webhook route.
   */
  psp?: { env: NodeJS.ProcessEnv; webhookToken: string };
}

export interface BridgeCall {
  sessionId: string;
  channel: string;
  input: unknown;
}

export interface Bridge {
  /** http://127.0.0.1:PORT */
  origin: string;
  /** Open this first: sets the token cookie and redirects to the app. */
  loginUrl: string;
  token: string;
  /** Every call received, in order (for assertions). */
  calls: BridgeCall[];
  /** Live sessions (one per loaded page). */
  sessionIds(): string[];
  /** Push an event to one session (as main's ctx.emit would). */
  emit(sessionId: string, event: string, payload: unknown): void;
  /** Push an event to every session (as main's broadcast does: live queue). */
  broadcast(event: string, payload: unknown): void;
  /** With `psp`: one step of charge `id`'s dispatch, as the worker's job runs it. */
  pix?: { step(cobrancaId: number): Promise<StepResult> };
  close(): Promise<void>;
}

interface Session {
  id: string;
  abort: AbortController;
  streams: Set<ServerResponse>;
  /** Closed when no stream has been attached for a while after the page went away. */
  timer?: NodeJS.Timeout | undefined;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

/** Rewrites the built index.html: connect-src 'self' and the bridge client before any script. */
export function rewriteIndexHtml(html: string): string {
  const cspRe = /(<meta\s+http-equiv="Content-Security-Policy"\s+content=")([^"]*)(")/i;
  const m = cspRe.exec(html);
  if (!m || !m[2]?.includes("connect-src 'none'")) {
    throw new Error("index.html sem CSP com connect-src 'none': o build mudou?");
  }
  const csp = m[2].replace("connect-src 'none'", "connect-src 'self'");
  const withCsp = html.replace(cspRe, `$1${csp}$3`);
  const firstScript = withCsp.search(/<script\b/i);
  const tag = '<script src="/__bridge/client.js"></script>\n    ';
  if (firstScript < 0) throw new Error('index.html sem <script>');
  return withCsp.slice(0, firstScript) + tag + withCsp.slice(firstScript);
}

/** The browser client: a classic script that runs before the app's module script. */
function clientScript(sessionId: string): string {
  return `(() => {
  'use strict';
  const createBalcaoApi = ${createBalcaoApi.toString()};
  const sessionId = ${JSON.stringify(sessionId)};
  const listeners = new Map();
  let source = null;
  const ensureSource = () => {
    if (source) return;
    source = new EventSource('/__bridge/events?session=' + encodeURIComponent(sessionId));
    source.addEventListener('balcao', (ev) => {
      const msg = JSON.parse(ev.data);
      for (const l of listeners.get(msg.event) || []) l(msg.payload);
    });
  };
  ensureSource();
  const transport = {
    invoke(channel, input) {
      return fetch('/__bridge/invoke', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-balcao-session': sessionId },
        body: JSON.stringify({ channel, input }),
      }).then((r) => {
        if (!r.ok) throw new Error('bridge: HTTP ' + r.status);
        return r.json();
      });
    },
    subscribe(event, listener) {
      ensureSource();
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event).add(listener);
      return () => listeners.get(event).delete(listener);
    },
  };
  const api = createBalcaoApi(transport, ${JSON.stringify(CHANNELS)}, ${JSON.stringify(EVENTS)});
  Object.defineProperty(window, 'balcao', { value: api, enumerable: true });
})();
`;
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function cookieValue(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new Error('corpo grande demais');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function startBridge(opts: BridgeOptions): Promise<Bridge> {
  if (opts.psp && !opts.deps) throw new Error('startBridge: psp precisa de deps');
  const pixClient = opts.psp && opts.deps ? pixClientFromEnv(opts.psp.env, opts.deps.clock) : null;
  const deps = opts.deps && opts.psp ? { ...opts.deps, psp: { client: pixClient } } : opts.deps;
  const handlers = opts.handlers ?? (deps ? createHandlers(deps) : undefined);
  if (!handlers) throw new Error('startBridge: informe deps ou handlers');
  const rendererDir = resolve(opts.rendererDir ?? DEFAULT_RENDERER_DIR);
  const indexHtml = rewriteIndexHtml(await readFile(join(rendererDir, 'index.html'), 'utf8'));
  const token = randomBytes(24).toString('base64url');
  const sessions = new Map<string, Session>();
  const calls: BridgeCall[] = [];
  let host = '';

  const send = (
    res: ServerResponse,
    status: number,
    body: string | Buffer,
    type = 'text/plain; charset=utf-8',
  ) => {
    res.writeHead(status, {
      'content-type': type,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    res.end(body);
  };

  const emitTo = (s: Session, event: string, payload: unknown) => {
    const data = JSON.stringify({ event, payload });
    for (const r of s.streams) r.write(`event: balcao\ndata: ${data}\n\n`);
  };

  const ctxFor = (s: Session): CallContext => ({
    sessionId: s.id,
    signal: s.abort.signal,
    emit: (event, payload) => emitTo(s, event, payload),
  });

  const endSessionLater = (s: Session) => {
    clearTimeout(s.timer);
    s.timer = setTimeout(() => {
      if (s.streams.size === 0) {
        s.abort.abort();
        sessions.delete(s.id);
      }
    }, 10_000);
    s.timer.unref();
  };

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      // DNS-rebinding guard: only our exact host.
      if (req.headers.host !== host) return send(res, 421, 'host inválido');
      if (url.pathname === '/__bridge/login') {
        if (!safeEqual(url.searchParams.get('token') ?? '', token)) {
          return send(res, 403, 'token inválido');
        }
        res.writeHead(302, {
          'set-cookie': `${COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`,
          location: '/index.html',
          'cache-control': 'no-store',
        });
        return res.end();
      }
      if (opts.psp && deps && url.pathname.startsWith(WEBHOOK_PREFIX)) {
        const webhook = { pool: deps.dbs.app, token: opts.psp.webhookToken };
        await handlePixWebhook(webhook, req, res, url.pathname);
        return;
      }
      if (!safeEqual(cookieValue(req, COOKIE) ?? '', token)) return send(res, 403, 'sem token');

      if (url.pathname === '/__bridge/client.js') {
        const s: Session = { id: randomUUID(), abort: new AbortController(), streams: new Set() };
        sessions.set(s.id, s);
        endSessionLater(s);
        return send(res, 200, clientScript(s.id), 'text/javascript; charset=utf-8');
      }
      if (url.pathname === '/__bridge/events') {
        const s = sessions.get(url.searchParams.get('session') ?? '');
        if (!s) return send(res, 404, 'sessão desconhecida');
        clearTimeout(s.timer);
        res.writeHead(200, {
          'content-type': 'text/event-stream',
          'cache-control': 'no-store',
          connection: 'keep-alive',
        });
        res.write(': ok\n\n');
        s.streams.add(res);
        req.on('close', () => {
          s.streams.delete(res);
          endSessionLater(s);
        });
        return;
      }
      if (url.pathname === '/__bridge/invoke') {
        if (req.method !== 'POST') return send(res, 405, 'use POST');
        const s = sessions.get(String(req.headers['x-balcao-session'] ?? ''));
        if (!s) return send(res, 403, 'sessão desconhecida');
        let body: { channel?: unknown; input?: unknown };
        try {
          body = JSON.parse(await readBody(req)) as typeof body;
        } catch {
          return send(res, 400, 'JSON inválido');
        }
        const channel = typeof body.channel === 'string' ? body.channel : '';
        calls.push({ sessionId: s.id, channel, input: body.input });
        const result = await invokeChannel(
          handlers,
          channel,
          body.input,
          ctxFor(s),
          undefined,
          opts.gate,
        );
        return send(res, 200, JSON.stringify(result), 'application/json');
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'método');
      if (url.pathname === '/' || url.pathname === '/index.html') {
        return send(res, 200, indexHtml, CONTENT_TYPES['.html']);
      }
      // Static files from the build, never outside it.
      const file = resolve(rendererDir, '.' + decodeURIComponent(url.pathname));
      if (!file.startsWith(rendererDir + sep)) return send(res, 403, 'fora do build');
      try {
        if (!(await stat(file)).isFile()) return send(res, 404, 'não encontrado');
        const type = CONTENT_TYPES[extname(file)] ?? 'application/octet-stream';
        return send(res, 200, await readFile(file), type);
      } catch {
        return send(res, 404, 'não encontrado');
      }
    })().catch(() => {
      if (!res.headersSent) send(res, 500, 'erro no bridge');
      else res.end();
    });
  });

  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ok());
  });
  const port = (server.address() as AddressInfo).port;
  host = `127.0.0.1:${port}`;
  const origin = `http://${host}`;

  return {
    origin,
    token,
    loginUrl: `${origin}/__bridge/login?token=${token}`,
    calls,
    sessionIds: () => [...sessions.keys()],
    emit(sessionId, event, payload) {
      const s = sessions.get(sessionId);
      if (s) emitTo(s, event, payload);
    },
    broadcast(event, payload) {
      for (const s of sessions.values()) emitTo(s, event, payload);
    },
    ...(deps && opts.psp
      ? {
          pix: {
            step: (cobrancaId: number) =>
              syncCharge(
                {
                  pool: deps.dbs.app,
                  client: pixClient,
                  clock: deps.clock,
                  zone: deps.settings.get().timeZone,
                  leaseMs: 30_000,
                },
                cobrancaId,
              ),
          },
        }
      : {}),
    async close() {
      pixClient?.close();
      for (const s of sessions.values()) {
        s.abort.abort();
        clearTimeout(s.timer);
        for (const r of s.streams) r.end();
      }
      sessions.clear();
      await new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      });
    },
  };
}
