/**
 * The query log (`consultas_vendas`): every sales question that reached the engine, with the
 * question, the DSL, merchant, operator and timing. Written through the app role (insert-only).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import type { ConsultaVendas } from '@shared/sales-dsl';
import type { Uso } from '@shared/extraction-types';
import type { Logger } from '../util/logger';

export type ResultadoLog = 'respondida' | 'esclarecimento' | 'invalida' | 'erro';

export interface SalesLogEntry {
  merchantId: number;
  operador: string;
  origem: 'pergunta' | 'dsl';
  pergunta: string | null;
  /** The tool input as sent (model, CLI or UI). */
  dsl: unknown;
  consulta: ConsultaVendas | null;
  resultado: ResultadoLog;
  erro: string | null;
  linhas: number | null;
  tentativas: number;
  modelo: string | null;
  uso: Uso | null;
  duracaoMs: number;
  duracaoSqlMs: number | null;
  /**
   * What the row itself cannot show: a free-SQL attempt refused by the guard. Otherwise the
   * outcome is derived from the row (view perguntas_registradas).
   */
  desfecho?: 'sql_recusado';
}

/**
 * The panel session (window) a query belongs to, for the log: set around a question or a chip
 * re-run by the panel, so the report can pair a chip edit with the answer shown before it.
 * Queries run outside a session (CLI, the panel's own totals) carry none.
 */
const logSession = new AsyncLocalStorage<string>();

export function inLogSession<T>(sessao: string, fn: () => Promise<T>): Promise<T> {
  return logSession.run(sessao.slice(0, 100), fn);
}

/**
 * Inserts one log row. A failure to log never hides the answer the user already has: it is
 * reported to the application log with the whole entry, so nothing is lost silently.
 */
export async function logSalesQuery(
  pool: pg.Pool,
  entry: SalesLogEntry,
  logger: Logger,
): Promise<void> {
  try {
    await pool.query({
      text: `INSERT INTO consultas_vendas (merchant_id, operador, origem, pergunta, dsl, consulta,
               resultado, erro, linhas, tentativas, modelo, uso, duracao_ms, duracao_sql_ms,
               desfecho, sessao)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
      values: [
        entry.merchantId,
        entry.operador,
        entry.origem,
        entry.pergunta,
        entry.dsl === undefined ? null : JSON.stringify(entry.dsl),
        entry.consulta ? JSON.stringify(entry.consulta) : null,
        entry.resultado,
        entry.erro,
        entry.linhas,
        entry.tentativas,
        entry.modelo,
        JSON.stringify(entry.uso ?? {}),
        Math.max(0, Math.round(entry.duracaoMs)),
        entry.duracaoSqlMs === null ? null : Math.max(0, Math.round(entry.duracaoSqlMs)),
        entry.desfecho ?? null,
        logSession.getStore() ?? null,
      ],
    });
  } catch (err) {
    logger.error({ err, consulta: entry }, 'falha ao registrar a consulta de vendas no log');
  }
}
