/**
 * A sales question in pt-BR: the model fills `consultar_vendas` through the shared
 * validation-feedback loop (errors go back as `tool_result is_error`, at most
 * `settings.maxAttempts` calls); the query the loop validated is answered as is
 * (`answerValidated`), or — outside the DSL — handed to the free-SQL fallback.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { MAX_PERGUNTA, MSG_PERGUNTA_LONGA } from '@shared/contract/sales';
import { AppError } from '@shared/errors';
import type { ResultadoVendas } from '@shared/sales-dsl';
import { createClaudeClient, sumUso, ToolLoopError } from '../llm';
import { answerValidated, todayLocal } from './answer';
import type { ModelTrace, SalesDeps } from './deps';
import { answerOutsideDsl } from './free-sql/fallback';
import { interpretQuestion, type InterpretResult } from './interpret';
import { errorText, questionLog } from './log';
import { requireMerchantLogged } from './merchants';
import { attemptProgress } from './prompt';

export interface SalesProgress {
  etapa: string;
  tentativa?: number;
  maxTentativas?: number;
}

export interface AskRequest {
  merchantId: number;
  pergunta: string;
  signal?: AbortSignal;
  onProgress?: (p: SalesProgress) => void;
  /**
   * The merchant was checked when it was chosen (the panel's window): it is not looked up again.
   * Without it (CLI, tests) the merchant is checked first.
   */
  merchantChosen?: boolean;
}

/** `deps.client` overrides the client built from settings. */
export async function askSales(
  deps: SalesDeps & { client?: Anthropic },
  req: AskRequest,
): Promise<ResultadoVendas> {
  const startedAt = performance.now();
  const pergunta = req.pergunta.trim();
  if (!pergunta) throw new AppError('entrada_invalida', 'Escreva a pergunta sobre as vendas.');
  if (pergunta.length > MAX_PERGUNTA) throw new AppError('entrada_invalida', MSG_PERGUNTA_LONGA);
  const base = { merchantId: req.merchantId, origem: 'pergunta' as const, pergunta, dsl: null };
  if (!req.merchantChosen) await requireMerchantLogged(deps, base, startedAt);
  const s = deps.settings.get();
  const client = deps.client ?? createClaudeClient(deps.settings);
  const hoje = todayLocal(deps);
  req.onProgress?.({ etapa: 'interpretando a pergunta' });
  let loop: InterpretResult;
  try {
    loop = await interpretQuestion({
      client,
      settings: s,
      pergunta,
      hoje,
      onAttempt: attemptProgress('interpretando a pergunta', req.onProgress),
      ...(req.signal ? { signal: req.signal } : {}),
    });
  } catch (e) {
    const attempts = e instanceof ToolLoopError ? e.attempts : [];
    await questionLog(deps, base, startedAt).record('erro', {
      dsl: attempts[attempts.length - 1]?.input ?? null,
      erro: errorText(e),
      trace: {
        tentativas: attempts.length,
        modelo: s.model,
        uso: sumUso(attempts.map((a) => a.usage)),
      },
    });
    throw e;
  }
  const last = loop.attempts[loop.attempts.length - 1];
  const trace: ModelTrace = { tentativas: loop.attempts.length, modelo: s.model, uso: loop.usage };
  const log = questionLog(deps, { ...base, dsl: last?.input ?? null }, startedAt, trace);
  if (!loop.ok) {
    const mensagem =
      `Não consegui transformar a pergunta numa consulta válida depois de ${loop.attempts.length} ` +
      `tentativa(s): ${loop.errors.join(' ')} Reformule a pergunta, por exemplo: ` +
      '"quanto vendi no pix ontem?".';
    await log.record('invalida', { erro: mensagem });
    throw new AppError('consulta_recusada', mensagem);
  }
  if (loop.value.tipo === 'nao_expressavel') {
    // Outside the DSL: the free-SQL fallback (off by default) or a clarification.
    return answerOutsideDsl(deps, {
      merchantId: req.merchantId,
      pergunta,
      hoje,
      client,
      trace,
      dsl: last?.input ?? null,
      startedAt,
      ...(req.signal ? { signal: req.signal } : {}),
      ...(req.onProgress ? { onProgress: req.onProgress } : {}),
    });
  }
  if (loop.value.tipo === 'consulta') req.onProgress?.({ etapa: 'consultando as vendas' });
  return answerValidated(deps, req.merchantId, loop.value, log);
}
