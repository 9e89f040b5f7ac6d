/**
 * The free-SQL fallback of a sales question. When the DSL tool says `nao_expressavel` and the
 * setting is on (off by default: `freeSqlEnabled` / BALCAO_FREE_SQL), the model writes one
 * SELECT over `vendas_ia` (`prompt.ts`); the accepted SQL runs through the whole guard (parser →
 * executor → role/view, `run.ts`) and the answer text is written by this code from the rows —
 * never by the model. Every attempt is logged (question, SQL, verdict, timing).
 */
import type Anthropic from '@anthropic-ai/sdk';
import { AppError } from '@shared/errors';
import { formatBRL } from '@shared/money';
import type { MerchantSummary, SalesFreeAnswer } from '@shared/contract/sales';
import type { ResultadoVendas } from '@shared/sales-dsl';
import { readAnalytics } from '../../db/analytics';
import { ToolLoopError } from '../../llm';
import type { Cell, Linha } from '../../sqlguard/executor';
import type { ModelTrace, SalesDeps } from '../deps';
import { errorText, questionLog } from '../log';
import { attemptProgress } from '../prompt';
import { writeFreeSql } from './prompt';
import { createFreeQueryLog, runFreeSql } from './run';

export { TOOL_ESCREVER_SQL } from './prompt';

function formatCell(coluna: string, v: Cell): string {
  if (v === null) return '—';
  if (typeof v === 'number') {
    return /centavos/i.test(coluna) && Number.isFinite(v)
      ? formatBRL(Math.round(v))
      : v.toLocaleString('pt-BR', { maximumFractionDigits: 2 });
  }
  if (typeof v === 'boolean') return v ? 'sim' : 'não';
  return v;
}

/** The answer sentence, written by our code from the rows (never by the model). */
export function describeRows(colunas: string[], linhas: Linha[], truncado: boolean): string {
  const prefixo = 'Consulta livre (confira o SQL):';
  if (linhas.length === 0) return `${prefixo} nenhuma venda atende à consulta.`;
  const first = linhas[0] as Linha;
  if (linhas.length === 1) {
    const partes = colunas
      .slice(0, 8)
      .map((c, i) => `${c.replace(/_/g, ' ')}: ${formatCell(c, first[i] ?? null)}`);
    return `${prefixo} ${partes.join('; ')}.`;
  }
  const n = linhas.length.toLocaleString('pt-BR');
  return `${prefixo} ${n} linhas${truncado ? ' (resultado cortado no limite; mostrando as primeiras)' : ''}, com as colunas ${colunas.join(', ')}.`;
}

export const FREE_SQL_DISABLED_MESSAGE =
  'Ainda não sei responder a essa pergunta. Consigo dizer totais, quantidade de vendas e ticket médio por período, forma de pagamento, bandeira, dia ou hora: tente perguntar nesses termos.';

/**
 * The sales answer's hook for `nao_expressavel`: a clarification when the fallback is off; otherwise
 * the second tool, the guard and a code-written answer.
 */
export async function answerOutsideDsl(
  deps: SalesDeps,
  req: {
    merchantId: number;
    pergunta: string;
    hoje: string;
    client: Anthropic;
    trace: ModelTrace;
    dsl: unknown;
    startedAt: number;
    signal?: AbortSignal;
    onProgress?: (p: { etapa: string; tentativa?: number; maxTentativas?: number }) => void;
  },
): Promise<ResultadoVendas> {
  const s = deps.settings.get();
  const log = questionLog(
    deps,
    { merchantId: req.merchantId, origem: 'pergunta', pergunta: req.pergunta, dsl: req.dsl },
    req.startedAt,
    req.trace,
  );
  if (!s.freeSqlEnabled) {
    await log.record('esclarecimento', {});
    return { tipo: 'esclarecimento', esclarecimento: FREE_SQL_DISABLED_MESSAGE };
  }
  const freeLog = createFreeQueryLog(deps.dbs.app, deps.logger);
  req.onProgress?.({ etapa: 'escrevendo a consulta livre' });
  let loop: Awaited<ReturnType<typeof writeFreeSql>>;
  try {
    loop = await writeFreeSql({
      client: req.client,
      settings: s,
      pergunta: req.pergunta,
      hoje: req.hoje,
      onAttempt: attemptProgress('escrevendo a consulta livre', req.onProgress),
      ...(req.signal ? { signal: req.signal } : {}),
    });
  } catch (e) {
    await log.record('erro', { erro: errorText(e) });
    throw e instanceof ToolLoopError || e instanceof AppError
      ? e
      : new AppError('interno', 'Erro inesperado ao escrever a consulta livre.');
  }
  // Every refused attempt is logged with its SQL and verdict.
  for (const a of loop.attempts) {
    if (a.errors.length === 0) continue;
    const sql = (a.input as { sql?: unknown } | null)?.sql;
    await freeLog.record({
      merchantId: req.merchantId,
      origem: 'modelo',
      pergunta: req.pergunta,
      sql: typeof sql === 'string' ? sql : JSON.stringify(a.input ?? null),
      veredito: 'recusada',
      codigo: typeof a.details === 'string' ? a.details : null,
      motivo: a.errors.join(' '),
      linhas: null,
      truncado: false,
      duracaoMs: 0,
    });
  }
  if (!loop.ok) {
    const mensagem = `O modelo não conseguiu escrever uma consulta permitida depois de ${loop.attempts.length} tentativa(s): ${loop.errors.join(' ')}`;
    await log.record('erro', { erro: mensagem, desfecho: 'sql_recusado' });
    throw new AppError('consulta_recusada', mensagem);
  }
  req.onProgress?.({ etapa: 'consultando as vendas' });
  const t0 = performance.now();
  try {
    const { value: r, frescor } = await readAnalytics(deps, (pools, onFrescor) =>
      runFreeSql(
        pools.analytics,
        { timeoutMs: s.queryTimeoutMs, timeZone: s.timeZone, onFrescor },
        { merchantId: req.merchantId, sql: loop.value, origem: 'modelo', pergunta: req.pergunta },
        freeLog,
      ),
    );
    await log.record('respondida', {
      linhas: r.linhas.length,
      duracaoSqlMs: performance.now() - t0,
    });
    return {
      tipo: 'livre',
      sql: loop.value,
      colunas: r.colunas,
      linhas: r.linhas,
      truncado: r.truncado,
      resposta: describeRows(r.colunas, r.linhas, r.truncado),
      ...(frescor ? { frescor } : {}),
    };
  } catch (e) {
    await log.record('erro', { erro: errorText(e) });
    throw e;
  }
}

/** The panel's shape of a free answer (SalesFreeAnswer), for `sales/ask`. */
export function toFreeAnswer(
  r: Extract<ResultadoVendas, { tipo: 'livre' }>,
  extra: { merchant: MerchantSummary; pergunta: string; startedAt: number },
): SalesFreeAnswer {
  return {
    tipo: 'livre',
    pergunta: extra.pergunta,
    merchant: extra.merchant,
    sql: r.sql,
    colunas: r.colunas,
    linhas: r.linhas,
    resposta: r.resposta,
    truncado: r.truncado,
    duracaoMs: Math.round(performance.now() - extra.startedAt),
    ...(r.frescor ? { frescor: r.frescor } : {}),
  };
}
