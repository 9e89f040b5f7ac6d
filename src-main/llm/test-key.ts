import type { ApiKeyTestResult } from '@shared/contract/settings';
import type { SettingsSource } from '../settings/types';
import { createClaudeClient } from './client';
import { mapAnthropicError } from './errors';

/** A test is one tiny request: bounded, never retried (a refusal must show at once). */
const TEST_TIMEOUT_MS = 15_000;

/**
 * "Testar chave": one request of one output token to the configured model, through the one
 * client factory (key, base URL from settings). Refusals come back as the usual pt-BR errors
 * (no key, key refused, model unknown, API unavailable); the key never leaves the main process.
 */
export async function testApiKey(settings: SettingsSource): Promise<ApiKeyTestResult> {
  const client = createClaudeClient(settings, { timeout: TEST_TIMEOUT_MS, maxRetries: 0 });
  const modelo = settings.get().model;
  const t0 = performance.now();
  try {
    await client.messages.create({
      model: modelo,
      max_tokens: 1,
      messages: [{ role: 'user', content: 'Responda apenas: ok' }],
    });
  } catch (e) {
    throw mapAnthropicError(e, { model: modelo, timeoutMs: TEST_TIMEOUT_MS });
  }
  const duracaoMs = Math.round(performance.now() - t0);
  return {
    modelo,
    duracaoMs,
    mensagem: `A chave funciona: o modelo ${modelo} respondeu em ${duracaoMs.toLocaleString('pt-BR')} ms.`,
  };
}
