/**
 * An API Pix client (Banco Central's standard, v2): OAuth2 client credentials (token cached until
 * shortly before it expires, renewed once on a 401) over mutual TLS. Every failure leaves as a
 * {@link PspError} that says whether a retry may help: timeouts, connection errors, 429 (with
 * Retry-After) and 5xx are `transitorio`; 409 is `conflito`; 404 `nao_encontrado`; any other 4xx
 * is `recusado`, with the PSP's reason in pt-BR — never retried blindly.
 */
import { Agent, request } from 'node:https';
import type { Clock } from '../clock';
import type { PspConfig } from './config';

export type PspErrorKind = 'transitorio' | 'recusado' | 'conflito' | 'nao_encontrado';

export class PspError extends Error {
  constructor(
    readonly kind: PspErrorKind,
    message: string,
    readonly status: number | null = null,
    readonly retryAfterS: number | null = null,
  ) {
    super(message);
    this.name = 'PspError';
  }
}

export interface PspAnswer {
  status: number;
  body: unknown;
}

/** What the API Pix answers for a charge (the fields Balcão reads). */
export interface CobGerada {
  txid?: string;
  status?: string;
  location?: string;
  pixCopiaECola?: string;
  chave?: string;
  valor?: { original?: string };
  calendario?: { expiracao?: number; dataDeVencimento?: string };
  pix?: { endToEndId?: string; valor?: string; horario?: string }[];
}

export interface PixClient {
  putCob(txid: string, body: object): Promise<CobGerada>;
  putCobv(txid: string, body: object): Promise<CobGerada>;
  getCob(txid: string): Promise<CobGerada>;
  getCobv(txid: string): Promise<CobGerada>;
  patchCob(txid: string, body: object): Promise<CobGerada>;
  patchCobv(txid: string, body: object): Promise<CobGerada>;
  putWebhook(chave: string, webhookUrl: string): Promise<void>;
  close(): void;
}

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

const MAX_ANSWER = 1024 * 1024;

function parseJson(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : null;
  } catch {
    return null;
  }
}

/** The PSP's problem body (RFC 7807 with `violacoes`) as one pt-BR sentence, bounded. */
export function problemText(body: unknown): string {
  if (!body || typeof body !== 'object') return '';
  const b = body as { title?: unknown; detail?: unknown; violacoes?: unknown };
  const parts: string[] = [];
  if (typeof b.title === 'string') parts.push(b.title.trim());
  if (typeof b.detail === 'string') parts.push(b.detail.trim());
  if (Array.isArray(b.violacoes)) {
    const v = b.violacoes
      .map((x: { razao?: unknown; propriedade?: unknown }) =>
        [x.propriedade, x.razao].filter((s) => typeof s === 'string').join(': '),
      )
      .filter(Boolean);
    if (v.length) parts.push(`Violações: ${v.join('; ')}`);
  }
  return parts.join(' ').slice(0, 500);
}

function retryAfter(h: string | string[] | undefined, now: Date): number | null {
  const v = Array.isArray(h) ? h[0] : h;
  if (!v) return null;
  if (/^\d+$/.test(v.trim())) return Math.min(3600, Number(v.trim()));
  const at = Date.parse(v);
  return Number.isNaN(at)
    ? null
    : Math.max(0, Math.min(3600, Math.ceil((at - now.getTime()) / 1000)));
}

export function createPixClient(cfg: PspConfig, deps: { clock: Clock }): PixClient {
  const agent = new Agent({
    keepAlive: true,
    maxSockets: 16,
    ...(cfg.cert ? { cert: cfg.cert } : {}),
    ...(cfg.key ? { key: cfg.key } : {}),
    ...(cfg.ca ? { ca: cfg.ca } : {}),
  });
  let token: { value: string; until: number } | null = null;
  let fetching: Promise<string> | null = null;

  const send = (
    method: string,
    url: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<RawAnswer> =>
    new Promise((resolve, reject) => {
      const req = request(
        url,
        {
          method,
          agent,
          headers: {
            accept: 'application/json',
            ...headers,
            ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}),
          },
          timeout: cfg.timeoutMs,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            size += c.length;
            if (size > MAX_ANSWER) {
              req.destroy(new Error('resposta grande demais'));
              return;
            }
            chunks.push(c);
          });
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              text: Buffer.concat(chunks).toString('utf8'),
            }),
          );
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error('tempo esgotado')));
      req.on('error', (e) =>
        reject(
          new PspError(
            'transitorio',
            e.message === 'tempo esgotado'
              ? `O PSP não respondeu em ${Math.round(cfg.timeoutMs / 1000)} s.`
              : 'Não foi possível falar com o PSP (conexão recusada ou interrompida).',
          ),
        ),
      );
      if (body !== undefined) req.write(body);
      req.end();
    });

  const fetchToken = async (): Promise<string> => {
    const basic = Buffer.from(`${cfg.clientId}:${cfg.clientSecret}`).toString('base64');
    const r = await send(
      'POST',
      cfg.tokenUrl,
      { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      'grant_type=client_credentials',
    );
    if (r.status === 429 || r.status >= 500) {
      throw new PspError(
        'transitorio',
        `O PSP não emitiu o token agora (HTTP ${r.status}).`,
        r.status,
        retryAfter(r.headers['retry-after'], deps.clock.now()),
      );
    }
    const b = parseJson(r.text) as { access_token?: unknown; expires_in?: unknown } | null;
    if (r.status !== 200 || typeof b?.access_token !== 'string') {
      throw new PspError(
        'recusado',
        `O PSP recusou as credenciais (HTTP ${r.status}): confira BALCAO_PSP_CLIENT_ID, BALCAO_PSP_CLIENT_SECRET e o certificado.`,
        r.status,
      );
    }
    const ttl = typeof b.expires_in === 'number' && b.expires_in > 0 ? b.expires_in : 300;
    // Renewed 30 s (or a tenth of its life) before it expires.
    const margin = Math.min(30, ttl / 10);
    token = { value: b.access_token, until: deps.clock.now().getTime() + (ttl - margin) * 1000 };
    return b.access_token;
  };

  const getToken = async (): Promise<string> => {
    if (token && token.until > deps.clock.now().getTime()) return token.value;
    fetching ??= fetchToken().finally(() => {
      fetching = null;
    });
    return fetching;
  };

  const call = async (method: string, path: string, body?: object): Promise<PspAnswer> => {
    const json = body === undefined ? undefined : JSON.stringify(body);
    const once = async () =>
      send(
        method,
        `${cfg.url}${path}`,
        {
          authorization: `Bearer ${await getToken()}`,
          ...(json !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        json,
      );
    let r = await once();
    if (r.status === 401) {
      // Expired or revoked before its time: one new token, one more try.
      token = null;
      r = await once();
    }
    const parsed = parseJson(r.text);
    if (r.status >= 200 && r.status < 300) return { status: r.status, body: parsed };
    const why = problemText(parsed);
    const suffix = why ? `: ${why}` : '.';
    if (r.status === 429 || r.status >= 500 || r.status === 408) {
      throw new PspError(
        'transitorio',
        `O PSP está indisponível ou limitando chamadas (HTTP ${r.status})${suffix}`,
        r.status,
        retryAfter(r.headers['retry-after'], deps.clock.now()),
      );
    }
    if (r.status === 409) throw new PspError('conflito', `O PSP já tem este txid${suffix}`, 409);
    if (r.status === 404)
      throw new PspError('nao_encontrado', `O PSP não conhece esta cobrança${suffix}`, 404);
    if (r.status === 401 || r.status === 403) {
      throw new PspError(
        'recusado',
        `O PSP recusou o acesso (HTTP ${r.status}): confira as credenciais e o certificado${suffix}`,
        r.status,
      );
    }
    throw new PspError(
      'recusado',
      `O PSP recusou a cobrança (HTTP ${r.status})${suffix}`,
      r.status,
    );
  };

  const cob = (b: unknown): CobGerada => (b && typeof b === 'object' ? (b as CobGerada) : {});
  const enc = encodeURIComponent;
  return {
    putCob: async (txid, body) => cob((await call('PUT', `/cob/${enc(txid)}`, body)).body),
    putCobv: async (txid, body) => cob((await call('PUT', `/cobv/${enc(txid)}`, body)).body),
    getCob: async (txid) => cob((await call('GET', `/cob/${enc(txid)}`)).body),
    getCobv: async (txid) => cob((await call('GET', `/cobv/${enc(txid)}`)).body),
    patchCob: async (txid, body) => cob((await call('PATCH', `/cob/${enc(txid)}`, body)).body),
    patchCobv: async (txid, body) => cob((await call('PATCH', `/cobv/${enc(txid)}`, body)).body),
    putWebhook: async (chave, webhookUrl) => {
      await call('PUT', `/webhook/${enc(chave)}`, { webhookUrl });
    },
    close: () => agent.destroy(),
  };
}
