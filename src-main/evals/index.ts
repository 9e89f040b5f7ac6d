/** Eval suites by name (`balcao eval --suite`). */
import { suiteCobrancas } from './cobrancas';
import { suiteConsultas } from './consultas';
import { suiteSql } from './sql';
import type { EvalSuite } from './types';

export const SUITES: Record<string, EvalSuite<never>> = {
  consultas: suiteConsultas as EvalSuite<never>,
  cobrancas: suiteCobrancas as EvalSuite<never>,
  sql: suiteSql as EvalSuite<never>,
};

export * from './runner';
export type * from './types';
export { compareConsulta, suiteConsultas } from './consultas';
export { suiteCobrancas } from './cobrancas';
export { suiteSql, executarCasoSql } from './sql';
export { compareResults } from './sql-compare';
export { createEvalSqlDatabase } from './sql-data';
