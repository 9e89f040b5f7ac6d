/**
 * The client of the company's payment-link service (#36.4: card and boleto), whose JSON contract
 * is `docs/payment-links.md`: `PUT {BALCAO_LINK_URL}/links/{id}` with `Idempotency-Key` (the same
 * charge always sends the same id and key, so a retry after a lost answer gets the same link, never
 * a second one) and `GET {BALCAO_LINK_URL}/links/{id}` to reconcile; bearer `BALCAO_LINK_TOKEN`.
 * Failures leave as {@link PspError}, with the Pix client's rules: timeouts, connection errors,
 * 408, 429 (Retry-After) and 5xx are `transitorio`; 409 `conflito`; 404 `nao_encontrado`; any
 * other 4xx `recusado`, with the service's reason in pt-BR.
 */
import { AppError } from '@shared/errors';
import type { Clock } from '../clock';
import { PspError } from './client';

export const LINK_FORMAS = ['cartao', 'boleto'] as const;
export const LINK_ESTADOS = ['ativo', 'pago', 'cancelado', 'expirado'] as const;
export type LinkEstado = (typeof LINK_ESTADOS)[number];

/** The body of `PUT /links/{id}`. */
export interface LinkSolicitado {
  valor_centavos: number;
  forma_pagamento: (typeof LINK_FORMAS)[number];
  parcelas: number;
  /** AAAA-MM-DD (business zone). */
  vencimento: string;
  descricao: string | null;
  cliente_nome: string;
  /** CPF (11 digits) or CNPJ (14, alphanumeric allowed); required for a boleto. */
  cliente_documento: string | null;
}

/** What the service answers (PUT and GET). */
export interface LinkGerado {
  id: string;
  url: string;
  estado: LinkEstado;
  valor_centavos?: number;
  /** Present once paid: what the payer paid, in centavos. */
  pago_centavos?: number | null;
}

export interface LinkConfig {
  url: string;
  token: string;
  /** Per request (ms). */
  timeoutMs: number;
}

export interface LinkClient {
  put(id: string, body: LinkSolicitado): Promise<LinkGerado>;
  get(id: string): Promise<LinkGerado>;
  /** `PATCH /links/{id}` with `{"estado": "cancelado"}`. */
  cancel(id: string): Promise<LinkGerado>;
  close(): void;
}

const configError = (m: string) => new AppError('configuracao', m);

/** BALCAO_LINK_URL / BALCAO_LINK_TOKEN, or null when BALCAO_LINK_URL is unset (nothing is sent). */
export function linkConfig(env: NodeJS.ProcessEnv = process.env): LinkConfig | null {
  const raw = env.BALCAO_LINK_URL?.trim();
  if (!raw) return null;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw configError(`BALCAO_LINK_URL não é uma URL válida: ${raw}.`);
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') {
    throw configError('BALCAO_LINK_URL precisa ser uma URL http:// ou https://.');
  }
  const token = env.BALCAO_LINK_TOKEN?.trim() ?? '';
  if (!token) {
    throw configError(
      'Com BALCAO_LINK_URL, defina também BALCAO_LINK_TOKEN (o token do serviço de links).',
    );
  }
  return { url: raw.replace(/\/+$/, ''), token, timeoutMs: 10_000 };
}

function retryAfter(h: string | null, now: Date): number | null {
  if (!h) return null;
  if (/^\d+$/.test(h.trim())) return Math.min(3600, Number(h.trim()));
  const at = Date.parse(h);
  return Number.isNaN(at)
    ? null
    : Math.max(0, Math.min(3600, Math.ceil((at - now.getTime()) / 1000)));
}

/** The service's error body (`{erro}` or `{mensagem}`), bounded. */
function reason(body: unknown): string {
  if (!body || typeof body !== 'object') return '';
  const b = body as { erro?: unknown; mensagem?: unknown };
  const t = typeof b.erro === 'string' ? b.erro : typeof b.mensagem === 'string' ? b.mensagem : '';
  return t.trim().slice(0, 500);
}

/** A well-formed answer, or a transient error (a proxy's page, a cut body). */
function parseLink(body: unknown): LinkGerado {
  const b = body as Partial<LinkGerado> | null;
  if (
    !b ||
    typeof b.id !== 'string' ||
    typeof b.url !== 'string' ||
    !(LINK_ESTADOS as readonly unknown[]).includes(b.estado)
  ) {
    throw new PspError(
      'transitorio',
      'O serviço de links respondeu sem id, url ou estado válidos; consultando de novo.',
    );
  }
  return b as LinkGerado;
}

export function createLinkClient(cfg: LinkConfig, deps: { clock: Clock }): LinkClient {
  const call = async (
    method: 'PUT' | 'GET' | 'PATCH',
    id: string,
    body?: LinkSolicitado | { estado: 'cancelado' },
  ) => {
    let r: Response;
    try {
      r = await fetch(`${cfg.url}/links/${encodeURIComponent(id)}`, {
        method,
        headers: {
          authorization: `Bearer ${cfg.token}`,
          accept: 'application/json',
          ...(body ? { 'content-type': 'application/json' } : {}),
          ...(method === 'PUT' ? { 'idempotency-key': id } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(cfg.timeoutMs),
      });
    } catch (e) {
      const timeout = e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError');
      throw new PspError(
        'transitorio',
        timeout
          ? `O serviço de links não respondeu em ${Math.round(cfg.timeoutMs / 1000)} s.`
          : 'Não foi possível falar com o serviço de links (conexão recusada ou interrompida).',
      );
    }
    let text: string;
    try {
      text = await r.text();
    } catch {
      throw new PspError('transitorio', 'A resposta do serviço de links foi interrompida.');
    }
    let parsed: unknown;
    try {
      parsed = text ? (JSON.parse(text) as unknown) : null;
    } catch {
      parsed = null;
    }
    if (r.ok) return parseLink(parsed);
    const why = reason(parsed);
    const suffix = why ? `: ${why}` : '.';
    if (r.status === 429 || r.status >= 500 || r.status === 408) {
      throw new PspError(
        'transitorio',
        `O serviço de links está indisponível ou limitando chamadas (HTTP ${r.status})${suffix}`,
        r.status,
        retryAfter(r.headers.get('retry-after'), deps.clock.now()),
      );
    }
    if (r.status === 409) {
      throw new PspError(
        'conflito',
        `O serviço de links já tem este link com outros dados${suffix}`,
        409,
      );
    }
    if (r.status === 404) {
      throw new PspError(
        'nao_encontrado',
        `O serviço de links não conhece este link${suffix}`,
        404,
      );
    }
    if (r.status === 401 || r.status === 403) {
      throw new PspError(
        'recusado',
        `O serviço de links recusou o acesso (HTTP ${r.status}): confira BALCAO_LINK_TOKEN${suffix}`,
        r.status,
      );
    }
    throw new PspError(
      'recusado',
      `O serviço de links recusou a cobrança (HTTP ${r.status})${suffix}`,
      r.status,
    );
  };
  return {
    put: (id, body) => call('PUT', id, body),
    get: (id) => call('GET', id),
    cancel: (id) => call('PATCH', id, { estado: 'cancelado' }),
    close: () => undefined,
  };
}

/** The link client configured in the environment, or null when BALCAO_LINK_URL is unset. */
export function linkClientFromEnv(env: NodeJS.ProcessEnv, clock: Clock): LinkClient | null {
  const cfg = linkConfig(env);
  return cfg ? createLinkClient(cfg, { clock }) : null;
}
