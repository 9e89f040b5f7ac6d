/** Eval suites by name (`balcao eval --suite`). */
import { suiteCobrancas } from './cobrancas';
import { suiteConsultas } from './consultas';
import type { EvalSuite } from './types';

export const SUITES: Record<string, EvalSuite<never>> = {
  consultas: suiteConsultas as EvalSuite<never>,
  cobrancas: suiteCobrancas as EvalSuite<never>,
};

export * from './runner';
export type * from './types';
export { compareConsulta, suiteConsultas } from './consultas';
export { suiteCobrancas } from './cobrancas';
