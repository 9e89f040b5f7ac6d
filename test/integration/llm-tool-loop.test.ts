import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from '@shared/zod';
import { toolInputSchema } from '@shared/tool-schema';
import { runToolLoop, ToolLoopError, type ToolSpec, type Validation } from '../../src-main/llm';
import {
  apiKeyOf,
  messageReply,
  startFakeAnthropic,
  statusReply,
  textReply,
  toolUseReply,
  type FakeAnthropic,
} from '../support/fake-anthropic';

// A tiny generic tool: the loop knows nothing about charges.
const Numero = z.object({ n: z.number().int().min(1).max(10).describe('um número de 1 a 10') });
const TOOL: ToolSpec = {
  name: 'registrar_numero',
  description: 'Registra um número par.',
  input_schema: toolInputSchema(Numero, { strict: true }),
  strict: true,
};
function validate(input: unknown): Validation<number, string[]> {
  const p = Numero.safeParse(input);
  if (!p.success) {
    const errors = p.error.issues.map((i) => i.message);
    return { ok: false, errors, details: errors };
  }
  if (p.data.n % 2 !== 0) {
    const errors = [`O número ${p.data.n} é ímpar. Use um número par.`];
    return { ok: false, errors, details: errors };
  }
  return { ok: true, value: p.data.n };
}

let fake: FakeAnthropic;
beforeAll(async () => {
  fake = await startFakeAnthropic();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

function client(opts: { maxRetries?: number; timeout?: number } = {}) {
  return new Anthropic({
    apiKey: 'chave-de-teste',
    baseURL: fake.url,
    maxRetries: opts.maxRetries ?? 2,
    timeout: opts.timeout ?? 5_000,
  });
}

const run = (
  c: Anthropic,
  extra: Partial<Parameters<typeof runToolLoop<number, string[]>>[0]> = {},
) =>
  runToolLoop<number, string[]>({
    client: c,
    model: 'claude-sonnet-4-5',
    maxTokens: 512,
    system: 'Você registra números.',
    tool: TOOL,
    messages: [{ role: 'user', content: 'registre o quatro' }],
    validate,
    maxAttempts: 3,
    ...extra,
  });

async function expectLoopError(p: Promise<unknown>): Promise<ToolLoopError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ToolLoopError);
    return e as ToolLoopError;
  }
  throw new Error('esperava ToolLoopError');
}

describe('runToolLoop against the fake Messages API (real SDK, real HTTP)', () => {
  it('first request forces the tool, marks system and tool for caching, sends the key', async () => {
    fake.enqueue(
      toolUseReply('registrar_numero', { n: 4 }, { usage: { input_tokens: 50, output_tokens: 7 } }),
    );
    const r = await run(client());
    expect(r).toMatchObject({ ok: true, value: 4 });
    expect(fake.requests).toHaveLength(1);
    const req = fake.requests[0]!;
    expect(apiKeyOf(req)).toBe('chave-de-teste');
    expect(req.body.tool_choice).toEqual({
      type: 'tool',
      name: 'registrar_numero',
      disable_parallel_tool_use: true,
    });
    expect(req.body.system).toEqual([
      { type: 'text', text: 'Você registra números.', cache_control: { type: 'ephemeral' } },
    ]);
    expect(req.body.tools).toHaveLength(1);
    expect(req.body.tools[0]).toMatchObject({
      name: 'registrar_numero',
      strict: true,
      cache_control: { type: 'ephemeral' },
    });
    // strict: bounds stripped from the schema sent to the model
    expect(req.body.tools[0].input_schema.properties.n).toEqual({
      type: 'integer',
      description: 'um número de 1 a 10',
    });
    expect(req.body.messages).toEqual([{ role: 'user', content: 'registre o quatro' }]);
    expect(req.body.max_tokens).toBe(512);
    expect(r.attempts).toHaveLength(1);
    expect(r.usage).toEqual({
      input_tokens: 50,
      output_tokens: 7,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
    });
  });

  it('correction accepted on attempt 2: request 2 carries the whole assistant turn, then the tool_result error first', async () => {
    fake.enqueue(
      toolUseReply(
        'registrar_numero',
        { n: 3 },
        {
          id: 'toolu_primeira',
          text: 'Vou registrar.',
          usage: { cache_creation_input_tokens: 900 },
        },
      ),
      toolUseReply('registrar_numero', { n: 4 }, { usage: { cache_read_input_tokens: 900 } }),
    );
    const progress: string[] = [];
    const r = await run(client(), {
      onAttempt: ({ attempt, maxAttempts }) => progress.push(`${attempt}/${maxAttempts}`),
    });
    expect(r.ok).toBe(true);
    expect(progress).toEqual(['1/3', '2/3']);
    expect(fake.requests).toHaveLength(2);
    const msgs = fake.requests[1]!.body.messages;
    expect(msgs).toHaveLength(3);
    expect(msgs[0]).toEqual({ role: 'user', content: 'registre o quatro' });
    expect(msgs[1].role).toBe('assistant');
    expect(msgs[1].content).toEqual([
      { type: 'text', text: 'Vou registrar.' },
      { type: 'tool_use', id: 'toolu_primeira', name: 'registrar_numero', input: { n: 3 } },
    ]);
    expect(msgs[2].role).toBe('user');
    const first = msgs[2].content[0];
    expect(first).toMatchObject({
      type: 'tool_result',
      tool_use_id: 'toolu_primeira',
      is_error: true,
    });
    expect(first.content).toContain('O número 3 é ímpar. Use um número par.');
    // the forced tool and the caching marks are on every request
    expect(fake.requests[1]!.body.tool_choice.name).toBe('registrar_numero');
    expect(fake.requests[1]!.body.tools[0].cache_control).toEqual({ type: 'ephemeral' });
    expect(r.attempts.map((a) => [a.number, a.input, a.errors])).toEqual([
      [1, { n: 3 }, ['O número 3 é ímpar. Use um número par.']],
      [2, { n: 4 }, []],
    ]);
    expect(r.usage.cache_creation_input_tokens).toBe(900);
    expect(r.usage.cache_read_input_tokens).toBe(900);
    expect(r.usage.input_tokens).toBe(200);
  });

  it('three invalid replies → not ok after exactly 3 requests, with the last errors', async () => {
    fake.enqueue(
      toolUseReply('registrar_numero', { n: 1 }),
      toolUseReply('registrar_numero', { n: 'dois' }),
      toolUseReply('registrar_numero', { n: 5 }),
      toolUseReply('registrar_numero', { n: 6 }), // must never be requested
    );
    const r = await run(client());
    expect(r.ok).toBe(false);
    expect(fake.requests).toHaveLength(3);
    expect(fake.pending()).toBe(1);
    if (r.ok) throw new Error('unreachable');
    expect(r.errors).toEqual(['O número 5 é ímpar. Use um número par.']);
    expect(r.attempts).toHaveLength(3);
    // request 3 carries the whole history: user, a1, err1, a2, err2
    expect(fake.requests[2]!.body.messages).toHaveLength(5);
    expect(r.usage.input_tokens).toBe(300);
  });

  it('maxAttempts is honoured (1 → a single request)', async () => {
    fake.enqueue(toolUseReply('registrar_numero', { n: 1 }));
    const r = await run(client(), { maxAttempts: 1 });
    expect(r.ok).toBe(false);
    expect(fake.requests).toHaveLength(1);
  });

  it('stop_reason max_tokens is a configuration error, no validation retry', async () => {
    fake.enqueue(
      toolUseReply('registrar_numero', { n: 4 }, { stopReason: 'max_tokens' }),
      toolUseReply('registrar_numero', { n: 4 }),
    );
    const e = await expectLoopError(run(client()));
    expect(e.code).toBe('configuracao');
    expect(e.reason).toBe('max_tokens');
    expect(e.message).toMatch(/max_tokens = 512/);
    expect(e.message).toMatch(/BALCAO_MAX_TOKENS/);
    expect(fake.requests).toHaveLength(1);
    expect(e.attempts).toHaveLength(1);
  });

  it('a reply without the tool call is an error (no retry)', async () => {
    fake.enqueue(textReply('Não sei.'), toolUseReply('registrar_numero', { n: 4 }));
    const e = await expectLoopError(run(client()));
    expect(e.reason).toBe('sem_ferramenta');
    expect(e.message).toContain('sem chamar a ferramenta registrar_numero');
    expect(fake.requests).toHaveLength(1);
  });

  it('a call to another tool name counts as no tool call', async () => {
    fake.enqueue(toolUseReply('outra_ferramenta', { n: 4 }));
    const e = await expectLoopError(run(client()));
    expect(e.reason).toBe('sem_ferramenta');
  });

  it('429 then success: one attempt, two HTTP requests (SDK retry, honouring retry-after-ms)', async () => {
    fake.enqueue(statusReply(429, { retryAfterMs: 5 }), toolUseReply('registrar_numero', { n: 8 }));
    const r = await run(client());
    expect(r).toMatchObject({ ok: true, value: 8 });
    expect(r.attempts).toHaveLength(1);
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[0]!.headers['x-stainless-retry-count']).toBe('0');
    expect(fake.requests[1]!.headers['x-stainless-retry-count']).toBe('1');
    // the retry is the same request, not a new validation turn
    expect(fake.requests[1]!.body).toEqual(fake.requests[0]!.body);
  });

  it('a transport retry inside attempt 2 does not restart the loop', async () => {
    fake.enqueue(
      toolUseReply('registrar_numero', { n: 7 }),
      statusReply(500, { retryAfterMs: 1 }),
      toolUseReply('registrar_numero', { n: 2 }),
    );
    const r = await run(client());
    expect(r).toMatchObject({ ok: true, value: 2 });
    expect(r.attempts).toHaveLength(2);
    expect(fake.requests).toHaveLength(3);
    expect(fake.requests[1]!.body.messages).toHaveLength(3);
    expect(fake.requests[2]!.body).toEqual(fake.requests[1]!.body);
  });

  it('400 is not retried and maps to a pt-BR configuration error', async () => {
    fake.enqueue(
      statusReply(400, { message: 'tools.0.input_schema: bad' }),
      toolUseReply('registrar_numero', { n: 4 }),
    );
    const e = await expectLoopError(run(client()));
    expect(fake.requests).toHaveLength(1);
    expect(e.code).toBe('configuracao');
    expect(e.message).toContain('recusou a requisição (400, invalid_request_error)');
    expect(e.message).not.toContain('bad'); // the API's English text is not shown
  });

  it('429 on every retry → modelo_indisponivel after 1 + maxRetries requests', async () => {
    fake.enqueue(
      statusReply(429, { retryAfterMs: 1 }),
      statusReply(429, { retryAfterMs: 1 }),
      statusReply(429, { retryAfterMs: 1 }),
    );
    const e = await expectLoopError(run(client({ maxRetries: 2 })));
    expect(e.code).toBe('modelo_indisponivel');
    expect(fake.requests).toHaveLength(3);
  });

  it('401 → sem_chave_api, not retried', async () => {
    fake.enqueue(statusReply(401));
    const e = await expectLoopError(run(client()));
    expect(e.code).toBe('sem_chave_api');
    expect(fake.requests).toHaveLength(1);
  });

  it('timeout: the SDK retries within its budget, then tempo_esgotado', async () => {
    // Replies that never come within the test: only the 150 ms timeout can end each call.
    fake.enqueue(
      toolUseReply('registrar_numero', { n: 4 }, { delayMs: 600_000 }),
      toolUseReply('registrar_numero', { n: 4 }, { delayMs: 600_000 }),
    );
    const e = await expectLoopError(
      run(client({ timeout: 150, maxRetries: 1 }), { timeoutMs: 150 }),
    );
    expect(e.code).toBe('tempo_esgotado');
    expect(e.message).toMatch(/não respondeu em 0,15 s/);
    expect(fake.requests).toHaveLength(2);
    expect(e.attempts).toHaveLength(0);
  });

  it('AbortSignal cancels the call in flight', async () => {
    fake.enqueue(toolUseReply('registrar_numero', { n: 4 }, { delayMs: 2_000 }));
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    const e = await expectLoopError(run(client(), { signal: ac.signal }));
    expect(e.code).toBe('cancelado');
    expect(fake.requests).toHaveLength(1);
  });

  it('an already aborted signal makes no request', async () => {
    const ac = new AbortController();
    ac.abort();
    const e = await expectLoopError(run(client(), { signal: ac.signal }));
    expect(e.code).toBe('cancelado');
    expect(fake.requests).toHaveLength(0);
  });

  it('every tool call in an invalid turn gets a tool_result; errors go on the first', async () => {
    fake.enqueue(
      messageReply({
        stop_reason: 'tool_use',
        content: [
          { type: 'tool_use', id: 'toolu_a', name: 'registrar_numero', input: { n: 1 } },
          { type: 'tool_use', id: 'toolu_b', name: 'registrar_numero', input: { n: 2 } },
        ],
      }),
      toolUseReply('registrar_numero', { n: 2 }),
    );
    const r = await run(client());
    expect(r.ok).toBe(true);
    const user = fake.requests[1]!.body.messages[2];
    expect(user.content.map((b: { tool_use_id: string }) => b.tool_use_id)).toEqual([
      'toolu_a',
      'toolu_b',
    ]);
    expect(user.content[0].content).toContain('ímpar');
  });

  it('non-strict tool keeps the bounds in the schema and omits strict', async () => {
    fake.enqueue(toolUseReply('registrar_numero', { n: 4 }));
    await run(client(), {
      tool: { ...TOOL, strict: false, input_schema: toolInputSchema(Numero) },
    });
    const tool = fake.requests[0]!.body.tools[0];
    expect(tool.strict).toBeUndefined();
    expect(tool.input_schema.properties.n).toMatchObject({ minimum: 1, maximum: 10 });
  });

  it('strict only for models that take it (#40.6): a Claude 4 model gets the tool without it and still works', async () => {
    fake.enqueue(toolUseReply('registrar_numero', { n: 4 }));
    const r = await run(client(), { model: 'claude-sonnet-4-20250514' });
    expect(r.ok).toBe(true);
    expect(fake.requests[0]!.body.tools[0].strict).toBeUndefined();
    fake.reset();
    fake.enqueue(toolUseReply('registrar_numero', { n: 4 }));
    await run(client(), { model: 'claude-opus-4-5-20251101' });
    expect(fake.requests[0]!.body.tools[0].strict).toBe(true);
  });

  it('a model the API refuses strict for is asked again without it, once per process (#40.6)', async () => {
    fake.enqueue(
      statusReply(400, { message: 'tools.0.strict: Extra inputs are not permitted' }),
      toolUseReply('registrar_numero', { n: 4 }),
    );
    const r = await run(client(), { model: 'claude-haiku-4-9' });
    expect(r.ok).toBe(true);
    expect(r.attempts).toHaveLength(1);
    expect(fake.requests.map((q) => q.body.tools[0].strict)).toEqual([true, undefined]);
    // The next question on that model does not pay the refusal again.
    fake.reset();
    fake.enqueue(toolUseReply('registrar_numero', { n: 4 }));
    await run(client(), { model: 'claude-haiku-4-9' });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.body.tools[0].strict).toBeUndefined();
  });

  it('any other 400 is not mistaken for a strict refusal', async () => {
    fake.enqueue(statusReply(400, { message: 'messages: roles must alternate' }));
    const e = await expectLoopError(run(client(), { model: 'claude-sonnet-4-6' }));
    expect(e.code).not.toBe('cancelado');
    expect(fake.requests).toHaveLength(1);
  });

  it('the fake records unexpected requests and answers them with a non-retried 500', async () => {
    const e = await expectLoopError(run(client()));
    expect(e.code).toBe('modelo_indisponivel');
    expect(fake.unexpected).toHaveLength(1);
    expect(fake.requests).toHaveLength(1);
  });
});
