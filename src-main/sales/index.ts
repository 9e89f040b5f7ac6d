/**
 * Sales questions engine. For the IPC channel `sales/ask` (panel) use `askSales` (a question)
 * or `answerSalesDsl` (edited chips / typed DSL) with the session's merchant id; for
 * benchmarks and alternative execution paths use the compiler and executors.
 */
export {
  askSales,
  answerSalesDsl,
  requireMerchant,
  todayLocal,
  MAX_PERGUNTA,
  type AskRequest,
  type SalesEngineDeps,
  type SalesProgress,
} from './engine';
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
  executeSalesQueryTenantView,
  type ExecuteContext,
  type SalesExecutor,
} from './execute';
export { interpretQuestion, type InterpretResult } from './interpret';
export { logSalesQuery, type SalesLogEntry } from './log';
export { searchMerchants, findMerchant } from './merchants';
