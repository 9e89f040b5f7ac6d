/**
 * The sales questions engine. A question (or a DSL typed by a person) becomes a validated query,
 * its period is resolved by our code from today's local date, it is compiled to parameterized
 * SQL and executed for the caller's merchant, and the answer is written by a template.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type pg from 'pg';
import { AppError } from '@shared/errors';
import {
  validateConsulta,
  type ConsultaVendas,
  type LinhaVenda,
  type ResultadoVendas,
} from '@shared/sales-dsl';
import { formatInterpretacao, formatResposta } from '@shared/sales-format';
import { localDate } from '@shared/time';
import { readAnalytics, type AnalyticsDeps } from '../db/analytics';
import { createClaudeClient, sumUso, ToolLoopError } from '../llm';
import { executeSalesQuery } from './execute';
import { logSalesQuery, type SalesLogEntry } from './log';
import { findMerchant } from './merchants';
import { interpretQuestion, type InterpretResult } from './interpret';
import { answerOutsideDsl } from '../sqlguard/flow';
import type { ModelTrace, SalesEngineDeps } from './deps';

export type { ModelTrace, SalesEngineDeps } from './deps';

/** Today's local date in the configured zone, from the one clock. */
export function todayLocal(deps: Pick<SalesEngineDeps, 'clock' | 'settings'>): string {
  return localDate(deps.clock.now(), deps.settings.get().timeZone);
}

/**
 * Fails with a pt-BR error when the merchant does not exist. Given the engine's deps, it reads
 * where the sales questions read (the replica when configured).
 */
export async function requireMerchant(
  db: pg.Pool | AnalyticsDeps,
  merchantId: number,
): Promise<{ id: number; nome: string }> {
  if (!Number.isSafeInteger(merchantId) || merchantId <= 0) {
    throw new AppError('entrada_invalida', 'Código de lojista inválido.');
  }
  const m =
    'dbs' in db
      ? (await readAnalytics(db, (pools) => findMerchant(pools.appRead, merchantId))).value
      : await findMerchant(db, merchantId);
  if (!m) throw new AppError('nao_encontrado', `Lojista ${merchantId} não encontrado.`);
  return m;
}

/**
 * The merchant check at the start of a question or DSL query. When it fails for any reason but
 * an unknown merchant (a lost connection, a timeout), the attempt is logged all the same: no
 * question is missing from the log. (An unknown merchant cannot be logged: the log row
 * references the merchant.)
 */
async function requireMerchantLogged(
  deps: SalesEngineDeps,
  entry: { merchantId: number; origem: 'pergunta' | 'dsl'; pergunta: string | null; dsl: unknown },
  startedAt: number,
): Promise<void> {
  try {
    await requireMerchant(deps, entry.merchantId);
  } catch (e) {
    if (!(
      e instanceof AppError &&
      (e.code === 'nao_encontrado' || e.code === 'entrada_invalida')
    )) {
      await logSalesQuery(
        deps.dbs.app,
        {
          ...entry,
          operador: deps.settings.get().operator,
          consulta: null,
          resultado: 'erro',
          erro: e instanceof AppError ? e.message : 'erro inesperado',
          linhas: null,
          tentativas: 0,
          modelo: null,
          uso: null,
          duracaoMs: performance.now() - startedAt,
          duracaoSqlMs: null,
        },
        deps.logger,
      );
    }
    throw e;
  }
}

/** Runs a resolved query and writes the answer (no logging). */
export async function runConsulta(
  deps: SalesEngineDeps,
  merchantId: number,
  consulta: ConsultaVendas,
): Promise<{ resultado: ResultadoVendas; linhas: LinhaVenda[]; duracaoSqlMs: number }> {
  const s = deps.settings.get();
  const t0 = performance.now();
  // On the analytics endpoint (the replica when configured), with its freshness.
  const { value: linhas, frescor } = await readAnalytics(deps, (pools, onFrescor) =>
    (deps.executor ?? executeSalesQuery)(pools.analytics, consulta, {
      merchantId,
      timeZone: s.timeZone,
      timeoutMs: s.queryTimeoutMs,
      onFrescor,
    }),
  );
  const duracaoSqlMs = performance.now() - t0;
  return {
    resultado: {
      tipo: 'resposta',
      consulta,
      linhas,
      interpretacao: formatInterpretacao(consulta),
      resposta: formatResposta(consulta, linhas),
      ...(frescor ? { frescor } : {}),
    },
    linhas,
    duracaoSqlMs,
  };
}

/**
 * From a validated tool input to the result, logging what ran. `raw` is what the model (or the
 * person) sent; `trace` says how many model attempts it took.
 */
export async function finishFromDsl(
  deps: SalesEngineDeps,
  req: {
    merchantId: number;
    raw: unknown;
    pergunta: string | null;
    origem: 'pergunta' | 'dsl';
    /** The local date the period is resolved against (the same the model was told). */
    hoje: string;
    startedAt: number;
    trace?: ModelTrace;
  },
): Promise<ResultadoVendas> {
  const base: Omit<
    SalesLogEntry,
    'consulta' | 'resultado' | 'erro' | 'linhas' | 'duracaoMs' | 'duracaoSqlMs'
  > = {
    merchantId: req.merchantId,
    operador: deps.settings.get().operator,
    origem: req.origem,
    pergunta: req.pergunta,
    dsl: req.raw,
    tentativas: req.trace?.tentativas ?? 0,
    modelo: req.trace?.modelo ?? null,
    uso: req.trace?.uso ?? null,
  };
  const elapsed = () => performance.now() - req.startedAt;
  const v = validateConsulta(req.raw, req.hoje);
  if (!v.ok) {
    const mensagem = `Consulta inválida: ${v.erros.map((e) => e.mensagem).join(' ')}`;
    await logSalesQuery(
      deps.dbs.app,
      {
        ...base,
        consulta: null,
        resultado: 'invalida',
        erro: mensagem,
        linhas: null,
        duracaoMs: elapsed(),
        duracaoSqlMs: null,
      },
      deps.logger,
    );
    const fields: Record<string, string[]> = {};
    for (const e of v.erros) (fields[e.campo] ??= []).push(e.mensagem);
    throw new AppError('entrada_invalida', mensagem, fields);
  }
  if (v.value.tipo === 'esclarecimento') {
    await logSalesQuery(
      deps.dbs.app,
      {
        ...base,
        consulta: null,
        resultado: 'esclarecimento',
        erro: null,
        linhas: null,
        duracaoMs: elapsed(),
        duracaoSqlMs: null,
      },
      deps.logger,
    );
    return { tipo: 'esclarecimento', esclarecimento: v.value.pergunta };
  }
  if (v.value.tipo === 'nao_expressavel') {
    // Only the model path (askSales) hands this to the free-SQL fallback.
    throw new AppError('entrada_invalida', 'nao_expressavel só vale para perguntas em texto.');
  }
  const consulta = v.value.consulta;
  try {
    const r = await runConsulta(deps, req.merchantId, consulta);
    await logSalesQuery(
      deps.dbs.app,
      {
        ...base,
        consulta,
        resultado: 'respondida',
        erro: null,
        linhas: r.linhas.length,
        duracaoMs: elapsed(),
        duracaoSqlMs: r.duracaoSqlMs,
      },
      deps.logger,
    );
    return r.resultado;
  } catch (e) {
    await logSalesQuery(
      deps.dbs.app,
      {
        ...base,
        consulta,
        resultado: 'erro',
        erro: e instanceof AppError ? e.message : 'erro inesperado',
        linhas: null,
        duracaoMs: elapsed(),
        duracaoSqlMs: null,
      },
      deps.logger,
    );
    throw e;
  }
}

/**
 * A DSL typed by a person (CLI `--dsl`, UI chips): same validation as the model's, no model.
 * `pergunta`, when given, is logged with it.
 */
export async function answerSalesDsl(
  deps: SalesEngineDeps,
  req: { merchantId: number; dsl: unknown; pergunta?: string },
): Promise<ResultadoVendas> {
  const startedAt = performance.now();
  await requireMerchantLogged(
    deps,
    {
      merchantId: req.merchantId,
      origem: 'dsl',
      pergunta: req.pergunta?.trim() || null,
      dsl: req.dsl,
    },
    startedAt,
  );
  return finishFromDsl(deps, {
    merchantId: req.merchantId,
    raw: req.dsl,
    pergunta: req.pergunta?.trim() || null,
    origem: 'dsl',
    hoje: todayLocal(deps),
    startedAt,
  });
}

/** Longest question accepted (characters). */
export const MAX_PERGUNTA = 1000;

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
}

/**
 * A question in pt-BR: the model fills `consultar_vendas` through the shared validation-feedback
 * loop (errors go back as `tool_result is_error`, at most `settings.maxAttempts` calls), then
 * the same path as a typed DSL. `deps.client` overrides the client built from settings.
 */
export async function askSales(
  deps: SalesEngineDeps & { client?: Anthropic },
  req: AskRequest,
): Promise<ResultadoVendas> {
  const startedAt = performance.now();
  const pergunta = req.pergunta.trim();
  if (!pergunta) throw new AppError('entrada_invalida', 'Escreva a pergunta sobre as vendas.');
  if (pergunta.length > MAX_PERGUNTA) {
    throw new AppError(
      'entrada_invalida',
      `A pergunta é longa demais (máximo de ${MAX_PERGUNTA} caracteres).`,
    );
  }
  await requireMerchantLogged(
    deps,
    { merchantId: req.merchantId, origem: 'pergunta', pergunta, dsl: null },
    startedAt,
  );
  const s = deps.settings.get();
  const client = deps.client ?? createClaudeClient(deps.settings);
  const hoje = todayLocal(deps);
  const operador = s.operator;
  req.onProgress?.({ etapa: 'interpretando a pergunta' });
  let loop: InterpretResult;
  try {
    loop = await interpretQuestion({
      client,
      settings: s,
      pergunta,
      hoje,
      onAttempt: ({ attempt, maxAttempts }) =>
        req.onProgress?.({
          etapa: 'interpretando a pergunta',
          tentativa: attempt,
          maxTentativas: maxAttempts,
        }),
      ...(req.signal ? { signal: req.signal } : {}),
    });
  } catch (e) {
    const attempts = e instanceof ToolLoopError ? e.attempts : [];
    await logSalesQuery(
      deps.dbs.app,
      {
        merchantId: req.merchantId,
        operador,
        origem: 'pergunta',
        pergunta,
        dsl: attempts[attempts.length - 1]?.input ?? null,
        consulta: null,
        resultado: 'erro',
        erro: e instanceof AppError ? e.message : 'erro inesperado',
        linhas: null,
        tentativas: attempts.length,
        modelo: s.model,
        uso: sumUso(attempts.map((a) => a.usage)),
        duracaoMs: performance.now() - startedAt,
        duracaoSqlMs: null,
      },
      deps.logger,
    );
    throw e;
  }
  const last = loop.attempts[loop.attempts.length - 1];
  const trace: ModelTrace = { tentativas: loop.attempts.length, modelo: s.model, uso: loop.usage };
  if (!loop.ok) {
    const mensagem =
      `Não consegui transformar a pergunta numa consulta válida depois de ${loop.attempts.length} ` +
      `tentativa(s): ${loop.errors.join(' ')} Reformule a pergunta, por exemplo: ` +
      '"quanto vendi no pix ontem?".';
    await logSalesQuery(
      deps.dbs.app,
      {
        merchantId: req.merchantId,
        operador,
        origem: 'pergunta',
        pergunta,
        dsl: last?.input ?? null,
        consulta: null,
        resultado: 'invalida',
        erro: mensagem,
        linhas: null,
        ...trace,
        duracaoMs: performance.now() - startedAt,
        duracaoSqlMs: null,
      },
      deps.logger,
    );
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
  return finishFromDsl(deps, {
    merchantId: req.merchantId,
    raw: last?.input,
    pergunta,
    origem: 'pergunta',
    hoje,
    startedAt,
    trace,
  });
}
