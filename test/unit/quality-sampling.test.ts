import { describe, expect, it } from 'vitest';
import { formatAccuracy, isSampled, qualityDraw, wilson95 } from '../../src-shared/quality';
import { qualitySamplingFromEnv } from '../../src-main/settings/quality-sampling';

describe('Wilson score interval (95%)', () => {
  // Newcombe (1998), "Two-sided confidence intervals for the single proportion", table I, method 3.
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ])('%i de %i → %f–%f', (k, n, lo, hi) => {
    const w = wilson95(k, n);
    expect(w.inferior).toBeCloseTo(lo, 4);
    expect(w.superior).toBeCloseTo(hi, 4);
    expect(w.taxa).toBe(k / n);
  });

  it('is shown in pt-BR with n', () => {
    expect(formatAccuracy(wilson95(113, 120))).toBe('94,2% (IC 95%: 88,4–97,1%, n = 120)');
    expect(formatAccuracy(wilson95(20, 20))).toBe('100,0% (IC 95%: 83,9–100,0%, n = 20)');
    expect(formatAccuracy(wilson95(0, 0))).toBe('sem julgamentos (n = 0)');
  });

  it('refuses impossible counts', () => {
    expect(() => wilson95(5, 4)).toThrow(RangeError);
    expect(() => wilson95(-1, 4)).toThrow(RangeError);
  });
});

describe('the sampler', () => {
  const ids = Array.from({ length: 10_000 }, (_, i) => 1 + i);

  it.each([5, 2.5, 20, 50])('takes %f%% of 10.000 ids after the start (±0,6 pp)', (pct) => {
    const cfg = { percentual: pct, inicial: 0 };
    const n = ids.filter((id) => isSampled(id, 1_000 + id, cfg)).length;
    expect(Math.abs(n / ids.length - pct / 100)).toBeLessThan(0.006);
  });

  it('takes every one of the first N of a version, then the share', () => {
    const cfg = { percentual: 5, inicial: 50 };
    const ordem = (id: number) => id; // the ids in creation order of one (model, prompt) pair
    const first = ids.slice(0, 50).filter((id) => isSampled(id, ordem(id), cfg));
    expect(first).toHaveLength(50);
    const rest = ids.slice(50).filter((id) => isSampled(id, ordem(id), cfg)).length;
    expect(Math.abs(rest / 9_950 - 0.05)).toBeLessThan(0.006);
  });

  it('is deterministic per id and 0% / 100% at the ends', () => {
    expect(ids.map(qualityDraw)).toEqual(ids.map(qualityDraw));
    expect(ids.some((id) => isSampled(id, 999_999, { percentual: 0, inicial: 0 }))).toBe(false);
    expect(ids.every((id) => isSampled(id, 999_999, { percentual: 100, inicial: 0 }))).toBe(true);
    for (const id of ids) expect(qualityDraw(id)).toBeGreaterThanOrEqual(0);
  });
});

describe('BALCAO_AMOSTRA_QUALIDADE', () => {
  it('defaults to 5% and the first 50', () => {
    expect(qualitySamplingFromEnv({})).toEqual({ percentual: 5, inicial: 50 });
  });
  it('reads percents in pt-BR or with a dot, with or without %', () => {
    expect(qualitySamplingFromEnv({ BALCAO_AMOSTRA_QUALIDADE: '2,5' }).percentual).toBe(2.5);
    expect(qualitySamplingFromEnv({ BALCAO_AMOSTRA_QUALIDADE: '0.25%' }).percentual).toBe(0.25);
    expect(
      qualitySamplingFromEnv({
        BALCAO_AMOSTRA_QUALIDADE: '100',
        BALCAO_AMOSTRA_QUALIDADE_INICIAL: '0',
      }),
    ).toEqual({ percentual: 100, inicial: 0 });
  });
  it.each(['abc', '101', '-1', '5,123', '1e2'])('refuses %s in pt-BR', (v) => {
    expect(() => qualitySamplingFromEnv({ BALCAO_AMOSTRA_QUALIDADE: v })).toThrow(
      /BALCAO_AMOSTRA_QUALIDADE inválida .*percentual de 0 a 100/,
    );
  });
  it.each(['x', '-3', '2.5', '9999999'])('refuses the start %s in pt-BR', (v) => {
    expect(() => qualitySamplingFromEnv({ BALCAO_AMOSTRA_QUALIDADE_INICIAL: v })).toThrow(
      /BALCAO_AMOSTRA_QUALIDADE_INICIAL inválida .*número inteiro/,
    );
  });
});
