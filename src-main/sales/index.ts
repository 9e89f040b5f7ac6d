/**
 * Sales questions: a question or chips → a validated query → SQL → the answer. For the IPC channel `sales/ask` (panel) use `askSales` (a question)
 * or `answerSalesDsl` (edited chips / typed DSL) with the session's merchant id; for
 * benchmarks and alternative execution paths use the compiler and executors.
 */
export { askSales, type AskRequest, type SalesProgress } from './ask';
export { answerSalesDsl, runConsulta, todayLocal, type DslRequest } from './answer';
export type { ModelTrace, SalesDeps } from './deps';
export { MAX_PERGUNTA } from '@shared/contract/sales';
export {
  compileSalesQuery,
  localDayStart,
  type CompileContext,
  type CompiledQuery,
  type SalesSource,
} from './compile';
export {
  executeSalesQuery,
  executeSalesQueryBaseTable,
  executeSalesQueryRollups,
  executeSalesQueryTenantView,
  executeSalesQueries,
  type ExecuteContext,
  type SalesBatchExecutor,
  type SalesExecutor,
} from './execute';
export { choosePath, baseLimit, type MerchantVolume, type SalesPath } from './path';
export { interpretQuestion, type InterpretResult } from './interpret';
export { logSalesQuery, type SalesLogEntry } from './log';
export { searchMerchants, findMerchant, requireMerchant } from './merchants';
