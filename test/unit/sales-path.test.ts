/**
 * The path chooser (#40.8): the base table only for a period that holds few sales at the
 * merchant's busiest rate, the rollups otherwise — and always when nothing is known of the
 * merchant or the period lies outside the months its volume covers.
 */
import { describe, expect, it } from 'vitest';
import { AGRUPAMENTOS, type ConsultaVendas } from '@shared/sales-dsl';
import {
  BASE_SALES_PER_ROLLUP_CALL,
  INDEX_ONLY_COUNT_FACTOR,
  VOLUME_REFRESH_ANSWERS,
  baseLimit,
  choosePath,
  estimateSales,
  needsVolume,
  volumeHorizon,
  type MerchantVolume,
} from '../../src-main/sales/path';

function q(over: Partial<ConsultaVendas>): ConsultaVendas {
  return {
    metrica: 'total_bruto',
    agrupar_por: 'nenhum',
    periodo: null,
    data_inicio: '2026-12-06',
    data_fim: '2026-12-06',
    modalidades: [],
    ordem: null,
    limite: null,
    ...over,
  };
}

const HOJE = q({});
const ANO = q({ data_inicio: '2025-12-07', data_fim: '2026-12-06' });
const horizonte = volumeHorizon(HOJE);
/** A merchant whose busiest month of the horizon held `maiorMes` approved sales. */
const lojista = (maiorMes: number, usos = 0): MerchantVolume => ({ maiorMes, horizonte, usos });

describe('choosePath', () => {
  it('a small merchant: its day on the base table; a big one: its year on the rollups', () => {
    const pequeno = lojista(30); // ~1 sale a day
    const grande = lojista(25_000); // ~830 a day
    for (const agrupar_por of AGRUPAMENTOS) {
      expect(choosePath({ ...HOJE, agrupar_por }, pequeno), agrupar_por).toBe('base');
      expect(choosePath({ ...ANO, agrupar_por }, grande), agrupar_por).toBe('rollups');
      // A big merchant's day is already hundreds of sales: rollups too.
      expect(choosePath({ ...HOJE, agrupar_por }, grande), agrupar_por).toBe('rollups');
    }
  });

  it('nothing known of the merchant, or a period outside its volume: the rollups', () => {
    expect(choosePath(HOJE, undefined)).toBe('rollups');
    const antigo = q({ data_inicio: '2024-03-01', data_fim: '2024-03-01' });
    expect(choosePath(antigo, lojista(1))).toBe('rollups');
    expect(needsVolume(antigo, lojista(1))).toBe(true);
    // The horizon: the 13 months up to the period's end.
    expect(horizonte).toEqual(['2025-12-01', '2027-01-01']);
    expect(choosePath(q({ data_inicio: '2025-12-01', data_fim: '2025-12-01' }), lojista(1))).toBe(
      'base',
    );
    expect(choosePath(q({ data_inicio: '2025-11-30', data_fim: '2025-12-01' }), lojista(1))).toBe(
      'rollups',
    );
  });

  it('the limit grows with the rollup calls it saves; a plain count reads the index alone', () => {
    // A day: one call; a year: whole months plus the edge days (three calls).
    expect(baseLimit(HOJE)).toBe(BASE_SALES_PER_ROLLUP_CALL);
    expect(baseLimit(ANO)).toBe(3 * BASE_SALES_PER_ROLLUP_CALL);
    // By day, a year is one call over the days (no month rollup answers it).
    expect(baseLimit({ ...ANO, agrupar_por: 'dia' })).toBe(BASE_SALES_PER_ROLLUP_CALL);
    expect(baseLimit({ ...ANO, metrica: 'quantidade' })).toBe(
      3 * BASE_SALES_PER_ROLLUP_CALL * INDEX_ONLY_COUNT_FACTOR,
    );
    // With a modality filter the count needs the rows (the modality is not in the index).
    expect(baseLimit({ ...ANO, metrica: 'quantidade', modalidades: ['pix'] })).toBe(
      3 * BASE_SALES_PER_ROLLUP_CALL,
    );
    // Every modality is no filter.
    expect(
      baseLimit({
        ...ANO,
        metrica: 'quantidade',
        modalidades: ['debito', 'credito_avista', 'credito_parcelado', 'pix'],
      }),
    ).toBe(3 * BASE_SALES_PER_ROLLUP_CALL * INDEX_ONLY_COUNT_FACTOR);
    // So a merchant of ~250 sales a year counts its year on the index, sums it on the rollups.
    const v = lojista(30);
    expect(estimateSales(ANO, v)).toBe(Math.ceil((30 * 365) / 28));
    expect(choosePath({ ...ANO, metrica: 'quantidade' }, v)).toBe('base');
    expect(choosePath(ANO, v)).toBe('rollups');
  });

  it('the estimate never lets the base table read a big period: at most 28 × the limit', () => {
    // The most sales a base-table answer can read is the busiest month times the months the
    // period touches; the chooser's bound keeps it within 28 × its limit for any period.
    for (let dias = 1; dias <= 366; dias += 5) {
      const inicio = '2026-12-06';
      const fim = new Date(Date.UTC(2026, 11, 6 + dias - 1)).toISOString().slice(0, 10);
      const periodo = q({ data_inicio: inicio, data_fim: fim });
      const v: MerchantVolume = { maiorMes: 1, horizonte: volumeHorizon(periodo), usos: 0 };
      // The biggest busiest month for which the base table is still chosen.
      let maior = 0;
      for (let m = 1; m < 100_000; m *= 2) {
        if (choosePath(periodo, { ...v, maiorMes: m }) === 'base') maior = m;
      }
      // Months a period of `dias` days can touch (each at least one of its days).
      const meses = Math.min(dias, Math.ceil(dias / 28) + 1, 13);
      expect(maior * meses, `${dias} dias`).toBeLessThanOrEqual(28 * baseLimit(periodo));
    }
  });

  it('reads the volume again after a number of answers', () => {
    expect(needsVolume(HOJE, undefined)).toBe(true);
    expect(needsVolume(HOJE, lojista(30, VOLUME_REFRESH_ANSWERS - 1))).toBe(false);
    expect(needsVolume(HOJE, lojista(30, VOLUME_REFRESH_ANSWERS))).toBe(true);
  });
});
