/**
 * The query log (`consultas_vendas`): every sales question the sales service handled, with the
 * question, the DSL, merchant, operator and timing. Written through the app role (insert-only).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { ConsultaVendas } from '@shared/sales-dsl';
import type { Uso } from '@shared/extraction-types';
import { sanitizeDeep, sanitizeText } from '@shared/text';
import { writeLogRow } from '../db/log-write';
import type { Logger } from '../util/logger';
import { AppError } from '@shared/errors';
import type { ModelTrace, SalesDeps } from './deps';

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

const text = (s: string | null) => (s === null ? null : sanitizeText(s));
const jsonText = (v: unknown) =>
  v === undefined || v === null ? null : JSON.stringify(sanitizeDeep(v));

/**
 * Inserts one log row. Text the database cannot store (NUL, lone surrogates: a DSL or question
 * holding them) is sanitized, never a reason to drop the row. The row's key makes a retry after
 * a lost connection insert at most one row. A failure to log never hides the answer the user
 * already has: it is reported to the application log with the whole entry.
 */
export async function logSalesQuery(
  pool: pg.Pool,
  entry: SalesLogEntry,
  logger: Logger,
): Promise<void> {
  const chave = randomUUID();
  try {
    await writeLogRow(pool, {
      text: `INSERT INTO consultas_vendas (merchant_id, operador, origem, pergunta, dsl, consulta,
               resultado, erro, linhas, tentativas, modelo, uso, duracao_ms, duracao_sql_ms,
               desfecho, sessao, chave)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
             ON CONFLICT (chave) WHERE chave IS NOT NULL DO NOTHING`,
      values: [
        entry.merchantId,
        sanitizeText(entry.operador),
        entry.origem,
        text(entry.pergunta),
        jsonText(entry.dsl),
        jsonText(entry.consulta),
        entry.resultado,
        text(entry.erro),
        entry.linhas,
        entry.tentativas,
        entry.modelo,
        JSON.stringify(entry.uso ?? {}),
        Math.max(0, Math.round(entry.duracaoMs)),
        entry.duracaoSqlMs === null ? null : Math.max(0, Math.round(entry.duracaoSqlMs)),
        entry.desfecho ?? null,
        logSession.getStore() ?? null,
        chave,
      ],
    });
  } catch (err) {
    logger.error({ err, consulta: entry }, 'falha ao registrar a consulta de vendas no log');
  }
}

/** The pt-BR text of a failure for the log (a programming error says only that it was one). */
export function errorText(e: unknown): string {
  return e instanceof AppError ? e.message : 'erro inesperado';
}

/** What every row of one question (or DSL query) shares. */
export interface QuestionLogBase {
  merchantId: number;
  origem: 'pergunta' | 'dsl';
  pergunta: string | null;
  /** The tool input as sent (model, CLI or UI). */
  dsl: unknown;
}

/** One outcome of a question: what the shared part does not say. */
export interface QuestionOutcome {
  consulta?: ConsultaVendas | null;
  erro?: string | null;
  linhas?: number | null;
  duracaoSqlMs?: number | null;
  desfecho?: 'sql_recusado';
  /** Overrides the base's DSL (the model's last attempt, known only after the loop). */
  dsl?: unknown;
  /** What the model loop cost (none for a typed DSL). */
  trace?: ModelTrace;
}

/** The log of one question: `record` writes one row with the time since `startedAt`. */
export interface QuestionLog {
  record(resultado: ResultadoLog, outcome?: QuestionOutcome): Promise<void>;
}

export function questionLog(
  deps: Pick<SalesDeps, 'dbs' | 'settings' | 'logger'>,
  base: QuestionLogBase,
  startedAt: number,
  /** What the model loop cost, when it is known up front (an outcome may say otherwise). */
  trace?: ModelTrace,
): QuestionLog {
  return {
    record: (resultado, { trace: own, ...o } = {}) => {
      const t = own ?? trace;
      return logSalesQuery(
        deps.dbs.app,
        {
          ...base,
          ...(o.dsl !== undefined ? { dsl: o.dsl } : {}),
          operador: deps.settings.get().operator,
          consulta: o.consulta ?? null,
          resultado,
          erro: o.erro ?? null,
          linhas: o.linhas ?? null,
          tentativas: t?.tentativas ?? 0,
          modelo: t?.modelo ?? null,
          uso: t?.uso ?? null,
          duracaoMs: performance.now() - startedAt,
          duracaoSqlMs: o.duracaoSqlMs ?? null,
          ...(o.desfecho ? { desfecho: o.desfecho } : {}),
        },
        deps.logger,
      );
    },
  };
}
