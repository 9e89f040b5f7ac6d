/**
 * The model step of a sales question: the shared validation-feedback tool loop filling
 * `consultar_vendas`, validated (and its period resolved) against `hoje`. Used by `askSales` and
 * by the evals, so both exercise the same prompt, tool and rules.
 */
import { strictToolsFor } from '../llm/strict';
import type { RuleError } from '@shared/extraction-types';
import { validateConsulta, type ConsultaValidada } from '@shared/sales-dsl';
import { runToolLoop, type ToolLoopResult } from '../llm';
import {
  salesLoopOptions,
  salesSystemPrompt,
  salesTool,
  salesUserMessage,
  type SalesModelRequest,
} from './prompt';

export type InterpretResult = ToolLoopResult<ConsultaValidada, RuleError[]>;

export function interpretQuestion(opts: SalesModelRequest): Promise<InterpretResult> {
  const s = opts.settings;
  return runToolLoop<ConsultaValidada, RuleError[]>({
    ...salesLoopOptions(opts),
    system: salesSystemPrompt(opts.hoje, s.timeZone),
    tool: salesTool(strictToolsFor(s)),
    messages: [{ role: 'user', content: salesUserMessage(opts.pergunta) }],
    validate: (input) => {
      const v = validateConsulta(input, opts.hoje);
      return v.ok
        ? { ok: true, value: v.value }
        : { ok: false, errors: v.erros.map((e) => e.mensagem), details: v.erros };
    },
  });
}
