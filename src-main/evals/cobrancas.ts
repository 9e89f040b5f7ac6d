/**
 * Eval suite for charge extraction (evals/cobrancas.jsonl: `{texto, hoje, esperado}`), with the
 * extraction's own comparison (`compareWithExpected`).
 */
import { CHARGE_TOOL_NAME } from '@shared/charge';
import { clockForLocalDate } from '../clock';
import { EvalCase, compareWithExpected, runChargeExtraction } from '../extraction';
import { entradasDe, falhaDoCaso, type EvalSuite, type ExecucaoCaso } from './types';

export const suiteCobrancas: EvalSuite<EvalCase> = {
  nome: 'cobrancas',
  arquivo: 'evals/cobrancas.jsonl',
  ferramenta: CHARGE_TOOL_NAME,
  parse: (raw) => EvalCase.parse(raw),
  texto: (c) => c.texto,
  hoje: (c) => c.hoje,
  async executar(c, ctx): Promise<ExecucaoCaso> {
    try {
      const r = await runChargeExtraction(
        {
          settings: ctx.settings,
          client: ctx.client,
          clock: clockForLocalDate(c.hoje, ctx.config.timeZone),
        },
        c.texto,
        [],
      );
      return {
        entradas: entradasDe(r.attempts),
        comparacao: compareWithExpected(r, c.esperado),
      };
    } catch (e) {
      // No result at all (API failure, no tool call): every expected field counts as wrong.
      const campos = compareWithExpected({ status: 'falhou', dados: null }, c.esperado).campos;
      return {
        ...falhaDoCaso(e),
        comparacao: {
          ok: false,
          campos,
          diferencas: campos.map((campo) => ({
            campo,
            esperado: (c.esperado as Record<string, unknown>)[campo],
            obtido: null,
          })),
        },
      };
    }
  },
};
