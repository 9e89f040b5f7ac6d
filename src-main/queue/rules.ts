import type { DadosCobranca, RuleError } from '@shared/extraction-types';

/**
 * The business rules a charge must pass — the very rules the extraction engine feeds back to
 * the model (src-shared/charge.ts), so an agent's edit and the model's output are judged alike.
 */
export interface ChargeRules {
  validate(dados: DadosCobranca, today: string): RuleError[];
}
