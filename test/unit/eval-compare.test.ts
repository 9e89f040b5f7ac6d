import { describe, expect, it } from 'vitest';
import { validateConsulta, type ConsultaValidada } from '@shared/sales-dsl';
import { compareConsulta } from '../../src-main/evals/consultas';
import { summarize } from '../../src-main/evals/runner';

const HOJE = '2026-03-16';
function v(raw: unknown, hoje = HOJE): ConsultaValidada {
  const r = validateConsulta(raw, hoje);
  if (!r.ok) throw new Error(JSON.stringify(r.erros));
  return r.value;
}

describe('compareConsulta', () => {
  it('accepts a preset and the same explicit days as equal, and ignores days after today', () => {
    const esperado = { metrica: 'total_bruto', periodo: 'semana_passada' };
    expect(
      compareConsulta(
        esperado,
        v({ metrica: 'total_bruto', data_inicio: '2026-03-09', data_fim: '2026-03-15' }),
        HOJE,
      ).ok,
    ).toBe(true);
    const marco = { metrica: 'total_bruto', data_inicio: '2026-03-01', data_fim: '2026-03-31' };
    expect(
      compareConsulta(marco, v({ metrica: 'total_bruto', periodo: 'este_mes' }), HOJE).ok,
    ).toBe(true);
    const r = compareConsulta(
      esperado,
      v({ metrica: 'total_bruto', periodo: 'esta_semana' }),
      HOJE,
    );
    expect(r.diferencas).toEqual([
      {
        campo: 'periodo',
        esperado: '2026-03-09..2026-03-15',
        obtido: '2026-03-16..2026-03-16 (esta_semana)',
      },
    ]);
  });

  it('compares modalities as sets (none = all four) and every other field exactly', () => {
    const all = ['pix', 'debito', 'credito_avista', 'credito_parcelado'];
    expect(
      compareConsulta(
        { metrica: 'quantidade', periodo: 'hoje' },
        v({ metrica: 'quantidade', periodo: 'hoje', modalidades: all }),
        HOJE,
      ).ok,
    ).toBe(true);
    const r = compareConsulta(
      { metrica: 'quantidade', periodo: 'hoje', agrupar_por: 'dia', limite: 1 },
      v({ metrica: 'total_bruto', periodo: 'hoje', agrupar_por: 'dia', modalidades: ['pix'] }),
      HOJE,
    );
    expect(r.diferencas.map((d) => d.campo)).toEqual(['metrica', 'modalidades', 'ordem', 'limite']);
  });

  it('scores clarifications on tipo only, and a missing answer as wrong on every field', () => {
    const esc = { pergunta_esclarecimento: 'De qual período?' };
    expect(compareConsulta(esc, v({ pergunta_esclarecimento: 'Qual período?' }), HOJE)).toEqual({
      ok: true,
      campos: ['tipo'],
      diferencas: [],
    });
    expect(compareConsulta(esc, v({ metrica: 'quantidade', periodo: 'hoje' }), HOJE).ok).toBe(
      false,
    );
    const none = compareConsulta({ metrica: 'quantidade', periodo: 'hoje' }, null, HOJE);
    expect(none.diferencas).toHaveLength(7);
    const rel = summarize('consultas', 'm', [
      { linha: 1, texto: 'a', hoje: HOJE, entradas: [], ...none },
      {
        linha: 2,
        texto: 'b',
        hoje: HOJE,
        ok: true,
        entradas: [],
        campos: ['tipo'],
        diferencas: [],
      },
    ]);
    expect(rel.porCampo.tipo).toEqual({ acertos: 1, total: 2 });
    expect(rel.porCampo.metrica).toEqual({ acertos: 0, total: 1 });
    expect(rel.acertos).toBe(1);
  });
});
