/**
 * The PSP's configuration (#36), from the environment: BALCAO_PSP_URL (API Pix base URL),
 * BALCAO_PSP_TOKEN_URL (default `{BALCAO_PSP_URL}/oauth/token`), BALCAO_PSP_CLIENT_ID,
 * BALCAO_PSP_CLIENT_SECRET, BALCAO_PSP_CERT / BALCAO_PSP_KEY / BALCAO_PSP_CA (PEM file paths for
 * mutual TLS) and BALCAO_PSP_WEBHOOK_TOKEN (the secret path segment of the webhook). Without
 * BALCAO_PSP_URL there is no PSP: charges stay `pendente`.
 */
import { readFileSync } from 'node:fs';
import { AppError } from '@shared/errors';

export interface PspConfig {
  url: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  cert?: Buffer;
  key?: Buffer;
  ca?: Buffer;
  /** Per request (ms). */
  timeoutMs: number;
}

const configError = (m: string) => new AppError('configuracao', m);

function pem(env: NodeJS.ProcessEnv, name: string): Buffer | undefined {
  const path = env[name]?.trim();
  if (!path) return undefined;
  try {
    const b = readFileSync(path);
    if (!b.toString('utf8').includes('-----BEGIN ')) {
      throw configError(`${name} não aponta para um arquivo PEM: ${path}.`);
    }
    return b;
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw configError(`Não foi possível ler ${name} (${path}): o arquivo existe e é legível?`);
  }
}

function httpsUrl(name: string, raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw configError(`${name} não é uma URL válida: ${raw}.`);
  }
  if (u.protocol !== 'https:') throw configError(`${name} precisa ser https:// (o PSP exige TLS).`);
  return raw.replace(/\/+$/, '');
}

/** The PSP configured, or null when BALCAO_PSP_URL is unset (nothing is sent). */
export function pspConfig(env: NodeJS.ProcessEnv = process.env): PspConfig | null {
  const base = env.BALCAO_PSP_URL?.trim();
  if (!base) return null;
  const url = httpsUrl('BALCAO_PSP_URL', base);
  const tokenUrl = httpsUrl(
    'BALCAO_PSP_TOKEN_URL',
    env.BALCAO_PSP_TOKEN_URL?.trim() || `${url}/oauth/token`,
  );
  const clientId = env.BALCAO_PSP_CLIENT_ID?.trim() ?? '';
  const clientSecret = env.BALCAO_PSP_CLIENT_SECRET ?? '';
  if (!clientId || !clientSecret) {
    throw configError(
      'Com BALCAO_PSP_URL, defina também BALCAO_PSP_CLIENT_ID e BALCAO_PSP_CLIENT_SECRET (credenciais do PSP).',
    );
  }
  const cert = pem(env, 'BALCAO_PSP_CERT');
  const key = pem(env, 'BALCAO_PSP_KEY');
  if (!cert !== !key) {
    throw configError(
      'BALCAO_PSP_CERT e BALCAO_PSP_KEY vão juntos (certificado e chave do cliente).',
    );
  }
  const ca = pem(env, 'BALCAO_PSP_CA');
  return {
    url,
    tokenUrl,
    clientId,
    clientSecret,
    ...(cert ? { cert } : {}),
    ...(key ? { key } : {}),
    ...(ca ? { ca } : {}),
    timeoutMs: 10_000,
  };
}

/** BALCAO_PSP_WEBHOOK_TOKEN, or null (no webhook route). At least 16 characters of [A-Za-z0-9_-]. */
export function pspWebhookToken(env: NodeJS.ProcessEnv = process.env): string | null {
  const t = env.BALCAO_PSP_WEBHOOK_TOKEN?.trim();
  if (!t) return null;
  if (!/^[A-Za-z0-9_-]{16,128}$/.test(t)) {
    throw configError(
      'BALCAO_PSP_WEBHOOK_TOKEN deve ter de 16 a 128 caracteres entre letras, números, _ e -.',
    );
  }
  return t;
}
