import type Anthropic from '@anthropic-ai/sdk';
import type { Clock } from '../clock';
import { runChargeExtraction } from '../extraction';
import { NO_API_KEY_MESSAGE_APP } from '../llm/client';
import type { SettingsSource } from '../settings/types';
import type { ExtractionRerunner } from './actions';

/**
 * Re-runs the extraction for the review queue: the same prompt, tool, rules and feedback loop as
 * a first extraction, on the original text plus the merchant's answers. Without an API key it
 * says so (the agent then fills the fields by hand).
 */
export function createExtractionRerunner(deps: {
  settings: SettingsSource;
  clock: Clock;
  /** Injected client (tests); default: built from settings on each run. */
  client?: Anthropic;
}): ExtractionRerunner {
  return {
    unavailableReason: () =>
      deps.client || deps.settings.getApiKey()?.trim() ? null : NO_API_KEY_MESSAGE_APP,
    run: ({ texto, respostas, signal, chegada }) =>
      runChargeExtraction(
        {
          settings: deps.settings,
          clock: deps.clock,
          ...(deps.client ? { client: deps.client } : {}),
        },
        texto,
        respostas,
        {
          ...(signal ? { signal } : {}),
          ...(chegada ? { chegadas: { texto: chegada } } : {}),
        },
      ),
  };
}
