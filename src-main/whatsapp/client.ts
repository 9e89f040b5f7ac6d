/**
 * The Cloud API's send call (#37): `POST {api}/{phone-number-id}/messages` with the bearer
 * token and `{messaging_product: 'whatsapp', to, type: 'text', text: {body}, context?,
 * biz_opaque_callback_data}`; the answer's `messages[0].id` is the wamid. Failures are
 * classified for the sender:
 *   limite       130429/131056 (or HTTP 429): back off and retry
 *   token        190: stop sending, alert
 *   permanente   131047, 131026 and other refusals: the row fails, with a pt-BR reason
 *   transitorio  5xx or a connection refused: not sent, retry
 *   incerto      a timeout or a connection lost after the request left: maybe sent —
 *                reconciled through the status webhooks before sending again
 */
import type { WhatsAppSendConfig } from './config';
import { ERRO } from './texts';

export type FalhaTipo = 'limite' | 'token' | 'permanente' | 'transitorio' | 'incerto';

export class WhatsAppApiError extends Error {
  constructor(
    readonly tipo: FalhaTipo,
    message: string,
    readonly code?: number,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'WhatsAppApiError';
  }
}

export interface TextoSaida {
  /** wa_id or E.164 digits. */
  to: string;
  body: string;
  /** The merchant's message this answers. */
  contextMessageId?: string;
  callbackData: string;
}

/** An approved template whose body has one text parameter (outside the 24-hour window). */
export interface ModeloSaida {
  to: string;
  nome: string;
  idioma: string;
  /** The body's parameter: our text, flattened as Meta requires (no line breaks or tabs). */
  parametro: string;
  callbackData: string;
}

export interface WhatsAppClient {
  sendText(m: TextoSaida): Promise<{ wamid: string }>;
  sendTemplate?(m: ModeloSaida): Promise<{ wamid: string }>;
}

/** The longest body parameter Balcão sends in a template. */
export const PARAMETRO_MODELO_MAX = 1024;

/**
 * A text as a template's body parameter: Meta refuses line breaks, tabs and more than four
 * spaces in a row there, so lines are joined with ' · ' and spaces squeezed; at most 1024.
 */
export function parametroDoModelo(texto: string): string {
  const flat = texto
    .split(/\r?\n+/)
    .map((l) => l.replace(/[\t ]+/g, ' ').trim())
    .filter(Boolean)
    .join(' · ');
  return [...flat].length > PARAMETRO_MODELO_MAX
    ? `${[...flat].slice(0, PARAMETRO_MODELO_MAX - 1).join('')}…`
    : flat;
}

const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

function causeCode(e: unknown): string | undefined {
  const c = (e as { cause?: { code?: unknown } }).cause;
  return typeof c?.code === 'string' ? c.code : undefined;
}

export function createWhatsAppClient(
  cfg: WhatsAppSendConfig,
  opts: { timeoutMs?: number; fetch?: typeof fetch } = {},
): WhatsAppClient {
  const doFetch = opts.fetch ?? fetch;
  const url = `${cfg.apiUrl}/${encodeURIComponent(cfg.phoneNumberId)}/messages`;
  async function post(body: Record<string, unknown>): Promise<{ wamid: string }> {
    let res: Response;
    try {
      res = await doFetch(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${cfg.token}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000),
      });
    } catch (e) {
      const code = causeCode(e);
      if (code && NOT_SENT.has(code)) {
        throw new WhatsAppApiError('transitorio', `API do WhatsApp fora do ar (${code}).`);
      }
      throw new WhatsAppApiError(
        'incerto',
        'A API do WhatsApp não respondeu a tempo; a mensagem pode ter sido enviada.',
      );
    }
    let json: unknown;
    try {
      json = await res.json();
    } catch {
      json = null;
    }
    if (res.ok) {
      const id = (json as { messages?: { id?: unknown }[] } | null)?.messages?.[0]?.id;
      if (typeof id === 'string' && id.length > 0 && id.length <= 200) return { wamid: id };
      throw new WhatsAppApiError(
        'incerto',
        'A API do WhatsApp respondeu sem o id da mensagem; ela pode ter sido enviada.',
        undefined,
        res.status,
      );
    }
    const err = (json as { error?: { code?: unknown; is_transient?: unknown } } | null)?.error;
    const code = typeof err?.code === 'number' ? err.code : undefined;
    const msg = `A API do WhatsApp recusou o envio (HTTP ${res.status}${code !== undefined ? `, erro ${code}` : ''}).`;
    if (code === ERRO.LIMITE_VAZAO || code === ERRO.LIMITE_PAR || res.status === 429) {
      throw new WhatsAppApiError('limite', msg, code, res.status);
    }
    if (code === ERRO.TOKEN || res.status === 401) {
      throw new WhatsAppApiError('token', msg, code, res.status);
    }
    if (res.status >= 500 || err?.is_transient === true) {
      throw new WhatsAppApiError('transitorio', msg, code, res.status);
    }
    throw new WhatsAppApiError('permanente', msg, code, res.status);
  }
  return {
    sendText: (m) =>
      post({
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: m.to,
        type: 'text',
        text: { body: m.body, preview_url: false },
        ...(m.contextMessageId ? { context: { message_id: m.contextMessageId } } : {}),
        biz_opaque_callback_data: m.callbackData,
      }),
    sendTemplate: (m) =>
      post({
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: m.to,
        type: 'template',
        template: {
          name: m.nome,
          language: { policy: 'deterministic', code: m.idioma },
          components: [{ type: 'body', parameters: [{ type: 'text', text: m.parametro }] }],
        },
        biz_opaque_callback_data: m.callbackData,
      }),
  };
}
