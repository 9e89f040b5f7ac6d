/**
 * The sales question DSL: the input of the tool `consultar_vendas` that the model fills, its
 * validation (the same rules for the model, the CLI `--dsl` and the renderer), and the types of
 * the resolved query and of the answer. The model never names a merchant, a status, a table or a
 * column: what counts as a sale and whose sales they are is decided by our code.
 */
import { z } from './zod';
import type { RuleError } from './extraction-types';
import { MAX_PERIOD_DAYS, PERIODOS, periodLength, resolvePeriod, type Periodo } from './periods';
import { dataNoIntervalo, MSG_DATAS_ACEITAS } from './date-bounds';
import { isIsoDate } from './time';
import { MSG_INVALID_CHARS, validText } from './text';
import { toolInputSchema, type ToolInputSchema } from './tool-schema';
import type { Frescor } from './freshness';

export const TOOL_CONSULTAR_VENDAS = 'consultar_vendas';

export const METRICAS = ['total_bruto', 'total_liquido', 'quantidade', 'ticket_medio'] as const;
export type Metrica = (typeof METRICAS)[number];

export const AGRUPAMENTOS = [
  'nenhum',
  'dia',
  'mes',
  'modalidade',
  'bandeira',
  'dia_da_semana',
  'hora',
] as const;
export type Agrupamento = (typeof AGRUPAMENTOS)[number];

export const MODALIDADES = ['debito', 'credito_avista', 'credito_parcelado', 'pix'] as const;
export type Modalidade = (typeof MODALIDADES)[number];

export const BANDEIRAS = ['visa', 'mastercard', 'elo', 'amex', 'hipercard'] as const;
export type Bandeira = (typeof BANDEIRAS)[number];

/** `dia_da_semana` group codes, Monday first. */
export const DIAS_DA_SEMANA = [
  'segunda',
  'terca',
  'quarta',
  'quinta',
  'sexta',
  'sabado',
  'domingo',
] as const;
export type DiaDaSemana = (typeof DIAS_DA_SEMANA)[number];

export const ORDENS = ['decrescente', 'crescente'] as const;
export type Ordem = (typeof ORDENS)[number];

export const MAX_LIMITE = 100;

export { DATA_MAXIMA, DATA_MINIMA, dataNoIntervalo } from './date-bounds';

const dataIso = () =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'use o formato AAAA-MM-DD.' })
    .refine(isIsoDate, { message: 'não é uma data real do calendário.' });

/**
 * The tool input as the model sends it. Every property is optional at this level (a
 * clarification needs none of them); the rules that tie them together live in `validateConsulta`.
 * Unknown properties are rejected.
 */
export const ConsultarVendasInput = z.strictObject({
  metrica: z
    .enum(METRICAS)
    .optional()
    .describe(
      'O que medir: total_bruto (quanto vendeu, antes das taxas), total_liquido (quanto vai receber, depois das taxas), quantidade (número de vendas), ticket_medio (valor médio por venda).',
    ),
  agrupar_por: z
    .enum(AGRUPAMENTOS)
    .optional()
    .describe(
      'Como separar o resultado: nenhum (um só número), dia, mes, modalidade, bandeira, dia_da_semana ou hora do dia. Padrão: nenhum.',
    ),
  periodo: z
    .enum(PERIODOS)
    .optional()
    .describe(
      'Período relativo, calculado pelo sistema a partir de hoje (semanas de segunda a domingo). Use sempre que a pergunta for relativa (ontem, semana passada, este mês...). Não use junto com data_inicio/data_fim.',
    ),
  data_inicio: dataIso()
    .optional()
    .describe(
      'Primeiro dia (AAAA-MM-DD, inclusive) quando a pergunta cita datas ou meses explícitos. Exige data_fim.',
    ),
  data_fim: dataIso()
    .optional()
    .describe(
      'Último dia (AAAA-MM-DD, inclusive). Exige data_inicio. No máximo 366 dias no total.',
    ),
  modalidades: z
    .array(z.enum(MODALIDADES))
    .max(MODALIDADES.length)
    .optional()
    .describe(
      'Filtrar modalidades: debito, credito_avista, credito_parcelado, pix. "Crédito" sem detalhe = credito_avista e credito_parcelado. Omita para todas.',
    ),
  ordem: z
    .enum(ORDENS)
    .optional()
    .describe(
      'Ordenar os grupos pelo valor (decrescente = maior primeiro). Só com agrupar_por diferente de nenhum.',
    ),
  limite: z
    .int()
    .min(1)
    .max(MAX_LIMITE)
    .optional()
    .describe(
      'Quantos grupos mostrar depois de ordenar ("melhor dia" = ordem decrescente, limite 1). Só com agrupar_por diferente de nenhum.',
    ),
  pergunta_esclarecimento: z
    .string()
    .trim()
    .min(1)
    .max(500)
    .refine(validText, { message: MSG_INVALID_CHARS })
    .optional()
    .describe(
      'Preencha só quando não for possível responder com segurança (pergunta ambígua, fora do escopo ou sobre outra loja): a pergunta curta, em português, a devolver ao usuário. Quando preenchida, nada é consultado.',
    ),
  nao_expressavel: z
    .boolean()
    .optional()
    .describe(
      'Preencha true (e nada mais) quando a pergunta é sobre as vendas aprovadas deste lojista mas não cabe nestes campos (ex.: maior venda, média de parcelas, vendas acima de um valor). Nada é consultado por esta ferramenta.',
    ),
});
export type ConsultarVendasRaw = z.infer<typeof ConsultarVendasInput>;

/** The validated query with its period resolved to local dates. */
export interface ConsultaVendas {
  metrica: Metrica;
  agrupar_por: Agrupamento;
  /** The preset the question used, or null for explicit dates. */
  periodo: Periodo | null;
  /** First local day, inclusive (YYYY-MM-DD). */
  data_inicio: string;
  /** Last local day, inclusive (YYYY-MM-DD). */
  data_fim: string;
  /** Canonical order, no duplicates; empty = every modality. */
  modalidades: Modalidade[];
  ordem: Ordem | null;
  limite: number | null;
}

export type ConsultaValidada =
  | { tipo: 'consulta'; consulta: ConsultaVendas }
  | { tipo: 'esclarecimento'; pergunta: string }
  /** The question is about these sales but outside the DSL (free-SQL fallback, if enabled). */
  | { tipo: 'nao_expressavel' };

export type ValidacaoConsulta =
  { ok: true; value: ConsultaValidada } | { ok: false; erros: RuleError[] };

/** One result row: `grupo` per `agrupar_por` (null for `nenhum`), `valor` in centavos or a count. */
export interface LinhaVenda {
  grupo: string | null;
  /** Integer centavos (a count for `quantidade`); null only for `ticket_medio` of an empty group. */
  valor: number | null;
}

/**
 * The answer in parts, so no one has to split the text again: the heading of the per-group list,
 * one line per group (at most MAX_LINHAS_NO_TEXTO), how many more groups there are, and the
 * sentences — the number, or the period total and the highlight of a grouped answer.
 */
export interface PartesResposta {
  /** "Total bruto por dia de 09/03/2026 a 15/03/2026:"; null without a per-group list. */
  titulo: string | null;
  /** "10/03/2026 (terça-feira): R$ 300,00", without the bullet. */
  itens: string[];
  /** Groups left out of `itens`. */
  maisItens: number;
  frases: string[];
}

/** A DSL answer: the rows our SQL computed and the text our code wrote from them. */
export interface RespostaVendas {
  tipo: 'resposta';
  /** The validated query with its resolved dates. */
  consulta: ConsultaVendas;
  linhas: LinhaVenda[];
  /** Whole-period value for a grouped result (the totals row); null without grouping. */
  total: number | null;
  interpretacao: string;
  /** The whole answer text (CLI, log); `partes` holds the same, structured. */
  resposta: string;
  partes: PartesResposta;
  /** Freshness when the analytics endpoint is a hot standby (absent on the primary). */
  frescor?: Frescor;
}

/** The model asked something back: nothing ran. */
export interface EsclarecimentoVendas {
  tipo: 'esclarecimento';
  esclarecimento: string;
}

/** Free-SQL fallback: model-written SQL over `vendas_ia`, run under the guard. */
export interface RespostaLivreVendas {
  tipo: 'livre';
  sql: string;
  /** Names as the query gave them (may repeat, `__proto__` included); rows are arrays in this order. */
  colunas: string[];
  /** Bigints/numerics a double cannot hold exactly come as strings with every digit. */
  linhas: (string | number | boolean | null)[][];
  /** The row/byte caps cut the result. */
  truncado: boolean;
  /** Written by our code from the rows, never by the model. */
  resposta: string;
  /** Freshness when the analytics endpoint is a hot standby (absent on the primary). */
  frescor?: Frescor;
}

/** What a question (or a DSL) yields. */
export type ResultadoVendas = RespostaVendas | EsclarecimentoVendas | RespostaLivreVendas;

function rule(campo: string, regra: string, mensagem: string): RuleError {
  return { campo, regra, mensagem };
}

/** Drops null-valued properties: models often send `null` for "not used". */
function withoutNulls(raw: unknown): unknown {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  return Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== null));
}

/**
 * Validates a raw tool input (from the model, the CLI or the UI) and resolves its period against
 * `hoje` (the local date in the configured zone). Errors are pt-BR sentences the model can act on.
 */
export function validateConsulta(raw: unknown, hoje: string): ValidacaoConsulta {
  const parsed = ConsultarVendasInput.safeParse(withoutNulls(raw));
  if (!parsed.success) {
    return {
      ok: false,
      erros: parsed.error.issues.map((i) => {
        const campo = i.path.map(String).join('.');
        if (i.code === 'unrecognized_keys') {
          return rule(
            '',
            'propriedade_desconhecida',
            `Propriedades não permitidas: ${i.keys.join(', ')}. Use apenas: ${Object.keys(ConsultarVendasInput.shape).join(', ')}.`,
          );
        }
        return rule(campo, i.code, campo ? `${campo}: ${i.message}` : i.message);
      }),
    };
  }
  const d = parsed.data;
  if (d.nao_expressavel === true) return { ok: true, value: { tipo: 'nao_expressavel' } };
  if (d.pergunta_esclarecimento) {
    return { ok: true, value: { tipo: 'esclarecimento', pergunta: d.pergunta_esclarecimento } };
  }

  const erros: RuleError[] = [];
  if (!d.metrica) {
    erros.push(
      rule(
        'metrica',
        'obrigatorio',
        'Informe a métrica (total_bruto, total_liquido, quantidade ou ticket_medio), ou preencha pergunta_esclarecimento.',
      ),
    );
  }
  const agrupar = d.agrupar_por ?? 'nenhum';
  const temDatas = d.data_inicio !== undefined || d.data_fim !== undefined;
  let range: { data_inicio: string; data_fim: string } | undefined;
  if (d.periodo && !dataNoIntervalo(hoje)) {
    erros.push(
      rule(
        'periodo',
        'data_fora_do_intervalo',
        `A data de referência (hoje = ${hoje}) está fora do intervalo aceito. ${MSG_DATAS_ACEITAS}`,
      ),
    );
  } else if (d.periodo && temDatas) {
    erros.push(
      rule('periodo', 'periodo_duplo', 'Use periodo OU data_inicio/data_fim, não os dois juntos.'),
    );
  } else if (d.periodo) {
    range = resolvePeriod(d.periodo, hoje);
  } else if (d.data_inicio && d.data_fim) {
    range = { data_inicio: d.data_inicio, data_fim: d.data_fim };
  } else if (d.data_inicio || d.data_fim) {
    const falta = d.data_inicio ? 'data_fim' : 'data_inicio';
    erros.push(
      rule(
        falta,
        'obrigatorio',
        `Informe também ${falta}: datas explícitas vão sempre em par (data_inicio e data_fim, inclusive).`,
      ),
    );
  } else {
    erros.push(
      rule(
        'periodo',
        'obrigatorio',
        'Informe o período: periodo (hoje, ontem, esta_semana, semana_passada, este_mes, mes_passado, ultimos_7_dias, ultimos_30_dias, este_ano, ano_passado) ou data_inicio e data_fim.',
      ),
    );
  }
  if (range) {
    const fora = [
      ...(dataNoIntervalo(range.data_inicio) ? [] : ['data_inicio' as const]),
      ...(dataNoIntervalo(range.data_fim) ? [] : ['data_fim' as const]),
    ];
    if (fora.length) {
      for (const campo of fora) {
        erros.push(
          rule(
            campo,
            'data_fora_do_intervalo',
            `${campo} (${range[campo]}) está fora do intervalo aceito. ${MSG_DATAS_ACEITAS}`,
          ),
        );
      }
    } else if (range.data_fim < range.data_inicio) {
      erros.push(
        rule(
          'data_fim',
          'data_fim_antes_do_inicio',
          `data_fim (${range.data_fim}) não pode ser anterior a data_inicio (${range.data_inicio}).`,
        ),
      );
    } else if (periodLength(range) > MAX_PERIOD_DAYS) {
      erros.push(
        rule(
          'data_fim',
          'periodo_longo_demais',
          `O período tem ${periodLength(range)} dias; o máximo é ${MAX_PERIOD_DAYS} dias. Divida a pergunta em períodos menores.`,
        ),
      );
    }
  }
  if (agrupar === 'nenhum' && (d.ordem !== undefined || d.limite !== undefined)) {
    erros.push(
      rule(
        d.ordem !== undefined ? 'ordem' : 'limite',
        'ordem_sem_agrupamento',
        'ordem e limite só valem com agrupar_por (dia, mes, modalidade, bandeira, dia_da_semana ou hora).',
      ),
    );
  }
  if (erros.length || !d.metrica || !range) return { ok: false, erros };

  const escolhidas = new Set(d.modalidades ?? []);
  return {
    ok: true,
    value: {
      tipo: 'consulta',
      consulta: {
        metrica: d.metrica,
        agrupar_por: agrupar,
        periodo: d.periodo ?? null,
        data_inicio: range.data_inicio,
        data_fim: range.data_fim,
        modalidades: MODALIDADES.filter((m) => escolhidas.has(m)),
        ordem: d.ordem ?? (d.limite !== undefined ? 'decrescente' : null),
        limite: d.limite ?? null,
      },
    },
  };
}

/**
 * The tool's input schema (JSON Schema generated from the zod schema, so they cannot drift).
 * With `strict`, keywords constrained decoding rejects are dropped; zod still enforces them.
 */
export function consultarVendasToolSchema(strict = false): ToolInputSchema {
  return toolInputSchema(ConsultarVendasInput, { strict });
}
