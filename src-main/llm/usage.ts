import type { Uso } from '@shared/extraction-types';
import type { ModelPrice } from '../settings/types';

export const ZERO_USO: Uso = Object.freeze({
  input_tokens: 0,
  output_tokens: 0,
  cache_read_input_tokens: 0,
  cache_creation_input_tokens: 0,
});

const count = (v: unknown): number =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : 0;

/** The usage block of an API response as our `Uso` (missing counters are 0). */
export function toUso(usage: unknown): Uso {
  const u = (usage ?? {}) as Record<string, unknown>;
  return {
    input_tokens: count(u.input_tokens),
    output_tokens: count(u.output_tokens),
    cache_read_input_tokens: count(u.cache_read_input_tokens),
    cache_creation_input_tokens: count(u.cache_creation_input_tokens),
  };
}

export function sumUso(list: readonly Uso[]): Uso {
  return list.reduce<Uso>(
    (a, u) => ({
      input_tokens: a.input_tokens + u.input_tokens,
      output_tokens: a.output_tokens + u.output_tokens,
      cache_read_input_tokens: a.cache_read_input_tokens + u.cache_read_input_tokens,
      cache_creation_input_tokens: a.cache_creation_input_tokens + u.cache_creation_input_tokens,
    }),
    { ...ZERO_USO },
  );
}

/**
 * Estimated cost in USD from the settings price table (USD per million tokens), rounded to
 * 6 decimals (the column's scale). null when the model has no price in the table.
 */
export function estimateCostUsd(
  uso: Uso,
  model: string,
  prices: Record<string, ModelPrice>,
): number | null {
  const p = prices[model];
  if (!p) return null;
  const micro =
    uso.input_tokens * p.input +
    uso.output_tokens * p.output +
    uso.cache_read_input_tokens * p.cacheRead +
    uso.cache_creation_input_tokens * p.cacheWrite;
  return Math.round(micro) / 1e6;
}
