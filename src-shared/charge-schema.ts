/**
 * THE charge (`registrar_cobranca`): one zod schema that is the type (`DadosCobranca`), the IPC
 * input of the review actions, the model's tool schema (`chargeTool`, derived in `charge.ts`) and
 * the base of the agent's form validation. Bounds live here once; every check a schema can hold
 * (types, ranges, lengths, dates, enums, unknown fields) is a zod check whose pt-BR message is the
 * rule message the model gets back. Rules that need more than one field or today's date run on
 * top, in `chargeRules` (`charge.ts`). No node or DOM imports.
 */
import { formatBRL } from './money';
import { isIsoDate } from './time';
import { z } from './zod';

export const METODOS = ['pix', 'boleto', 'cartao'] as const;
export type Metodo = (typeof METODOS)[number];

/** The five fields that can be listed in `faltando`. */
export const CAMPOS_FALTANTES = [
  'valor_centavos',
  'parcelas',
  'metodo',
  'cliente_nome',
  'vencimento',
] as const;
export type CampoFaltante = (typeof CAMPOS_FALTANTES)[number];

export const VALOR_MIN_CENTAVOS = 100;
export const VALOR_MAX_CENTAVOS = 10_000_000;
export const PARCELAS_MIN = 1;
export const PARCELAS_MAX = 12;
export const CLIENTE_NOME_MAX = 120;
export const DESCRICAO_MAX = 140;

/** The seven tool fields: the five that can be missing, the description and the list itself. */
export const CHARGE_FIELDS = [...CAMPOS_FALTANTES, 'descricao', 'faltando'] as const;
export type ChargeField = (typeof CHARGE_FIELDS)[number];

/** What is wrong with one field's value: a stable rule id and the message for the model. */
export interface FieldProblem {
  regra: string;
  mensagem: string;
}

export const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

/** A value as the messages quote it (JSON, cut at 60 characters). */
export const show = (v: unknown): string => {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 60 ? `${s.slice(0, 57)}...` : s;
};

function missing(campo: ChargeField): FieldProblem {
  return {
    regra: 'campo_obrigatorio',
    mensagem:
      campo === 'faltando'
        ? 'Informe faltando: a lista dos campos null (lista vazia se nada falta).'
        : `Informe ${campo} (use null se o texto não diz).`,
  };
}

function textProblem(campo: 'cliente_nome' | 'descricao', v: unknown, max: number): FieldProblem {
  if (typeof v !== 'string') {
    return {
      regra: `${campo}_texto`,
      mensagem: `${campo} deve ser um texto ou null; recebido ${show(v)}.`,
    };
  }
  if (v.trim() === '') {
    return {
      regra: `${campo}_vazio`,
      mensagem: `${campo} está vazio: use null quando o texto não informa.`,
    };
  }
  return {
    regra: `${campo}_tamanho`,
    mensagem: `${campo} pode ter no máximo ${max} caracteres; recebido ${v.length}.`,
  };
}

/**
 * The problem zod found in one field's (present) value, worded for the model. Called only when
 * the schema refused the value: zod decides, this names the rule and says what is accepted.
 */
export function fieldProblem(campo: ChargeField, v: unknown): FieldProblem {
  if (v === undefined) return missing(campo);
  switch (campo) {
    case 'valor_centavos':
      if (!isInt(v)) {
        return {
          regra: 'valor_inteiro',
          mensagem: `valor_centavos deve ser um número inteiro de centavos (150 reais = 15000); recebido ${show(v)}.`,
        };
      }
      return {
        regra: 'valor_faixa',
        mensagem: `O valor deve ficar entre R$ 1,00 e R$ 100.000,00 (100 a 10.000.000 centavos); recebido ${v >= 0 ? formatBRL(v) : String(v)} (${v} centavos). Lembre: 150 reais = 15000.`,
      };
    case 'parcelas':
      return isInt(v)
        ? {
            regra: 'parcelas_faixa',
            mensagem: `O número de parcelas deve ficar entre 1 e 12; recebido ${v}.`,
          }
        : {
            regra: 'parcelas_inteiro',
            mensagem: `parcelas deve ser um número inteiro de 1 a 12; recebido ${show(v)}.`,
          };
    case 'metodo':
      return {
        regra: 'metodo_invalido',
        mensagem: `metodo deve ser pix, boleto ou cartao (ou null se o texto não diz); recebido ${show(v)}.`,
      };
    case 'cliente_nome':
      return textProblem(campo, v, CLIENTE_NOME_MAX);
    case 'descricao':
      return textProblem(campo, v, DESCRICAO_MAX);
    case 'vencimento':
      return {
        regra: 'vencimento_invalido',
        mensagem: `vencimento deve ser uma data real no formato AAAA-MM-DD; recebido ${show(v)}.`,
      };
    case 'faltando':
      return {
        regra: 'faltando_lista',
        mensagem: `faltando deve ser uma lista de nomes de campos; recebido ${show(v)}.`,
      };
  }
}

/** Unknown names listed in `faltando`. */
export function faltandoDesconhecido(names: readonly unknown[]): FieldProblem {
  return {
    regra: 'faltando_desconhecido',
    mensagem: `faltando tem nomes desconhecidos: ${names.map(show).join(', ')}. Use só: ${CAMPOS_FALTANTES.join(', ')}.`,
  };
}

/** zod's `error` option for every check of one field: the field's rule message. */
const msg = (campo: ChargeField) => ({
  error: (iss: { input?: unknown }) => fieldProblem(campo, iss.input).mensagem,
  abort: true, // one message per field
});
const text = (campo: 'cliente_nome' | 'descricao', max: number) =>
  z.string(msg(campo)).max(max, msg(campo));
const int = (campo: 'valor_centavos' | 'parcelas', min: number, max: number) =>
  z.number(msg(campo)).int(msg(campo)).min(min, msg(campo)).max(max, msg(campo));
const date = (campo: 'vencimento') => z.iso.date(msg(campo)).refine(isIsoDate, msg(campo));

/** The seven fields: types and bounds. Cross-field and date rules live in `chargeRules`. */
export const cobrancaSchema = z
  .object({
    valor_centavos: int('valor_centavos', VALOR_MIN_CENTAVOS, VALOR_MAX_CENTAVOS)
      .nullable()
      .describe(
        'Valor total em centavos, inteiro (150 reais = 15000; R$ 1.500,50 = 150050). ' +
          'Entre 100 (R$ 1,00) e 10000000 (R$ 100.000,00). null se o texto não diz o valor.',
      ),
    parcelas: int('parcelas', PARCELAS_MIN, PARCELAS_MAX)
      .nullable()
      .describe(
        'Número de parcelas, de 1 a 12 ("3x" = 3; "à vista" = 1). Pix e boleto: sempre 1. ' +
          'null se o texto não diz.',
      ),
    metodo: z
      .enum(METODOS, msg('metodo'))
      .nullable()
      .describe(
        'Forma de pagamento que o lojista pediu: pix, boleto ou cartao (crédito/débito/link de cartão). ' +
          'Nunca troque o método escolhido. null se o texto não diz.',
      ),
    cliente_nome: text('cliente_nome', CLIENTE_NOME_MAX)
      .nullable()
      .describe(
        'Nome do cliente que vai pagar, como escrito (até 120 caracteres). null se o texto não diz.',
      ),
    vencimento: date('vencimento')
      .nullable()
      .describe(
        'Data de vencimento AAAA-MM-DD, hoje ou futura, resolvida a partir da data de hoje informada ' +
          '("sexta" = a próxima sexta-feira). null se o texto não diz.',
      ),
    descricao: text('descricao', DESCRICAO_MAX)
      .nullable()
      .describe('Descrição curta do que está sendo cobrado (até 140 caracteres), ou null.'),
    faltando: z
      .array(
        z.enum(CAMPOS_FALTANTES, {
          error: (iss: { input?: unknown }) => faltandoDesconhecido([iss.input]).mensagem,
        }),
        msg('faltando'),
      )
      .describe(
        'Nomes dos campos que ficaram null porque o texto não informa: exatamente os campos null entre ' +
          'valor_centavos, parcelas, metodo, cliente_nome e vencimento. Lista vazia se nada falta.',
      ),
  })
  .strict();

/** A charge: the seven tool fields, as stored in `extracoes` and shown by the queue. */
export type DadosCobranca = z.infer<typeof cobrancaSchema>;

/** The seven fields before `normalizeDados`: `faltando` is derived, so it may be anything. */
export type DadosCobrancaDraft = Omit<DadosCobranca, 'faltando'> & {
  faltando?: readonly string[];
};

/**
 * A charge as it is stored from a person's edit: text trimmed (blank = null) and `faltando`
 * derived from the null fields (an agent never types that list). THE normalization, for the
 * main process (save, validate, confirm, automatic creation) and the renderer's form.
 */
export function normalizeDados(d: DadosCobrancaDraft): DadosCobranca {
  const trimmed = (s: string | null) => {
    const t = s?.trim();
    return t ? t : null;
  };
  const out: DadosCobranca = {
    valor_centavos: d.valor_centavos,
    parcelas: d.parcelas,
    metodo: d.metodo,
    cliente_nome: trimmed(d.cliente_nome),
    vencimento: trimmed(d.vencimento),
    descricao: trimmed(d.descricao),
    faltando: [],
  };
  out.faltando = CAMPOS_FALTANTES.filter((c: CampoFaltante) => out[c] === null);
  return out;
}
