/** #40.6 — which models get strict tool use: the Claude 4.5 family and later. */
import { describe, expect, it } from 'vitest';
import { strictToolsFor, supportsStrictTools } from '../../src-main/llm/strict';

describe('strict tool use per model', () => {
  it.each([
    ['claude-sonnet-4-6', true],
    ['claude-sonnet-4-5-20250929', true],
    ['claude-opus-4-5', true],
    ['claude-haiku-4-5-20251001', true],
    ['claude-opus-5', true],
    ['claude-sonnet-4-20250514', false],
    ['claude-opus-4-1-20250805', false],
    ['claude-opus-4-0', false],
    ['claude-3-7-sonnet-20250219', false],
    ['claude-3-5-haiku-latest', false],
    ['modelo-proprio', false],
  ])('%s → %s', (model, expected) => {
    expect(supportsStrictTools(model)).toBe(expected);
  });

  it('BALCAO_STRICT_TOOLS=0 turns it off for every model', () => {
    expect(strictToolsFor({ strictTools: false, model: 'claude-sonnet-4-6' })).toBe(false);
    expect(strictToolsFor({ strictTools: true, model: 'claude-sonnet-4-6' })).toBe(true);
  });
});
