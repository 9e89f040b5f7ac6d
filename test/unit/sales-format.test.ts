import { describe, expect, it } from 'vitest';
import type { ConsultaVendas, LinhaVenda } from '@shared/sales-dsl';
import {
  MAX_LINHAS_NO_TEXTO,
  formatGrupo,
  formatInterpretacao,
  formatResposta,
} from '@shared/sales-format';

/** Intl writes a no-break space after "R$"; compare as people read it. */
const plain = (s: string) => s.replace(/\u00a0/g, ' ');

const base: ConsultaVendas = {
  metrica: 'total_bruto',
  agrupar_por: 'nenhum',
  periodo: null,
  data_inicio: '2026-03-10',
  data_fim: '2026-03-16',
  modalidades: [],
  ordem: null,
  limite: null,
};

describe('interpretation', () => {
  it('states the period, the modalities and what was measured', () => {
    const t = formatInterpretacao({
      ...base,
      modalidades: ['credito_avista', 'credito_parcelado'],
    });
    expect(t).toMatch(
      /^Considerei vendas aprovadas de 10\/03\/2026 a 16\/03\/2026, modalidades: crédito à vista, crédito parcelado\. /,
    );
    expect(t).toContain('total bruto (valor vendido, antes das taxas)');
  });

  it('names the preset, all modalities, grouping and the top-N', () => {
    const t = formatInterpretacao({
      ...base,
      metrica: 'total_liquido',
      periodo: 'semana_passada',
      data_inicio: '2026-03-09',
      data_fim: '2026-03-15',
      agrupar_por: 'dia',
      ordem: 'decrescente',
      limite: 1,
    });
    expect(t).toBe(
      'Considerei vendas aprovadas de 09/03/2026 a 15/03/2026 (semana passada), modalidades: todas. Métrica: total líquido (valor a receber, depois das taxas), por dia, só o maior.',
    );
    expect(
      formatInterpretacao({ ...base, data_inicio: '2026-03-15', data_fim: '2026-03-15' }),
    ).toMatch(/^Considerei vendas aprovadas em 15\/03\/2026,/);
  });
});

describe('answer', () => {
  it('writes a single total in pt-BR money', () => {
    expect(plain(formatResposta(base, [{ grupo: null, valor: 123456 }]))).toBe(
      'Total bruto de 10/03/2026 a 16/03/2026: R$ 1.234,56.',
    );
    expect(formatResposta({ ...base, metrica: 'quantidade' }, [{ grupo: null, valor: 1234 }])).toBe(
      'Quantidade de vendas de 10/03/2026 a 16/03/2026: 1.234 vendas.',
    );
    expect(
      formatResposta({ ...base, metrica: 'ticket_medio' }, [{ grupo: null, valor: null }]),
    ).toBe('Não houve vendas aprovadas de 10/03/2026 a 16/03/2026, então não há ticket médio.');
    expect(formatResposta({ ...base, metrica: 'quantidade' }, [{ grupo: null, valor: 0 }])).toBe(
      'Não houve vendas aprovadas de 10/03/2026 a 16/03/2026.',
    );
  });

  it('highlights the best day and the period total', () => {
    const linhas: LinhaVenda[] = [
      { grupo: '2026-03-14', valor: 5000 },
      { grupo: '2026-03-15', valor: 0 },
      { grupo: '2026-03-16', valor: 250000 },
    ];
    const t = plain(formatResposta({ ...base, agrupar_por: 'dia' }, linhas));
    expect(t).toContain('• 14/03/2026 (sábado): R$ 50,00');
    expect(t).toContain('• 15/03/2026 (domingo): R$ 0,00');
    expect(t).toContain('Total de 10/03/2026 a 16/03/2026: R$ 2.550,00.');
    expect(t).toContain('Melhor dia: 16/03/2026 (segunda-feira), com R$ 2.500,00.');
  });

  it('reports the worst group when asked in ascending order, and no total for a cut list', () => {
    const t = plain(
      formatResposta({ ...base, agrupar_por: 'dia', ordem: 'crescente', limite: 1 }, [
        { grupo: '2026-03-15', valor: 0 },
      ]),
    );
    expect(t).toContain('Pior dia: 15/03/2026 (domingo), com R$ 0,00.');
    expect(t).not.toContain('Total de');
  });

  it('shows the share of each modality', () => {
    const t = plain(
      formatResposta({ ...base, agrupar_por: 'modalidade' }, [
        { grupo: 'pix', valor: 7500 },
        { grupo: 'credito_avista', valor: 2500 },
      ]),
    );
    expect(t).toContain('• Pix: R$ 75,00 (75,0%)');
    expect(t).toContain('• crédito à vista: R$ 25,00 (25,0%)');
    expect(t).toContain('Maior participação: Pix, com 75,0% do total.');
  });

  it('says there were no sales when nothing was sold', () => {
    expect(formatResposta({ ...base, agrupar_por: 'modalidade' }, [])).toBe(
      'Não houve vendas aprovadas de 10/03/2026 a 16/03/2026.',
    );
    expect(
      formatResposta({ ...base, metrica: 'ticket_medio', agrupar_por: 'dia' }, [
        { grupo: '2026-03-10', valor: null },
      ]),
    ).toBe('Não houve vendas aprovadas de 10/03/2026 a 16/03/2026.');
  });

  it('keeps long answers readable (every row stays in linhas)', () => {
    const linhas = Array.from({ length: 60 }, (_, i) => ({
      grupo: `2026-01-${String((i % 28) + 1).padStart(2, '0')}`,
      valor: i,
    }));
    const t = formatResposta({ ...base, metrica: 'quantidade', agrupar_por: 'dia' }, linhas);
    expect(t.split('\n').filter((l) => l.startsWith('•'))).toHaveLength(MAX_LINHAS_NO_TEXTO);
    expect(t).toContain(`… e mais ${60 - MAX_LINHAS_NO_TEXTO} linhas.`);
  });

  it('labels every kind of group', () => {
    expect(formatGrupo('mes', '2026-03')).toBe('março de 2026');
    expect(formatGrupo('bandeira', null)).toBe('sem bandeira (Pix)');
    expect(formatGrupo('bandeira', 'amex')).toBe('American Express');
    expect(formatGrupo('dia_da_semana', 'sabado')).toBe('sábado');
    expect(formatGrupo('hora', '08')).toBe('8h–9h');
    expect(formatGrupo('modalidade', 'credito_parcelado')).toBe('crédito parcelado');
  });
});
