import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICES } from '../../src-main/settings/defaults';
import { estimateCostUsd, sumUso, toUso } from '../../src-main/llm/usage';

describe('usage and cost', () => {
  it('reads the API usage block, tolerating missing and null counters', () => {
    expect(toUso({ input_tokens: 10, output_tokens: 3, cache_read_input_tokens: null })).toEqual({
      input_tokens: 10,
      output_tokens: 3,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
    });
    expect(toUso(undefined).input_tokens).toBe(0);
  });

  it('sums attempts field by field', () => {
    const a = toUso({
      input_tokens: 1,
      output_tokens: 2,
      cache_read_input_tokens: 3,
      cache_creation_input_tokens: 4,
    });
    expect(sumUso([a, a, a])).toEqual({
      input_tokens: 3,
      output_tokens: 6,
      cache_read_input_tokens: 9,
      cache_creation_input_tokens: 12,
    });
  });

  it('prices each token kind from the table (USD per million), 6 decimals', () => {
    // sonnet: input 3, output 15, cache read 0.3, cache write 3.75
    const uso = {
      input_tokens: 1_000_000,
      output_tokens: 100_000,
      cache_read_input_tokens: 10_000,
      cache_creation_input_tokens: 2_000,
    };
    expect(estimateCostUsd(uso, 'claude-sonnet-4-5', DEFAULT_PRICES)).toBeCloseTo(
      3 + 1.5 + 0.003 + 0.0075,
      9,
    );
    expect(estimateCostUsd(uso, 'claude-haiku-4-5', DEFAULT_PRICES)).toBeCloseTo(
      1 + 0.5 + 0.001 + 0.0025,
      9,
    );
  });

  it('unknown model → null (no made-up price)', () => {
    expect(estimateCostUsd(toUso({ input_tokens: 5 }), 'modelo-x', DEFAULT_PRICES)).toBeNull();
  });
});
