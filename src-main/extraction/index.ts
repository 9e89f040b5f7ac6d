/** Charge extraction: the extraction itself (extract.ts), follow-up, persistence, eval comparison. */
export {
  extractCharge,
  followUpExtraction,
  runChargeExtraction,
  queueStateFor,
  TEXTO_MAX,
  type ExtractionDeps,
  type ExtractionOutcome,
  type ExtractionResult,
  type ChargeAttempt,
  type RunHooks,
} from './extract';
export { chargeSystemPrompt, chargeUserMessage } from './prompt';
export {
  compareWithExpected,
  EsperadoCobranca,
  EvalCase,
  type Comparacao,
  type Diferenca,
} from './compare';
export type { Rodada } from './persist';
