/**
 * One free query end to end: layer 1 (guard) then layer 3 (executor) over layer 2 (role +
 * view), with the attempt logged (question, SQL, verdict, timing). The one entry point for the
 * CLI, the evals and the sales question's free-SQL fallback.
 */
import type pg from 'pg';
import { AppError } from '@shared/errors';
import type { LeituraFrescor } from '../../db/analytics';
import { executeReadOnly, type ExecResult } from '../../sqlguard/executor';
import { checkSql, statementText } from '../../sqlguard/guard';
import type { FreeQueryLog, FreeSqlOrigin } from './log';

export {
  createFreeQueryLog,
  type FreeQueryLog,
  type FreeQueryLogEntry,
  type FreeSqlOrigin,
} from './log';

export interface FreeSqlRequest {
  merchantId: number;
  sql: string;
  origem: FreeSqlOrigin;
  /** The user's question, when the SQL came from the model. */
  pergunta?: string;
}

export interface FreeSqlConfig {
  timeoutMs: number;
  timeZone?: string;
  maxRows?: number;
  maxBytes?: number;
  /** Receives the endpoint's freshness (a hot standby's lag). */
  onFrescor?: (l: LeituraFrescor) => void;
}

/**
 * A refusal by the guard (parser, role/view, resource caps), as opposed to a query that was
 * allowed but failed when it ran (division by zero, a bad cast, a timeout).
 */
export function isGuardRefusal(e: AppError): boolean {
  return e.message.startsWith('consulta recusada');
}

/** Guard, execute, log. Throws AppError (pt-BR) when refused or failed. */
export async function runFreeSql(
  analytics: pg.Pool,
  config: FreeSqlConfig,
  req: FreeSqlRequest,
  log?: FreeQueryLog,
): Promise<ExecResult> {
  const t0 = performance.now();
  const base = {
    merchantId: req.merchantId,
    origem: req.origem,
    pergunta: req.pergunta ?? null,
    sql: typeof req.sql === 'string' ? req.sql : String(req.sql),
  };
  const verdict = await checkSql(req.sql);
  if (!verdict.ok) {
    await log?.record({
      ...base,
      veredito: 'recusada',
      codigo: verdict.code,
      motivo: verdict.motivo,
      linhas: null,
      truncado: false,
      duracaoMs: performance.now() - t0,
    });
    throw new AppError('consulta_recusada', verdict.motivo);
  }
  try {
    const r = await executeReadOnly(analytics, {
      merchantId: req.merchantId,
      sql: statementText(verdict.sql),
      timeoutMs: config.timeoutMs,
      ...(config.timeZone ? { timeZone: config.timeZone } : {}),
      ...(config.maxRows ? { maxRows: config.maxRows } : {}),
      ...(config.maxBytes ? { maxBytes: config.maxBytes } : {}),
      ...(config.onFrescor ? { onFrescor: config.onFrescor } : {}),
    });
    await log?.record({
      ...base,
      veredito: 'aceita',
      codigo: null,
      motivo: null,
      linhas: r.linhas.length,
      truncado: r.truncado,
      duracaoMs: performance.now() - t0,
    });
    return r;
  } catch (e) {
    const err =
      e instanceof AppError ? e : new AppError('interno', 'Erro inesperado na consulta livre.');
    await log?.record({
      ...base,
      veredito: isGuardRefusal(err) ? 'recusada' : 'falhou',
      codigo: err.code,
      motivo: err.message,
      linhas: null,
      truncado: false,
      duracaoMs: performance.now() - t0,
    });
    throw err;
  }
}
