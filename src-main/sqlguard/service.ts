/**
 * Free SQL end to end: layer 1 (guard) then layer 3 (executor) over layer 2 (role + view),
 * with every attempt logged (question, SQL, verdict, timing). The one entry point for the CLI
 * and the sales flow.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { AppError } from '@shared/errors';
import { sanitizeText } from '@shared/text';
import { writeLogRow } from '../db/log-write';
import type { Logger } from '../util/logger';
import type { LeituraFrescor } from '../db/analytics';
import { checkSql, statementText } from './guard';
import { executeReadOnly, type ExecResult } from './executor';

export type FreeSqlOrigin = 'cli' | 'modelo' | 'app';

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

export interface FreeQueryLogEntry {
  merchantId: number;
  origem: FreeSqlOrigin;
  pergunta: string | null;
  sql: string;
  veredito: 'aceita' | 'recusada' | 'falhou';
  codigo: string | null;
  motivo: string | null;
  linhas: number | null;
  truncado: boolean;
  duracaoMs: number;
}

export interface FreeQueryLog {
  record(entry: FreeQueryLogEntry): Promise<void>;
}

/** Log to the `consultas_livres` table (app role) and to pino; a failed insert never hides a result. */
export function createFreeQueryLog(app: pg.Pool, logger: Logger): FreeQueryLog {
  return {
    async record(e) {
      logger.info(
        {
          consultaLivre: {
            merchantId: e.merchantId,
            origem: e.origem,
            veredito: e.veredito,
            codigo: e.codigo,
            linhas: e.linhas,
            duracaoMs: e.duracaoMs,
          },
        },
        'consulta livre',
      );
      // A refused attempt holding a NUL or a lone surrogate is logged too (sanitized); the key
      // makes a retry after a lost connection insert at most one row.
      const chave = randomUUID();
      try {
        await writeLogRow(app, {
          text: `INSERT INTO consultas_livres
                   (merchant_id, origem, pergunta, sql, veredito, codigo, motivo, linhas, truncado,
                    duracao_ms, chave)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
                 ON CONFLICT (chave) WHERE chave IS NOT NULL DO NOTHING`,
          values: [
            e.merchantId,
            e.origem,
            e.pergunta === null ? null : sanitizeText(e.pergunta.slice(0, 4000)),
            sanitizeText(e.sql.slice(0, 20_000)),
            e.veredito,
            e.codigo,
            e.motivo === null ? null : sanitizeText(e.motivo),
            e.linhas,
            e.truncado,
            Math.max(0, Math.round(e.duracaoMs)),
            chave,
          ],
        });
      } catch (err) {
        logger.error({ err, consultaLivre: e }, 'falha ao registrar consulta livre');
      }
    },
  };
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
