import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '@shared/errors';
import { createClaudeClient, NO_API_KEY_MESSAGE } from '../../src-main/llm';
import { createMemorySettings } from '../../src-main/settings/memory';
import {
  apiKeyOf,
  startFakeAnthropic,
  statusReply,
  textReply,
  type FakeAnthropic,
} from '../support/fake-anthropic';

let fake: FakeAnthropic;
beforeAll(async () => {
  fake = await startFakeAnthropic();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const call = (c: ReturnType<typeof createClaudeClient>) =>
  c.messages.create({
    model: 'claude-haiku-4-5',
    max_tokens: 16,
    messages: [{ role: 'user', content: 'oi' }],
  });

describe('createClaudeClient (settings → SDK client)', () => {
  it('without a key: pt-BR sem_chave_api saying how to configure one', () => {
    const settings = createMemorySettings({}, {});
    let err: unknown;
    try {
      createClaudeClient(settings);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('sem_chave_api');
    expect((err as AppError).message).toBe(NO_API_KEY_MESSAGE);
    expect(NO_API_KEY_MESSAGE).toContain('ANTHROPIC_API_KEY');
  });

  it('uses the key, base URL and retry budget from settings', async () => {
    const settings = createMemorySettings(
      {},
      {
        ANTHROPIC_API_KEY: 'sk-do-ambiente',
        ANTHROPIC_BASE_URL: fake.url,
        BALCAO_MAX_RETRIES: '1',
      },
    );
    fake.enqueue(statusReply(503, { retryAfterMs: 1 }), statusReply(503, { retryAfterMs: 1 }));
    await expect(call(createClaudeClient(settings))).rejects.toThrow();
    expect(fake.requests).toHaveLength(2); // 1 + maxRetries(1)
    expect(apiKeyOf(fake.requests[0]!)).toBe('sk-do-ambiente');
  });

  it('a key set in the app wins over the environment; timeout override applies', async () => {
    const settings = createMemorySettings(
      {},
      { ANTHROPIC_API_KEY: 'sk-do-ambiente', ANTHROPIC_BASE_URL: fake.url },
    );
    settings.setApiKey('sk-do-app');
    fake.enqueue(textReply('ok'));
    await call(createClaudeClient(settings, { maxRetries: 0 }));
    expect(apiKeyOf(fake.requests[0]!)).toBe('sk-do-app');
    fake.enqueue(textReply('lento', { delayMs: 1_000 }));
    await expect(
      call(createClaudeClient(settings, { timeout: 100, maxRetries: 0 })),
    ).rejects.toThrow(/timed out/i);
  });
});
