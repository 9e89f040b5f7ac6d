/**
 * The free-SQL log (`consultas_livres`): every free query — from the CLI, the model or the app —
 * with its question, SQL, verdict and timing, written through the app role (insert-only).
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { sanitizeText } from '@shared/text';
import { writeLogRow } from '../../db/log-write';
import type { Logger } from '../../util/logger';

export type FreeSqlOrigin = 'cli' | 'modelo' | 'app';

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
