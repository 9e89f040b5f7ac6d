/**
 * WhatsApp Business Cloud API settings (#37), from the environment:
 *   BALCAO_WHATSAPP_TOKEN            bearer token of the sender (system user)
 *   BALCAO_WHATSAPP_PHONE_NUMBER_ID  the business number's id (sender; webhook filter)
 *   BALCAO_WHATSAPP_API_URL          Graph API base, versioned (default below)
 *   BALCAO_WHATSAPP_APP_SECRET       app secret: signs every webhook delivery
 *   BALCAO_WHATSAPP_VERIFY_TOKEN     the token Meta echoes when the webhook is registered
 *   BALCAO_WHATSAPP_TEMPLATE         approved template sent outside the 24-hour window (its body
 *                                    has one parameter: our text)
 *   BALCAO_WHATSAPP_TEMPLATE_IDIOMA  the template's language code (default pt_BR)
 */
export const DEFAULT_WHATSAPP_API_URL = 'https://graph.facebook.com/v23.0';

export const DEFAULT_TEMPLATE_IDIOMA = 'pt_BR';

/** The approved template for a closed 24-hour window. */
export interface WhatsAppTemplate {
  nome: string;
  idioma: string;
}

export interface WhatsAppSendConfig {
  token: string;
  phoneNumberId: string;
  apiUrl: string;
  /** Null: outside the window nothing but a free-form text is tried (Meta answers 131047). */
  template?: WhatsAppTemplate | null;
}

export interface WhatsAppWebhookConfig {
  appSecret: string | null;
  verifyToken: string | null;
  /** Only deliveries for this business number are taken (others are acknowledged, ignored). */
  phoneNumberId: string | null;
}

const val = (env: NodeJS.ProcessEnv, k: string): string | null => {
  const v = env[k]?.trim();
  return v ? v : null;
};

/** The sender's settings, or why it is off (pt-BR): then nothing is sent. */
export function whatsappSendConfig(
  env: NodeJS.ProcessEnv = process.env,
): { ok: true; config: WhatsAppSendConfig } | { ok: false; motivo: string } {
  const token = val(env, 'BALCAO_WHATSAPP_TOKEN');
  const phoneNumberId = val(env, 'BALCAO_WHATSAPP_PHONE_NUMBER_ID');
  const faltando = [
    ...(token ? [] : ['BALCAO_WHATSAPP_TOKEN']),
    ...(phoneNumberId ? [] : ['BALCAO_WHATSAPP_PHONE_NUMBER_ID']),
  ];
  if (!token || !phoneNumberId) return { ok: false, motivo: `defina ${faltando.join(' e ')}` };
  const apiUrl = (val(env, 'BALCAO_WHATSAPP_API_URL') ?? DEFAULT_WHATSAPP_API_URL).replace(
    /\/+$/,
    '',
  );
  if (!/^https?:\/\/[^\s/]+(\/[^\s]*)?$/.test(apiUrl)) {
    return {
      ok: false,
      motivo: `BALCAO_WHATSAPP_API_URL deve ser uma URL http(s)://… (ex.: ${DEFAULT_WHATSAPP_API_URL})`,
    };
  }
  const nome = val(env, 'BALCAO_WHATSAPP_TEMPLATE');
  const idioma = val(env, 'BALCAO_WHATSAPP_TEMPLATE_IDIOMA') ?? DEFAULT_TEMPLATE_IDIOMA;
  if (nome !== null && !/^[a-z0-9_]{1,512}$/.test(nome)) {
    return {
      ok: false,
      motivo:
        'BALCAO_WHATSAPP_TEMPLATE deve ser o nome do modelo aprovado na Meta (letras minúsculas, números e _)',
    };
  }
  if (!/^[a-z]{2,3}(_[A-Z]{2})?$/.test(idioma)) {
    return {
      ok: false,
      motivo: 'BALCAO_WHATSAPP_TEMPLATE_IDIOMA deve ser um código de idioma da Meta (ex.: pt_BR)',
    };
  }
  return {
    ok: true,
    config: { token, phoneNumberId, apiUrl, template: nome ? { nome, idioma } : null },
  };
}

/** The webhook's settings; null when neither the app secret nor the verify token is set. */
export function whatsappWebhookConfig(
  env: NodeJS.ProcessEnv = process.env,
): WhatsAppWebhookConfig | null {
  const appSecret = val(env, 'BALCAO_WHATSAPP_APP_SECRET');
  const verifyToken = val(env, 'BALCAO_WHATSAPP_VERIFY_TOKEN');
  if (!appSecret && !verifyToken) return null;
  return { appSecret, verifyToken, phoneNumberId: val(env, 'BALCAO_WHATSAPP_PHONE_NUMBER_ID') };
}
