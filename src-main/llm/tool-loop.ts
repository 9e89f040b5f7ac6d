/**
 * THE validation-feedback tool loop, shared by the charge extraction (`registrar_cobranca`)
 * and the sales questions (`consultar_vendas`).
 *
 *   const r = await runToolLoop({
 *     client,                       // createClaudeClient(settings) — SDK owns transport retries
 *     model, maxTokens,
 *     system: 'Você …',             // string or text blocks; the last block gets cache_control
 *     tool: { name, description, input_schema, strict },   // forced via tool_choice;
 *           // input_schema = toolInputSchema(zodObject, { strict }) from '@shared/tool-schema'
 *           // (derived from the zod schema that validates; strict strips unsupported keywords)
 *     messages: [{ role: 'user', content: texto }],
 *     validate: (input) => ({ ok: true, value }) | ({ ok: false, errors: ['pt-BR …'], details }),
 *     maxAttempts: 3,
 *     onAttempt: ({ attempt, maxAttempts }) => …,            // progress "tentativa 2 de 3"
 *     signal,                                                // AbortSignal (cancels the HTTP call)
 *   });
 *   r.ok ? r.value : r.errors;      // r.attempts[i]: input, errors, details, usage, stopReason,
 *                                    //   durationMs, callMs (inside the SDK), overheadMs (ours)
 *   r.usage                          // summed over attempts; cost: estimateCostUsd(r.usage, model,
 *                                    //   settings.get().prices)
 *
 * Contract:
 * - Every request forces the tool: `tool_choice: {type:'tool', name, disable_parallel_tool_use:
 *   true}`. The system prompt's last block and the tool carry `cache_control: ephemeral`, so
 *   retries read the cached prefix.
 * - On a validation failure the loop appends the assistant message with its WHOLE `content`,
 *   then a user message whose FIRST block is the `tool_result` for that `tool_use_id` with
 *   `is_error: true` listing the errors, and calls again — at most `maxAttempts` model calls.
 *   Valid → `{ok: true}`. Still invalid after the last attempt → `{ok: false}` with the last
 *   errors: a result, not an exception.
 * - Anything `validate` accepts ends the loop (e.g. a charge with `faltando` is valid: missing
 *   information is for a human, not for another model call).
 * - Transport retries (connection, 408/409/429/5xx, timeouts) belong to the SDK client and
 *   happen inside one attempt; they never restart the loop.
 * - Thrown `ToolLoopError` (an AppError with pt-BR message, carrying the attempts so far):
 *   `stop_reason: max_tokens` (code 'configuracao'), a reply without the tool call
 *   ('modelo_indisponivel'), API/transport failures after the SDK's retries (mapped by
 *   mapAnthropicError), abort ('cancelado').
 *
 * Tests drive it through the real SDK against test/support/fake-anthropic.ts (see there).
 */
import { isStrictRefusal, markStrictRefused, supportsStrictTools } from './strict';
import type Anthropic from '@anthropic-ai/sdk';
import type {
  ContentBlock,
  MessageParam,
  TextBlockParam,
  Tool,
  ToolResultBlockParam,
  ToolUseBlock,
} from '@anthropic-ai/sdk/resources/messages/messages';
import { AppError, type ErrorCode } from '@shared/errors';
import type { Uso } from '@shared/extraction-types';
import { mapAnthropicError } from './errors';
import { sumUso, toUso } from './usage';

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON schema of the input (type: 'object'). */
  input_schema: Tool['input_schema'];
  /** Strict tool use (grammar-constrained input); schema must use the supported subset. */
  strict?: boolean;
}

export type Validation<T, D = unknown> =
  | { ok: true; value: T }
  | {
      ok: false;
      /** pt-BR sentences sent back to the model (and shown to people). */
      errors: string[];
      /** Structured errors kept on the attempt (e.g. RuleError[]). */
      details?: D;
    };

export interface ToolAttempt<D = unknown> {
  /** 1-based model call number. */
  number: number;
  /** The tool input the model sent (untrusted, as received). */
  input: unknown;
  /** Validation errors of this attempt ([] when valid). */
  errors: string[];
  details: D | undefined;
  usage: Uso;
  stopReason: string | null;
  /** Wall time of the attempt (request build + HTTP call with SDK retries), ms. */
  durationMs: number;
  /** Time inside the SDK call (HTTP, transport retries, response parsing), ms. */
  callMs: number;
  /** Loop overhead outside the HTTP call (building the request, validating), ms. */
  overheadMs: number;
  messageId: string;
  /** The assistant's content blocks as received (kept to resume the conversation). */
  content?: ContentBlock[];
  /** Replayed from `resume` (answered earlier, not paid again). */
  replayed?: boolean;
}

/** An attempt that already got an answer, as stored, to resume a loop without paying again. */
export interface StoredAnswer {
  content: ContentBlock[];
  usage: Uso;
  stopReason: string | null;
  durationMs: number;
  messageId: string;
}

export type ToolLoopResult<T, D = unknown> =
  | { ok: true; value: T; attempts: ToolAttempt<D>[]; usage: Uso }
  | { ok: false; errors: string[]; details: D | undefined; attempts: ToolAttempt<D>[]; usage: Uso };

export interface ToolLoopOptions<T, D = unknown> {
  client: Anthropic;
  model: string;
  maxTokens: number;
  system: string | TextBlockParam[];
  tool: ToolSpec;
  /** Conversation so far (usually one user message); never mutated. */
  messages: MessageParam[];
  validate: (input: unknown) => Validation<T, D>;
  maxAttempts: number;
  onAttempt?: (info: { attempt: number; maxAttempts: number }) => void;
  signal?: AbortSignal;
  /** Used in the timeout message only. */
  timeoutMs?: number;
  /** Optional temperature (default: API default). */
  temperature?: number;
  /**
   * Answers of earlier attempts of this same loop (a retried job): they are replayed in order
   * — validated again, fed back — and only the attempts after them call the model.
   */
  resume?: readonly StoredAnswer[];
  /** Awaited after every NEW answer, before the loop goes on (store it; throw to stop). */
  onAnswer?: (attempt: ToolAttempt<D>) => Promise<void>;
  /** Wraps every model call (shared in-flight cap, pauses); default: call directly. */
  gate?: <R>(call: () => Promise<R>) => Promise<R>;
}

/** A failure of the loop itself (not a validation result); pt-BR message. */
export class ToolLoopError extends AppError {
  constructor(
    code: ErrorCode,
    message: string,
    readonly attempts: ToolAttempt[],
    readonly reason: 'max_tokens' | 'sem_ferramenta' | 'api' | 'cancelado',
  ) {
    super(code, message);
    this.name = 'ToolLoopError';
  }
}

const EPHEMERAL = { type: 'ephemeral' } as const;

/** System prompt as text blocks with a cache breakpoint on the last one. */
export function cachedSystem(system: string | TextBlockParam[]): TextBlockParam[] {
  const blocks: TextBlockParam[] =
    typeof system === 'string' ? [{ type: 'text', text: system }] : system.map((b) => ({ ...b }));
  const last = blocks[blocks.length - 1];
  if (last) blocks[blocks.length - 1] = { ...last, cache_control: EPHEMERAL };
  return blocks;
}

/** The tool definition as sent: cache breakpoint, strict only when asked. */
export function toolDefinition(tool: ToolSpec): Tool {
  return {
    name: tool.name,
    description: tool.description,
    input_schema: tool.input_schema,
    ...(tool.strict ? { strict: true } : {}),
    cache_control: EPHEMERAL,
  };
}

/** The feedback turn: the tool_result (is_error) for every tool call, errors on the first. */
export function feedbackMessage(
  toolUses: ToolUseBlock[],
  errors: string[],
  toolName: string,
): MessageParam {
  const [first, ...rest] = toolUses;
  const blocks: ToolResultBlockParam[] = [];
  if (first) {
    blocks.push({
      type: 'tool_result',
      tool_use_id: first.id,
      is_error: true,
      content:
        `A chamada de ${toolName} não passou na validação. Corrija e chame ${toolName} de novo:\n` +
        errors.map((e) => `- ${e}`).join('\n'),
    });
  }
  for (const extra of rest) {
    blocks.push({
      type: 'tool_result',
      tool_use_id: extra.id,
      is_error: true,
      content: `Chame ${toolName} uma única vez; esta chamada foi ignorada.`,
    });
  }
  return { role: 'user', content: blocks };
}

function assertNotAborted(signal: AbortSignal | undefined, attempts: ToolAttempt[]): void {
  if (signal?.aborted) {
    throw new ToolLoopError('cancelado', 'Operação cancelada.', attempts, 'cancelado');
  }
}

export async function runToolLoop<T, D = unknown>(
  opts: ToolLoopOptions<T, D>,
): Promise<ToolLoopResult<T, D>> {
  const maxAttempts = Math.max(1, Math.floor(opts.maxAttempts));
  const system = cachedSystem(opts.system);
  // Strict only where the model takes it; a refusal of `strict` is asked again without it.
  let strict = opts.tool.strict === true && supportsStrictTools(opts.model);
  let tools = [toolDefinition({ ...opts.tool, strict })];
  const messages: MessageParam[] = [...opts.messages];
  const attempts: ToolAttempt<D>[] = [];
  let lastErrors: string[] = [];
  let lastDetails: D | undefined;

  const record = async (a: ToolAttempt<D>): Promise<void> => {
    attempts.push(a);
    if (!a.replayed && opts.onAnswer) await opts.onAnswer(a);
  };

  for (let n = 1; n <= maxAttempts; n++) {
    assertNotAborted(opts.signal, attempts);
    const prior = opts.resume?.[n - 1];
    let response: Pick<Anthropic.Message, 'content' | 'stop_reason' | 'id'>;
    let base: Omit<ToolAttempt<D>, 'input' | 'errors' | 'details' | 'overheadMs'>;
    let t0: number;
    let tCall: number;
    let tDone: number;
    if (prior) {
      t0 = tCall = tDone = performance.now();
      response = {
        content: prior.content,
        stop_reason: prior.stopReason as Anthropic.Message['stop_reason'],
        id: prior.messageId,
      };
      base = {
        number: n,
        usage: prior.usage,
        stopReason: prior.stopReason,
        durationMs: prior.durationMs,
        callMs: 0,
        messageId: prior.messageId,
        content: prior.content,
        replayed: true,
      };
    } else {
      opts.onAttempt?.({ attempt: n, maxAttempts });
      t0 = performance.now();
      const body: Anthropic.MessageCreateParamsNonStreaming = {
        model: opts.model,
        max_tokens: opts.maxTokens,
        system,
        tools,
        tool_choice: { type: 'tool', name: opts.tool.name, disable_parallel_tool_use: true },
        messages: [...messages],
        ...(opts.temperature !== undefined ? { temperature: opts.temperature } : {}),
      };
      tCall = performance.now();
      let live: Anthropic.Message;
      try {
        const call = () =>
          opts.client.messages.create(body, opts.signal ? { signal: opts.signal } : undefined);
        live = await (opts.gate ? opts.gate(call) : call());
      } catch (e) {
        // Our own failures (the gate: lease lost, database) leave as they are.
        if (e instanceof AppError) throw e;
        if (strict && isStrictRefusal(e)) {
          markStrictRefused(opts.model);
          strict = false;
          tools = [toolDefinition({ ...opts.tool, strict })];
          n--; // the same attempt again: the model never answered
          continue;
        }
        const mapped = mapAnthropicError(e, {
          model: opts.model,
          ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
        });
        throw new ToolLoopError(
          mapped.code,
          mapped.message,
          attempts,
          mapped.code === 'cancelado' ? 'cancelado' : 'api',
        );
      }
      tDone = performance.now();
      response = live;
      base = {
        number: n,
        usage: toUso(live.usage),
        stopReason: live.stop_reason ?? null,
        durationMs: Math.round(tDone - t0),
        callMs: tDone - tCall,
        messageId: live.id,
        content: live.content,
      };
    }
    const overhead = () => (prior ? 0 : tCall - t0 + (performance.now() - tDone));

    if (
      response.stop_reason === 'max_tokens' ||
      response.stop_reason === 'model_context_window_exceeded'
    ) {
      await record({
        ...base,
        input: firstToolUse(response.content, opts.tool.name)?.input ?? null,
        errors: [],
        details: undefined,
        overheadMs: overhead(),
      });
      throw new ToolLoopError(
        'configuracao',
        `A resposta do modelo foi cortada pelo limite de tokens (max_tokens = ${opts.maxTokens}). ` +
          'Isso é um problema de configuração: aumente BALCAO_MAX_TOKENS nas configurações.',
        attempts,
        'max_tokens',
      );
    }

    const toolUses = response.content.filter(
      (b): b is ToolUseBlock => b.type === 'tool_use' && b.name === opts.tool.name,
    );
    const call = toolUses[0];
    if (!call) {
      await record({
        ...base,
        input: null,
        errors: [],
        details: undefined,
        overheadMs: overhead(),
      });
      const why = response.stop_reason === 'refusal' ? ' (o modelo recusou o pedido)' : '';
      throw new ToolLoopError(
        'modelo_indisponivel',
        `O modelo respondeu sem chamar a ferramenta ${opts.tool.name}${why}. Tente de novo.`,
        attempts,
        'sem_ferramenta',
      );
    }

    const v = opts.validate(call.input);
    if (v.ok) {
      await record({
        ...base,
        input: call.input,
        errors: [],
        details: undefined,
        overheadMs: overhead(),
      });
      return { ok: true, value: v.value, attempts, usage: sumUso(attempts.map((a) => a.usage)) };
    }

    lastErrors = v.errors;
    lastDetails = v.details;
    if (n < maxAttempts) {
      messages.push({ role: 'assistant', content: response.content as ContentBlock[] });
      messages.push(feedbackMessage(toolUses, v.errors, opts.tool.name));
    }
    await record({
      ...base,
      input: call.input,
      errors: v.errors,
      details: v.details,
      overheadMs: overhead(),
    });
  }

  return {
    ok: false,
    errors: lastErrors,
    details: lastDetails,
    attempts,
    usage: sumUso(attempts.map((a) => a.usage)),
  };
}

function firstToolUse(content: ContentBlock[], name: string): ToolUseBlock | undefined {
  return content.find((b): b is ToolUseBlock => b.type === 'tool_use' && b.name === name);
}
