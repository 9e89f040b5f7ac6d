/** Eval suite for sales questions (evals/consultas.jsonl: `{pergunta, hoje, esperado}`). */
import { MODALIDADES, validateConsulta, type ConsultaValidada } from '@shared/sales-dsl';
import { TOOL_CONSULTAR_VENDAS } from '@shared/sales-dsl';
import { z } from '@shared/zod';
import { interpretQuestion } from '../sales/interpret';
import {
  entradasDe,
  falhaDoCaso,
  perguntaDoCaso,
  type Comparacao,
  type Diferenca,
  type EvalSuite,
  type ExecucaoCaso,
} from './types';

export const CasoConsulta = z
  .strictObject({
    pergunta: z.string().trim().min(1),
    hoje: z.iso.date(),
    /** A DSL exactly as the model should fill it (validated against `hoje`). */
    esperado: z.record(z.string(), z.unknown()),
    nota: z.string().optional(),
  })
  .superRefine((c, ctx) => {
    const v = validateConsulta(c.esperado, c.hoje);
    if (!v.ok) {
      ctx.addIssue({
        code: 'custom',
        path: ['esperado'],
        message: `esperado não é uma consulta válida: ${v.erros.map((e) => e.mensagem).join(' ')}`,
      });
    }
  });
export type CasoConsulta = z.infer<typeof CasoConsulta>;

/** Fields compared for an expected query (a clarification compares only `tipo`). */
export const CAMPOS_CONSULTA = [
  'tipo',
  'metrica',
  'agrupar_por',
  'periodo',
  'modalidades',
  'ordem',
  'limite',
] as const;

function modalidadesKey(m: readonly string[]): string {
  return m.length === 0 || m.length === MODALIDADES.length ? 'todas' : [...m].sort().join(',');
}

/**
 * The range a query really covers: days after `hoje` hold no sales, so "março" asked on
 * 16/03 (01/03–31/03) and `este_mes` (01/03–16/03) are the same question.
 */
function periodoEfetivo(q: { data_inicio: string; data_fim: string }, hoje: string): string {
  const fim = q.data_fim > hoje ? hoje : q.data_fim;
  return `${q.data_inicio}..${fim}`;
}

/**
 * Compares the model's validated query with the expected DSL, field by field. Periods compare
 * as the resolved day ranges (a preset and the same explicit dates are equal), modalities as
 * sets (none = all four).
 */
export function compareConsulta(
  esperadoRaw: unknown,
  obtido: ConsultaValidada | null,
  hoje: string,
): Comparacao {
  const ve = validateConsulta(esperadoRaw, hoje);
  if (!ve.ok) throw new Error('esperado inválido');
  const e = ve.value;
  const diferencas: Diferenca[] = [];
  if (e.tipo !== 'consulta') {
    if (obtido?.tipo !== e.tipo) {
      diferencas.push({
        campo: 'tipo',
        esperado: e.tipo,
        obtido: obtido ? obtido.tipo : null,
      });
    }
    return { ok: diferencas.length === 0, campos: ['tipo'], diferencas };
  }
  const o = obtido?.tipo === 'consulta' ? obtido.consulta : null;
  const pares: [string, unknown, unknown][] = [
    ['tipo', 'consulta', obtido ? obtido.tipo : null],
    ['metrica', e.consulta.metrica, o?.metrica ?? null],
    ['agrupar_por', e.consulta.agrupar_por, o?.agrupar_por ?? null],
    [
      'periodo',
      periodoEfetivo(e.consulta, hoje),
      o ? `${periodoEfetivo(o, hoje)}${o.periodo ? ` (${o.periodo})` : ''}` : null,
    ],
    [
      'modalidades',
      modalidadesKey(e.consulta.modalidades),
      o ? modalidadesKey(o.modalidades) : null,
    ],
    ['ordem', e.consulta.ordem, o ? o.ordem : null],
    ['limite', e.consulta.limite, o ? o.limite : null],
  ];
  for (const [campo, esperado, got] of pares) {
    const igual =
      campo === 'periodo' && typeof got === 'string'
        ? got.split(' ')[0] === esperado
        : got === esperado;
    if (!igual || (o === null && campo !== 'tipo'))
      diferencas.push({ campo, esperado, obtido: got });
  }
  return { ok: diferencas.length === 0, campos: [...CAMPOS_CONSULTA], diferencas };
}

export const suiteConsultas: EvalSuite<CasoConsulta> = {
  nome: 'consultas',
  arquivo: 'evals/consultas.jsonl',
  ferramenta: TOOL_CONSULTAR_VENDAS,
  parse: (raw) => CasoConsulta.parse(raw),
  texto: (c) => c.pergunta,
  hoje: (c) => c.hoje,
  async executar(c, ctx): Promise<ExecucaoCaso> {
    try {
      const r = await interpretQuestion(perguntaDoCaso(c, ctx));
      const entradas = entradasDe(r.attempts);
      if (r.ok) return { entradas, comparacao: compareConsulta(c.esperado, r.value, c.hoje) };
      return {
        entradas,
        comparacao: compareConsulta(c.esperado, null, c.hoje),
        erro: `consulta inválida após ${r.attempts.length} tentativa(s): ${r.errors.join(' ')}`,
      };
    } catch (e) {
      return { ...falhaDoCaso(e), comparacao: compareConsulta(c.esperado, null, c.hoje) };
    }
  },
};
