import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { amountAlert } from '@shared/amounts';
import { chargeRules } from '@shared/charge';
import { CAMPOS_FALTANTES, type DadosCobranca } from '@shared/extraction-types';
import { compareWithExpected, EvalCase } from '../../src-main/extraction/compare';
import { chargeData } from '../support/charges';

const dados: DadosCobranca = chargeData();

describe('compareWithExpected (used by the eval runner)', () => {
  it('compares only the fields written in esperado, field by field', () => {
    const c = compareWithExpected(
      { status: 'completo', dados },
      { status: 'completo', valor_centavos: 15000, metodo: 'pix' },
    );
    expect(c.ok).toBe(false);
    expect(c.campos).toEqual(['status', 'valor_centavos', 'metodo']);
    expect(c.diferencas).toEqual([{ campo: 'metodo', esperado: 'pix', obtido: 'cartao' }]);
  });

  it('faltando is a set; names ignore case, accents and spaces; other strings are exact', () => {
    const d = {
      ...dados,
      cliente_nome: 'joao  silva',
      metodo: null,
      parcelas: null,
      faltando: ['parcelas', 'metodo'] as DadosCobranca['faltando'],
    };
    expect(
      compareWithExpected(
        { status: 'incompleto', dados: d },
        { cliente_nome: 'João Silva', faltando: ['metodo', 'parcelas'] },
      ).ok,
    ).toBe(true);
    expect(
      compareWithExpected({ status: 'completo', dados }, { vencimento: '2026-03-21' }).diferencas,
    ).toEqual([{ campo: 'vencimento', esperado: '2026-03-21', obtido: '2026-03-20' }]);
    expect(compareWithExpected({ status: 'completo', dados }, { faltando: ['metodo'] }).ok).toBe(
      false,
    );
  });

  it('null data (no result) differs from every expected value; alerta_valor checks the alert', () => {
    expect(
      compareWithExpected({ status: 'falhou', dados: null }, { valor_centavos: 15000 }).diferencas,
    ).toEqual([{ campo: 'valor_centavos', esperado: 15000, obtido: null }]);
    expect(
      compareWithExpected(
        { status: 'completo', dados, alertas: [{ codigo: 'valor_divergente' }] },
        { alerta_valor: false },
      ).ok,
    ).toBe(false);
  });
});

describe('evals/cobrancas.jsonl', () => {
  const lines = readFileSync(resolve(__dirname, '../../evals/cobrancas.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim());

  it('every line is a valid eval case ({texto, hoje, esperado})', () => {
    expect(lines.length).toBeGreaterThanOrEqual(20);
    for (const [i, l] of lines.entries()) {
      const p = EvalCase.safeParse(JSON.parse(l));
      expect(p.success, `linha ${i + 1}`).toBe(true);
    }
  });

  it('fully specified expectations satisfy our own rules (the answer key is consistent)', () => {
    for (const l of lines) {
      const c = EvalCase.parse(JSON.parse(l));
      const e = c.esperado;
      if (e.status !== 'completo' && e.status !== 'incompleto') continue;
      if (CAMPOS_FALTANTES.some((f) => e[f] === undefined) || !e.faltando) continue;
      const d = {
        valor_centavos: e.valor_centavos ?? null,
        parcelas: e.parcelas ?? null,
        metodo: e.metodo ?? null,
        cliente_nome: e.cliente_nome ?? null,
        vencimento: e.vencimento ?? null,
        descricao: null,
        faltando: e.faltando,
      };
      expect(chargeRules(d, { today: c.hoje }), c.texto).toEqual([]);
      expect(e.faltando.length === 0, c.texto).toBe(e.status === 'completo');
    }
  });

  it('the deterministic amount parser agrees with every expected amount (no false alert)', () => {
    for (const l of lines) {
      const c = EvalCase.parse(JSON.parse(l));
      const v = c.esperado.valor_centavos;
      if (v === undefined || v === null) continue;
      expect(amountAlert(c.texto, v, c.esperado.parcelas ?? null), c.texto).toBeNull();
    }
  });
});
