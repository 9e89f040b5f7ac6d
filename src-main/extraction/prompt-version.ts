import { createHash } from 'node:crypto';
import { chargeTool } from '@shared/charge';
import { chargeSystemPrompt, chargeUserMessage } from './prompt';

let cached: string | undefined;

/**
 * The extraction prompt's version (#39.4): a short hash of what the model is given — the system
 * prompt's template (at a fixed date and zone), the user turn's shape and the tool — so any
 * change of wording or schema is a new version by itself, with no number to remember to bump.
 * Stored on each extraction (extracoes.versao_prompt) beside its model.
 */
export function promptVersion(): string {
  cached ??= `p-${createHash('sha256')
    .update(chargeSystemPrompt('2000-01-03', 'America/Sao_Paulo'))
    .update('\u0000')
    .update(chargeUserMessage('{texto}', ['{resposta}']))
    .update('\u0000')
    .update(JSON.stringify(chargeTool({ strict: false })))
    .digest('hex')
    .slice(0, 10)}`;
  return cached;
}
