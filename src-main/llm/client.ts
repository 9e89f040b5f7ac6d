import Anthropic from '@anthropic-ai/sdk';
import { AppError } from '@shared/errors';
import type { SettingsSource } from '../settings/types';

/** pt-BR explanation shown when no API key is configured (CLI and app). */
export const NO_API_KEY_MESSAGE =
  'Nenhuma chave da API da Anthropic configurada. Defina a variável de ambiente ANTHROPIC_API_KEY ' +
  '(ex.: export ANTHROPIC_API_KEY=sk-ant-...) ou cadastre a chave em Configurações no app.';

/** The same, for the people working in the app (agents): what to do, not an environment variable. */
export const NO_API_KEY_MESSAGE_APP =
  'Nenhuma chave da API da Anthropic configurada. Um supervisor pode cadastrá-la em Configurações.';

/** The configured key, or an AppError('sem_chave_api') saying how to configure one. */
export function requireApiKey(settings: SettingsSource): string {
  const key = settings.getApiKey()?.trim();
  if (!key) throw new AppError('sem_chave_api', NO_API_KEY_MESSAGE);
  return key;
}

export interface ClientOverrides {
  /** Per HTTP request, ms (default: settings.requestTimeoutMs). */
  timeout?: number;
  /** SDK transport retries (default: settings.maxRetries). */
  maxRetries?: number;
  /** Custom fetch (the intake's shared rate limits observe 429s through it). */
  fetch?: typeof fetch;
}

/**
 * The one way to build a Claude client: key, base URL, timeout and transport retries come
 * from settings. Transport retries (connection errors, 408/409/429/5xx, honouring
 * retry-after) are the SDK's job; validation attempts are the tool loop's (see tool-loop.ts).
 */
export function createClaudeClient(
  settings: SettingsSource,
  overrides: ClientOverrides = {},
): Anthropic {
  const s = settings.get();
  return new Anthropic({
    apiKey: requireApiKey(settings),
    ...(s.anthropicBaseUrl ? { baseURL: s.anthropicBaseUrl } : {}),
    timeout: overrides.timeout ?? s.requestTimeoutMs,
    maxRetries: overrides.maxRetries ?? s.maxRetries,
    ...(overrides.fetch ? { fetch: overrides.fetch } : {}),
  });
}
