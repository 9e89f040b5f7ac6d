/**
 * Answering a sales query: a validated query (from the model's loop, or a DSL typed by a
 * person) has its period resolved by our code from today's local date, is compiled to
 * parameterized SQL and executed for the merchant — with its totals row, in the SAME tenant
 * transaction — and the answer is written by a template. Each question is logged once.
 */
import { AppError } from '@shared/errors';
import {
  validateConsulta,
  type ConsultaValidada,
  type ConsultaVendas,
  type LinhaVenda,
  type ResultadoVendas,
  type RespostaVendas,
} from '@shared/sales-dsl';
import { formatInterpretacao, formatPartesResposta, textoDaResposta } from '@shared/sales-format';
import { localDate } from '@shared/time';
import { readAnalytics } from '../db/analytics';
import type { SalesDeps } from './deps';
import { batchOf, executeSalesQueries } from './execute';
import { errorText, questionLog, type QuestionLog } from './log';
import { requireMerchantLogged } from './merchants';

/** Today's local date in the configured zone, from the one clock. */
export function todayLocal(deps: Pick<SalesDeps, 'clock' | 'settings'>): string {
  return localDate(deps.clock.now(), deps.settings.get().timeZone);
}

/**
 * The query of a grouped answer's totals row when its rows cannot give it: an average (not a sum
 * of group averages) or a top-N (the groups were cut). Null when the rows suffice or there is
 * no grouping.
 */
export function periodTotalQuery(q: ConsultaVendas): ConsultaVendas | null {
  if (q.agrupar_por === 'nenhum') return null;
  if (q.metrica !== 'ticket_medio' && q.limite === null) return null;
  return { ...q, agrupar_por: 'nenhum', periodo: null, ordem: null, limite: null };
}

function periodTotal(q: ConsultaVendas, linhas: LinhaVenda[], totalRows?: LinhaVenda[]) {
  if (q.agrupar_por === 'nenhum') return null;
  if (totalRows) return totalRows[0]?.valor ?? null;
  return linhas.reduce((s, l) => s + (l.valor ?? 0), 0);
}

/** Runs a resolved query (and its period total, same transaction) and writes the answer. */
export async function runConsulta(
  deps: SalesDeps,
  merchantId: number,
  consulta: ConsultaVendas,
): Promise<{ resultado: RespostaVendas; linhas: LinhaVenda[]; duracaoSqlMs: number }> {
  const s = deps.settings.get();
  const t0 = performance.now();
  const totalQuery = periodTotalQuery(consulta);
  const exec = deps.executor ? batchOf(deps.executor) : executeSalesQueries;
  // On the analytics endpoint (the replica when configured), with its freshness.
  const { value, frescor } = await readAnalytics(deps, (pools, onFrescor) =>
    exec(pools.analytics, totalQuery ? [consulta, totalQuery] : [consulta], {
      merchantId,
      timeZone: s.timeZone,
      timeoutMs: s.queryTimeoutMs,
      onFrescor,
      ...(deps.onPath ? { onPath: deps.onPath } : {}),
    }),
  );
  const linhas = value[0] ?? [];
  const duracaoSqlMs = performance.now() - t0;
  const partes = formatPartesResposta(consulta, linhas);
  return {
    resultado: {
      tipo: 'resposta',
      consulta,
      linhas,
      total: periodTotal(consulta, linhas, totalQuery ? (value[1] ?? []) : undefined),
      interpretacao: formatInterpretacao(consulta),
      resposta: textoDaResposta(partes),
      partes,
      ...(frescor ? { frescor } : {}),
    },
    linhas,
    duracaoSqlMs,
  };
}

/**
 * From a validated query (used as is: the model's loop or `answerSalesDsl` validated it) to the
 * result, logging the outcome once on `log`.
 */
export async function answerValidated(
  deps: SalesDeps,
  merchantId: number,
  validated: ConsultaValidada,
  log: QuestionLog,
): Promise<ResultadoVendas> {
  if (validated.tipo === 'esclarecimento') {
    await log.record('esclarecimento');
    return { tipo: 'esclarecimento', esclarecimento: validated.pergunta };
  }
  if (validated.tipo === 'nao_expressavel') {
    // Only the model path (askSales) hands this to the free-SQL fallback.
    throw new AppError('entrada_invalida', 'nao_expressavel só vale para perguntas em texto.');
  }
  const consulta = validated.consulta;
  try {
    const r = await runConsulta(deps, merchantId, consulta);
    await log.record('respondida', {
      consulta,
      linhas: r.linhas.length,
      duracaoSqlMs: r.duracaoSqlMs,
    });
    return r.resultado;
  } catch (e) {
    await log.record('erro', { consulta, erro: errorText(e) });
    throw e;
  }
}

export interface DslRequest {
  merchantId: number;
  dsl: unknown;
  /** Logged with the query, when given. */
  pergunta?: string;
  /**
   * The merchant was checked when it was chosen (the panel's window): it is not looked up again.
   * Without it (CLI, tests) the merchant is checked first.
   */
  merchantChosen?: boolean;
}

/** A DSL typed by a person (CLI `--dsl`, UI chips): the same validation as the model's, no model. */
export async function answerSalesDsl(deps: SalesDeps, req: DslRequest): Promise<ResultadoVendas> {
  const startedAt = performance.now();
  const base = {
    merchantId: req.merchantId,
    origem: 'dsl' as const,
    pergunta: req.pergunta?.trim() || null,
    dsl: req.dsl,
  };
  if (!req.merchantChosen) await requireMerchantLogged(deps, base, startedAt);
  const log = questionLog(deps, base, startedAt);
  const v = validateConsulta(req.dsl, todayLocal(deps));
  if (!v.ok) {
    const mensagem = `Consulta inválida: ${v.erros.map((e) => e.mensagem).join(' ')}`;
    await log.record('invalida', { erro: mensagem });
    const fields: Record<string, string[]> = {};
    for (const e of v.erros) (fields[e.campo] ??= []).push(e.mensagem);
    throw new AppError('entrada_invalida', mensagem, fields);
  }
  return answerValidated(deps, req.merchantId, v.value, log);
}
