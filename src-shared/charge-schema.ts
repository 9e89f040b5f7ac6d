/**
 * THE charge (`registrar_cobranca`): one zod schema that is the type (`DadosCobranca`), the IPC
 * input of the review actions, the model's tool schema (`chargeTool`, derived in `charge.ts`) and
 * the base of the agent's form validation. Bounds live here once; every check a schema can hold
 * (types, ranges, lengths, dates, enums, unknown fields) is a zod check whose pt-BR message is the
 * rule message the model gets back. Rules that need more than one field or today's date run on
 * top, in `chargeRules` (`charge.ts`). No node or DOM imports.
 */
import { canonicalDocumento, isValidDocumento } from './documento';
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

/**
 * Every name `faltando` may hold: the five, and the payer's document (#36.4), which is optional
 * in general and missing only when the charge is a boleto (a registered boleto needs it).
 */
export const CAMPOS_EM_FALTANDO = [...CAMPOS_FALTANTES, 'cliente_documento'] as const;
export type CampoEmFaltando = (typeof CAMPOS_EM_FALTANDO)[number];

export const VALOR_MIN_CENTAVOS = 100;
export const VALOR_MAX_CENTAVOS = 10_000_000;
export const PARCELAS_MIN = 1;
export const PARCELAS_MAX = 12;
export const CLIENTE_NOME_MAX = 120;
export const DESCRICAO_MAX = 140;
/** "00.000.000/0000-00": the longest way to write a document. */
export const CLIENTE_DOCUMENTO_MAX = 18;

/** The seven tool fields: the five that can be missing, the description and the list itself. */
export const CHARGE_FIELDS = [...CAMPOS_FALTANTES, 'descricao', 'faltando'] as const;
export type ChargeField = (typeof CHARGE_FIELDS)[number];

/** The tool's optional field (#36.4): absent = null. */
export const OPTIONAL_CHARGE_FIELDS = ['cliente_documento'] as const;
/** Every field of the tool: the seven and the optional one. */
export const TOOL_FIELDS = [...CHARGE_FIELDS, ...OPTIONAL_CHARGE_FIELDS] as const;
export type ToolField = (typeof TOOL_FIELDS)[number];

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

function missing(campo: ToolField): FieldProblem {
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
export function fieldProblem(campo: ToolField, v: unknown): FieldProblem {
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
    case 'cliente_documento':
      return typeof v === 'string'
        ? {
            regra: 'cliente_documento_invalido',
            mensagem: `cliente_documento deve ser um CPF (11 dígitos) ou CNPJ (14 caracteres, numérico ou alfanumérico) com dígitos verificadores válidos; recebido ${show(v)}.`,
          }
        : {
            regra: 'cliente_documento_texto',
            mensagem: `cliente_documento deve ser um texto (CPF ou CNPJ) ou null; recebido ${show(v)}.`,
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
    mensagem: `faltando tem nomes desconhecidos: ${names.map(show).join(', ')}. Use só: ${CAMPOS_EM_FALTANDO.join(', ')}.`,
  };
}

/** zod's `error` option for every check of one field: the field's rule message. */
const msg = (campo: ToolField) => ({
  error: (iss: { input?: unknown }) => fieldProblem(campo, iss.input).mensagem,
  abort: true, // one message per field
});
const text = (campo: 'cliente_nome' | 'descricao', max: number) =>
  z.string(msg(campo)).max(max, msg(campo));
const int = (campo: 'valor_centavos' | 'parcelas', min: number, max: number) =>
  z.number(msg(campo)).int(msg(campo)).min(min, msg(campo)).max(max, msg(campo));
const date = (campo: 'vencimento') => z.iso.date(msg(campo)).refine(isIsoDate, msg(campo));
const documento = (campo: 'cliente_documento') =>
  z.string(msg(campo)).max(CLIENTE_DOCUMENTO_MAX, msg(campo)).refine(isValidDocumento, msg(campo));

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
    cliente_documento: documento('cliente_documento')
      .nullable()
      .optional()
      .describe(
        'CPF ou CNPJ de quem vai pagar, como escrito (ou o marcador [CPF_n]/[CNPJ_n] copiado igual). ' +
          'O CNPJ pode ter letras (CNPJ alfanumérico). Obrigatório só no boleto: se o método é boleto e ' +
          'o texto não traz o documento, use null e inclua "cliente_documento" em faltando. ' +
          'Nos outros métodos, null quando o texto não diz (e nunca em faltando).',
      ),
    faltando: z
      .array(
        z.enum(CAMPOS_EM_FALTANDO, {
          error: (iss: { input?: unknown }) => faltandoDesconhecido([iss.input]).mensagem,
        }),
        msg('faltando'),
      )
      .describe(
        'Nomes dos campos que ficaram null porque o texto não informa: exatamente os campos null entre ' +
          'valor_centavos, parcelas, metodo, cliente_nome e vencimento, mais cliente_documento quando ' +
          'o método é boleto e o documento não foi informado. Lista vazia se nada falta.',
      ),
  })
  .strict();

/**
 * A charge: the seven tool fields and the optional payer's document, as stored in `extracoes`
 * and shown by the queue.
 */
export type DadosCobranca = z.infer<typeof cobrancaSchema>;

/** The seven fields before `normalizeDados`: `faltando` is derived, so it may be anything. */
export type DadosCobrancaDraft = Omit<DadosCobranca, 'faltando'> & {
  faltando?: readonly string[];
};

/** True when the charge is a boleto without the payer's document (#36.4). */
export const faltaDocumento = (d: Pick<DadosCobranca, 'metodo' | 'cliente_documento'>): boolean =>
  d.metodo === 'boleto' && (d.cliente_documento ?? null) === null;

/**
 * `faltando` as the product reads it: the model's list plus `cliente_documento` when a boleto
 * lacks it (a registered boleto needs the payer's CPF/CNPJ: the merchant is asked). Applied to a
 * valid tool answer before its status is decided.
 */
export function withFaltaDocumento(d: DadosCobranca): DadosCobranca {
  if (!faltaDocumento(d) || d.faltando.includes('cliente_documento')) return d;
  return { ...d, faltando: [...d.faltando, 'cliente_documento'] };
}

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
  const doc = trimmed(d.cliente_documento ?? null);
  if (doc !== null) out.cliente_documento = canonicalDocumento(doc);
  else if (d.cliente_documento !== undefined) out.cliente_documento = null;
  out.faltando = CAMPOS_FALTANTES.filter((c: CampoFaltante) => out[c] === null);
  if (faltaDocumento(out)) out.faltando.push('cliente_documento');
  return out;
}
