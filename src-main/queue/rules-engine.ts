import { chargeRules } from '@shared/charge';
import type { ChargeRules } from './rules';

/** The extraction engine's own rules (src-shared/charge.ts), for the agent's edits. */
export const engineRules: ChargeRules = {
  validate: (dados, today) => chargeRules(dados, { today }),
};
