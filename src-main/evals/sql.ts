/**
 * Eval suite for the free-SQL path (evals/sql.jsonl: `{pergunta, hoje, sql_referencia,
 * ordenado?}`). Two SQL texts can both be right, so the suite never compares SQL text: the
 * model writes its SQL through the product's own tool loop and guard, then the model's SQL and
 * the reference run on the suite's fixed data (sql-data.ts) under the same guard and tenant,
 * and the results are compared by their rows and values (sql-compare.ts). Verdicts: igual,
 * diferente, recusada (by the guard) or erro.
 */
import { isAppError } from '@shared/errors';
import { z } from '@shared/zod';
import { isGuardRefusal, runFreeSql } from '../sales/free-sql/run';
import { TOOL_ESCREVER_SQL, writeFreeSql } from '../sales/free-sql/prompt';
import type { ExecResult } from '../sqlguard/executor';
import { compareResults, type Celula, type ResultadoTabela } from './sql-compare';
import {
  entradasDe,
  falhaDoCaso,
  perguntaDoCaso,
  type Comparacao,
  type EvalRunContext,
  type EvalSuite,
  type ExecucaoCaso,
  type VereditoSql,
} from './types';

export const CasoSql = z.strictObject({
  pergunta: z.string().trim().min(1),
  hoje: z.iso.date(),
  /** A SELECT over vendas_ia that answers the question on the suite's data. */
  sql_referencia: z.string().trim().min(1),
  /** The question implies an order (a ranking): rows must come in the same order. */
  ordenado: z.boolean().optional(),
  nota: z.string().optional(),
});
export type CasoSql = z.infer<typeof CasoSql>;

/** The executor's rows as a table (positional cells, one array per row). */
export function asTable(r: Pick<ExecResult, 'colunas' | 'linhas'>): ResultadoTabela {
  return {
    colunas: r.colunas,
    linhas: r.linhas.map((l) =>
      Array.isArray(l)
        ? (l as Celula[])
        : r.colunas.map((c) => (l as Record<string, Celula>)[c] ?? null),
    ),
  };
}

function comparacao(veredito: VereditoSql, obtido?: string, esperado?: string): Comparacao {
  return {
    ok: veredito === 'igual',
    campos: ['resultado'],
    diferencas:
      veredito === 'igual'
        ? []
        : [{ campo: 'resultado', esperado: esperado ?? 'o resultado da referência', obtido }],
  };
}

async function run(ctx: EvalRunContext, sql: string): Promise<ResultadoTabela> {
  const db = ctx.sqlDb;
  if (!db) throw new Error('suíte sql sem banco de dados de avaliação');
  const r = await runFreeSql(
    db.analytics,
    { timeoutMs: ctx.config.queryTimeoutMs, timeZone: ctx.config.timeZone },
    { merchantId: db.merchantId, sql, origem: 'cli' },
  );
  return asTable(r);
}

/**
 * Runs one case: the model's SQL (through the guard inside the tool loop), then both SQLs on
 * the fixed data, then the comparison. Never throws for model, guard or database failures.
 */
export async function executarCasoSql(c: CasoSql, ctx: EvalRunContext): Promise<ExecucaoCaso> {
  let entradas: unknown[];
  let sqlModelo: string;
  try {
    const loop = await writeFreeSql(perguntaDoCaso(c, ctx));
    entradas = entradasDe(loop.attempts);
    if (!loop.ok) {
      return {
        entradas,
        veredito: 'recusada',
        comparacao: comparacao('recusada', `recusada pela guarda: ${loop.errors.join(' ')}`),
      };
    }
    sqlModelo = loop.value;
  } catch (e) {
    const falha = falhaDoCaso(e);
    return { ...falha, veredito: 'erro', comparacao: comparacao('erro', falha.erro) };
  }
  let referencia: ResultadoTabela;
  try {
    referencia = await run(ctx, c.sql_referencia);
  } catch (e) {
    const erro = `a consulta de referência falhou: ${isAppError(e) ? e.message : 'erro inesperado'}`;
    return { entradas, veredito: 'erro', comparacao: comparacao('erro', erro), erro };
  }
  let obtido: ResultadoTabela;
  try {
    obtido = await run(ctx, sqlModelo);
  } catch (e) {
    const msg = isAppError(e) ? e.message : 'erro inesperado';
    if (isAppError(e) && isGuardRefusal(e)) {
      return {
        entradas,
        veredito: 'recusada',
        comparacao: comparacao('recusada', `recusada pela guarda: ${msg}`),
      };
    }
    const erro = `a consulta do modelo falhou: ${msg}`;
    return { entradas, veredito: 'erro', comparacao: comparacao('erro', erro), erro };
  }
  const cmp = compareResults(referencia, obtido, { ordenado: c.ordenado ?? false });
  return cmp.igual
    ? { entradas, veredito: 'igual', comparacao: comparacao('igual') }
    : {
        entradas,
        veredito: 'diferente',
        comparacao: comparacao('diferente', cmp.motivo, 'o resultado da referência'),
      };
}

export const suiteSql: EvalSuite<CasoSql> = {
  nome: 'sql',
  arquivo: 'evals/sql.jsonl',
  ferramenta: TOOL_ESCREVER_SQL,
  precisaBanco: true,
  parse: (raw) => CasoSql.parse(raw),
  texto: (c) => c.pergunta,
  hoje: (c) => c.hoje,
  executar: executarCasoSql,
};
