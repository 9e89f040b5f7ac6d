import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AGRUPAMENTOS,
  METRICAS,
  MODALIDADES,
  consultarVendasToolSchema,
  validateConsulta,
  type ValidacaoConsulta,
} from '@shared/sales-dsl';
import { PERIODOS } from '@shared/periods';

const HOJE = '2026-03-16'; // Monday

function ok(v: ValidacaoConsulta) {
  if (!v.ok) throw new Error(`esperava válida: ${JSON.stringify(v.erros)}`);
  return v.value;
}
function errs(v: ValidacaoConsulta) {
  if (v.ok) throw new Error(`esperava inválida: ${JSON.stringify(v.value)}`);
  return v.erros;
}

describe('consultar_vendas validation', () => {
  it('resolves a preset in code and normalizes the query', () => {
    const v = ok(
      validateConsulta(
        {
          metrica: 'total_bruto',
          periodo: 'semana_passada',
          modalidades: ['credito_parcelado', 'credito_avista', 'credito_parcelado'],
        },
        HOJE,
      ),
    );
    expect(v).toEqual({
      tipo: 'consulta',
      consulta: {
        metrica: 'total_bruto',
        agrupar_por: 'nenhum',
        periodo: 'semana_passada',
        data_inicio: '2026-03-09',
        data_fim: '2026-03-15',
        modalidades: ['credito_avista', 'credito_parcelado'],
        ordem: null,
        limite: null,
      },
    });
  });

  it('accepts explicit inclusive dates, null for unused fields, and a limit that implies descending order', () => {
    const v = ok(
      validateConsulta(
        {
          metrica: 'quantidade',
          agrupar_por: 'dia',
          periodo: null,
          data_inicio: '2026-03-01',
          data_fim: '2026-03-31',
          limite: 1,
          pergunta_esclarecimento: null,
        },
        HOJE,
      ),
    );
    expect(v).toMatchObject({
      consulta: {
        data_inicio: '2026-03-01',
        data_fim: '2026-03-31',
        ordem: 'decrescente',
        limite: 1,
      },
    });
  });

  it('returns a clarification without requiring anything else', () => {
    expect(ok(validateConsulta({ pergunta_esclarecimento: '  De qual período?  ' }, HOJE))).toEqual(
      { tipo: 'esclarecimento', pergunta: 'De qual período?' },
    );
  });

  it('rejects unknown properties: no merchant, status, table or column can be named', () => {
    for (const extra of [
      { merchant_id: 2 },
      { status: 'negada' },
      { tabela: 'transacoes' },
      { coluna: 'valor_bruto_centavos' },
      { sql: 'select 1' },
    ]) {
      const e = errs(validateConsulta({ metrica: 'total_bruto', periodo: 'hoje', ...extra }, HOJE));
      expect(e[0]).toMatchObject({ campo: '', regra: 'propriedade_desconhecida' });
      expect(e[0]?.mensagem).toContain(Object.keys(extra)[0]);
    }
    const schema = JSON.stringify(consultarVendasToolSchema());
    for (const banned of ['merchant', 'status', 'tabela', 'coluna', 'lojista']) {
      expect(schema).not.toMatch(new RegExp(`"${banned}`));
    }
    expect(consultarVendasToolSchema()).toMatchObject({ additionalProperties: false });
  });

  it('enforces enums, real dates, order of dates and the 366-day cap with pt-BR messages', () => {
    expect(errs(validateConsulta({ metrica: 'lucro', periodo: 'hoje' }, HOJE))[0]).toMatchObject({
      campo: 'metrica',
    });
    expect(
      errs(
        validateConsulta(
          { metrica: 'quantidade', data_inicio: '2026-02-30', data_fim: '2026-03-01' },
          HOJE,
        ),
      )[0]?.mensagem,
    ).toBe('data_inicio: não é uma data real do calendário.');
    expect(
      errs(
        validateConsulta(
          { metrica: 'quantidade', data_inicio: '2026-03-10', data_fim: '2026-03-01' },
          HOJE,
        ),
      )[0],
    ).toMatchObject({ campo: 'data_fim', regra: 'data_fim_antes_do_inicio' });
    const longo = errs(
      validateConsulta(
        { metrica: 'quantidade', data_inicio: '2025-01-01', data_fim: '2026-01-02' },
        HOJE,
      ),
    )[0];
    expect(longo).toMatchObject({ regra: 'periodo_longo_demais' });
    expect(longo?.mensagem).toContain('367 dias');
    expect(longo?.mensagem).toContain('máximo é 366');
    // 366 days exactly is fine (a leap year).
    ok(
      validateConsulta(
        { metrica: 'quantidade', data_inicio: '2024-01-01', data_fim: '2024-12-31' },
        HOJE,
      ),
    );
  });

  it('requires a metric and exactly one way of saying the period', () => {
    expect(errs(validateConsulta({ periodo: 'hoje' }, HOJE))[0]).toMatchObject({
      campo: 'metrica',
      regra: 'obrigatorio',
    });
    expect(errs(validateConsulta({ metrica: 'quantidade' }, HOJE))[0]).toMatchObject({
      campo: 'periodo',
      regra: 'obrigatorio',
    });
    expect(
      errs(validateConsulta({ metrica: 'quantidade', data_inicio: '2026-03-01' }, HOJE))[0],
    ).toMatchObject({ campo: 'data_fim', regra: 'obrigatorio' });
    expect(
      errs(
        validateConsulta(
          {
            metrica: 'quantidade',
            periodo: 'hoje',
            data_inicio: '2026-03-01',
            data_fim: '2026-03-02',
          },
          HOJE,
        ),
      )[0],
    ).toMatchObject({ regra: 'periodo_duplo' });
  });

  it('refuses ordering or a limit without grouping, and bad limits', () => {
    expect(
      errs(validateConsulta({ metrica: 'quantidade', periodo: 'hoje', limite: 3 }, HOJE))[0],
    ).toMatchObject({ regra: 'ordem_sem_agrupamento' });
    expect(
      errs(
        validateConsulta(
          { metrica: 'quantidade', periodo: 'hoje', agrupar_por: 'dia', limite: 0 },
          HOJE,
        ),
      )[0],
    ).toMatchObject({ campo: 'limite' });
    expect(
      errs(
        validateConsulta(
          { metrica: 'quantidade', periodo: 'hoje', agrupar_por: 'dia', limite: 2.5 },
          HOJE,
        ),
      )[0],
    ).toMatchObject({ campo: 'limite' });
  });

  it('never accepts anything that is not an object', () => {
    for (const raw of [null, undefined, 'total_bruto', 42, [], [{ metrica: 'quantidade' }]]) {
      expect(validateConsulta(raw, HOJE).ok).toBe(false);
    }
  });

  it('accepted queries only ever hold values from the closed lists (property)', () => {
    const anyValue = fc.oneof(
      fc.string(),
      fc.constantFrom(...METRICAS, ...AGRUPAMENTOS, ...PERIODOS, ...MODALIDADES),
      fc.integer(),
      fc.constant(null),
      fc.array(fc.oneof(fc.string(), fc.constantFrom(...MODALIDADES))),
    );
    const keys = fc.constantFrom(
      'metrica',
      'agrupar_por',
      'periodo',
      'modalidades',
      'ordem',
      'limite',
      'data_inicio',
      'data_fim',
      "x'; drop table transacoes; --",
    );
    fc.assert(
      fc.property(fc.dictionary(keys, anyValue), (raw) => {
        const v = validateConsulta(raw, HOJE);
        if (v.ok && v.value.tipo === 'consulta') {
          const q = v.value.consulta;
          expect(METRICAS).toContain(q.metrica);
          expect(AGRUPAMENTOS).toContain(q.agrupar_por);
          for (const m of q.modalidades) expect(MODALIDADES).toContain(m);
          expect(q.data_inicio).toMatch(/^\d{4}-\d{2}-\d{2}$/);
          expect(q.data_fim).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        }
      }),
      { numRuns: 1500 },
    );
  });
});

describe('tool schema for the model', () => {
  it('drops keywords strict tool use rejects, keeps enums and descriptions', () => {
    const strict = consultarVendasToolSchema(true);
    const text = JSON.stringify(strict);
    for (const k of ['"pattern"', '"minimum"', '"maximum"', '"maxLength"', '"$schema"']) {
      expect(text).not.toContain(k);
    }
    const props = strict.properties as Record<string, { enum?: string[]; description?: string }>;
    expect(props.metrica?.enum).toEqual([...METRICAS]);
    expect(props.periodo?.enum).toEqual([...PERIODOS]);
    expect(props.metrica?.description).toMatch(/quanto vai receber/);
    // Property names survive even if they look like keywords.
    expect(Object.keys(props)).toEqual([
      'metrica',
      'agrupar_por',
      'periodo',
      'data_inicio',
      'data_fim',
      'modalidades',
      'ordem',
      'limite',
      'pergunta_esclarecimento',
      'nao_expressavel',
    ]);
    expect(JSON.stringify(consultarVendasToolSchema(false))).toContain('"maximum"');
  });
});
