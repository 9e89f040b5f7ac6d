import { describe, expect, it } from 'vitest';
import { validateConsulta } from '@shared/sales-dsl';
import {
  DEFAULT_DRAFT,
  draftOf,
  rangeProblem,
  withAgrupamento,
  withMetrica,
  withModalidades,
  withPeriodo,
  withRange,
  withoutRanking,
} from '../../src-renderer/sales/draft';

const HOJE = '2026-03-16';

function resolved(raw: unknown) {
  const v = validateConsulta(raw, HOJE);
  if (!v.ok || v.value.tipo !== 'consulta') throw new Error(JSON.stringify(v));
  return v.value.consulta;
}

describe('chip edits of the DSL', () => {
  it('the default draft is a valid query', () => {
    expect(resolved(DEFAULT_DRAFT)).toMatchObject({
      metrica: 'total_bruto',
      data_inicio: '2026-03-10',
      data_fim: HOJE,
    });
  });

  it('round-trips a validated query: same query when re-run', () => {
    const raws = [
      { metrica: 'quantidade', periodo: 'mes_passado', agrupar_por: 'dia' },
      {
        metrica: 'total_liquido',
        data_inicio: '2026-03-01',
        data_fim: '2026-03-10',
        modalidades: ['pix', 'debito'],
        agrupar_por: 'modalidade',
        ordem: 'crescente',
        limite: 2,
      },
      {
        metrica: 'ticket_medio',
        periodo: 'ontem',
        modalidades: [...['debito', 'credito_avista', 'credito_parcelado', 'pix']],
      },
    ];
    for (const raw of raws.slice(0, 2)) {
      const q = resolved(raw);
      expect(resolved(draftOf(q))).toEqual(q);
    }
    // Every modality = no filter (the same query: the compiler filters nothing either way).
    const all = resolved(raws[2]);
    expect(draftOf(all).modalidades).toBeUndefined();
    expect(resolved(draftOf(all))).toEqual({ ...all, modalidades: [] });
  });

  it('a preset replaces explicit dates and vice versa', () => {
    const d = withRange(DEFAULT_DRAFT, '2026-03-01', '2026-03-05');
    expect(d.periodo).toBeUndefined();
    expect(resolved(d)).toMatchObject({
      periodo: null,
      data_inicio: '2026-03-01',
      data_fim: '2026-03-05',
    });
    const p = withPeriodo(d, 'semana_passada');
    expect(p.data_inicio).toBeUndefined();
    expect(resolved(p)).toMatchObject({ data_inicio: '2026-03-09', data_fim: '2026-03-15' });
  });

  it('removing the grouping removes ordering and top-N (else the query is invalid)', () => {
    const top = {
      ...DEFAULT_DRAFT,
      agrupar_por: 'dia' as const,
      ordem: 'decrescente' as const,
      limite: 1,
    };
    expect(validateConsulta({ ...top, agrupar_por: 'nenhum' }, HOJE).ok).toBe(false);
    const d = withAgrupamento(top, 'nenhum');
    expect(d).toEqual({ ...DEFAULT_DRAFT, agrupar_por: 'nenhum' });
    expect(resolved(d).limite).toBeNull();
    expect(withAgrupamento(top, 'mes')).toMatchObject({ ordem: 'decrescente', limite: 1 });
    expect(withoutRanking(top)).toEqual({ ...DEFAULT_DRAFT, agrupar_por: 'dia' });
  });

  it('modalities: canonical order; none or all means no filter', () => {
    expect(withModalidades(DEFAULT_DRAFT, ['pix', 'debito']).modalidades).toEqual([
      'debito',
      'pix',
    ]);
    expect(
      withModalidades({ ...DEFAULT_DRAFT, modalidades: ['pix'] }, []).modalidades,
    ).toBeUndefined();
    expect(
      withModalidades(DEFAULT_DRAFT, ['pix', 'debito', 'credito_avista', 'credito_parcelado'])
        .modalidades,
    ).toBeUndefined();
  });

  it('metric change keeps the rest', () => {
    expect(withMetrica(DEFAULT_DRAFT, 'quantidade')).toEqual({
      ...DEFAULT_DRAFT,
      metrica: 'quantidade',
    });
  });
});

describe('rangeProblem', () => {
  it('accepts a real range of up to 366 days', () => {
    expect(rangeProblem('2026-03-01', '2026-03-01')).toBeNull();
    expect(rangeProblem('2025-03-16', '2026-03-16')).toBeNull();
  });
  it('explains what is wrong, in pt-BR', () => {
    expect(rangeProblem('', '2026-03-01')).toBe('Informe a data inicial.');
    expect(rangeProblem('2026-03-01', '2026-02-30')).toBe('Informe a data final.');
    expect(rangeProblem('2026-03-02', '2026-03-01')).toMatch(/anterior/);
    expect(rangeProblem('2024-01-01', '2026-03-01')).toMatch(/máximo é 366/);
  });
});
