/**
 * The model step of a sales question: the shared validation-feedback tool loop filling
 * `consultar_vendas`, validated (and its period resolved) against `hoje`. Used by the engine and
 * by the evals, so both exercise the same prompt, tool and rules.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { RuleError } from '@shared/extraction-types';
import { validateConsulta, type ConsultaValidada } from '@shared/sales-dsl';
import { runToolLoop, type ToolLoopResult } from '../llm';
import type { Settings } from '../settings/types';
import { salesSystemPrompt, salesTool, salesUserMessage } from './prompt';

export type InterpretResult = ToolLoopResult<ConsultaValidada, RuleError[]>;

export function interpretQuestion(opts: {
  client: Anthropic;
  settings: Settings;
  pergunta: string;
  /** Local date in settings.timeZone. */
  hoje: string;
  signal?: AbortSignal;
  onAttempt?: (info: { attempt: number; maxAttempts: number }) => void;
}): Promise<InterpretResult> {
  const s = opts.settings;
  return runToolLoop<ConsultaValidada, RuleError[]>({
    client: opts.client,
    model: s.model,
    maxTokens: s.maxTokens,
    system: salesSystemPrompt(opts.hoje, s.timeZone),
    tool: salesTool(s.strictTools),
    messages: [{ role: 'user', content: salesUserMessage(opts.pergunta) }],
    validate: (input) => {
      const v = validateConsulta(input, opts.hoje);
      return v.ok
        ? { ok: true, value: v.value }
        : { ok: false, errors: v.erros.map((e) => e.mensagem), details: v.erros };
    },
    maxAttempts: s.maxAttempts,
    timeoutMs: s.requestTimeoutMs,
    ...(opts.onAttempt ? { onAttempt: opts.onAttempt } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
}
