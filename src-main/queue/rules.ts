import { chargeRules } from '@shared/charge';
import type { DadosCobranca, RuleError } from '@shared/extraction-types';

/**
 * The business rules a charge must pass — the very rules the extraction feeds back to the model
 * (src-shared/charge.ts), so an agent's edit and the model's output are judged alike.
 */
export interface ChargeRules {
  validate(dados: DadosCobranca, today: string): RuleError[];
}

/** The extraction's own charge rules (src-shared/charge.ts), for the agent's edits. */
export const extractionChargeRules: ChargeRules = {
  validate: (dados, today) => chargeRules(dados, { today }),
};
