/**
 * WhatsApp Business Cloud API settings (#37), from the environment:
 *   BALCAO_WHATSAPP_TOKEN            bearer token of the sender (system user)
 *   BALCAO_WHATSAPP_PHONE_NUMBER_ID  the business number's id (sender; webhook filter)
 *   BALCAO_WHATSAPP_API_URL          Graph API base, versioned (default below)
 *   BALCAO_WHATSAPP_APP_SECRET       app secret: signs every webhook delivery
 *   BALCAO_WHATSAPP_VERIFY_TOKEN     the token Meta echoes when the webhook is registered
 */
export const DEFAULT_WHATSAPP_API_URL = 'https://graph.facebook.com/v23.0';

export interface WhatsAppSendConfig {
  token: string;
  phoneNumberId: string;
  apiUrl: string;
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
  return { ok: true, config: { token, phoneNumberId, apiUrl } };
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
