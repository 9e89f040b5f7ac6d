/**
 * The charge tool `registrar_cobranca`: ONE zod schema (types and bounds) from which the JSON
 * schema sent to the model is derived, plus the business rules with pt-BR messages. The main
 * process (model feedback) and the renderer (the agent's editor) use the same `chargeRules`,
 * so no node imports here.
 */
import {
  CAMPOS_FALTANTES,
  METODOS,
  type CampoFaltante,
  type DadosCobranca,
  type Metodo,
  type RuleError,
} from './extraction-types';
import { formatBRL } from './money';
import { formatDateBR, isIsoDate } from './time';
import { toolInputSchema, type ToolInputSchema } from './tool-schema';
import { z } from './zod';

export const CHARGE_TOOL_NAME = 'registrar_cobranca';

export const VALOR_MIN_CENTAVOS = 100;
export const VALOR_MAX_CENTAVOS = 10_000_000;
export const PARCELAS_MIN = 1;
export const PARCELAS_MAX = 12;
export const CLIENTE_NOME_MAX = 120;
export const DESCRICAO_MAX = 140;

export const CHARGE_FIELDS = [
  'valor_centavos',
  'parcelas',
  'metodo',
  'cliente_nome',
  'vencimento',
  'descricao',
  'faltando',
] as const;

/** The tool input: types and bounds. Cross-field and date rules live in `chargeRules`. */
export const cobrancaSchema = z
  .object({
    valor_centavos: z
      .number()
      .int()
      .min(VALOR_MIN_CENTAVOS)
      .max(VALOR_MAX_CENTAVOS)
      .nullable()
      .describe(
        'Valor total em centavos, inteiro (150 reais = 15000; R$ 1.500,50 = 150050). ' +
          'Entre 100 (R$ 1,00) e 10000000 (R$ 100.000,00). null se o texto não diz o valor.',
      ),
    parcelas: z
      .number()
      .int()
      .min(PARCELAS_MIN)
      .max(PARCELAS_MAX)
      .nullable()
      .describe(
        'Número de parcelas, de 1 a 12 ("3x" = 3; "à vista" = 1). Pix e boleto: sempre 1. ' +
          'null se o texto não diz.',
      ),
    metodo: z
      .enum(METODOS)
      .nullable()
      .describe(
        'Forma de pagamento que o lojista pediu: pix, boleto ou cartao (crédito/débito/link de cartão). ' +
          'Nunca troque o método escolhido. null se o texto não diz.',
      ),
    cliente_nome: z
      .string()
      .max(CLIENTE_NOME_MAX)
      .nullable()
      .describe(
        'Nome do cliente que vai pagar, como escrito (até 120 caracteres). null se o texto não diz.',
      ),
    vencimento: z.iso
      .date()
      .nullable()
      .describe(
        'Data de vencimento AAAA-MM-DD, hoje ou futura, resolvida a partir da data de hoje informada ' +
          '("sexta" = a próxima sexta-feira). null se o texto não diz.',
      ),
    descricao: z
      .string()
      .max(DESCRICAO_MAX)
      .nullable()
      .describe('Descrição curta do que está sendo cobrado (até 140 caracteres), ou null.'),
    faltando: z
      .array(z.enum(CAMPOS_FALTANTES))
      .describe(
        'Nomes dos campos que ficaram null porque o texto não informa: exatamente os campos null entre ' +
          'valor_centavos, parcelas, metodo, cliente_nome e vencimento. Lista vazia se nada falta.',
      ),
  })
  .strict();

export type CobrancaInput = z.infer<typeof cobrancaSchema>;

export const CHARGE_TOOL_DESCRIPTION =
  'Registra o pedido de cobrança do lojista. Preencha só o que o texto diz; o que ele não diz fica ' +
  'null e entra em faltando. Valores em centavos.';

export interface ChargeToolDefinition {
  name: string;
  description: string;
  input_schema: ToolInputSchema;
  strict: boolean;
}
const toolCache = new Map<boolean, ChargeToolDefinition>();

/**
 * The tool definition (name, description, JSON schema derived from `cobrancaSchema`), built
 * once per strict flag. Callers must not mutate it.
 */
export function chargeTool(opts: { strict?: boolean } = {}): ChargeToolDefinition {
  const strict = Boolean(opts.strict);
  let t = toolCache.get(strict);
  if (!t) {
    t = {
      name: CHARGE_TOOL_NAME,
      description: CHARGE_TOOL_DESCRIPTION,
      input_schema: toolInputSchema(cobrancaSchema, { strict }),
      strict,
    };
    toolCache.set(strict, t);
  }
  return t;
}

export interface ChargeRuleContext {
  /** Today's local date (YYYY-MM-DD) in the configured zone, from the one Clock. */
  today: string;
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);
const show = (v: unknown): string => {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 60 ? `${s.slice(0, 57)}...` : s;
};
const err = (campo: string, regra: string, mensagem: string): RuleError => ({
  campo,
  regra,
  mensagem,
});

/**
 * Every business rule over an untrusted tool input (model output or the agent's edit).
 * Returns [] when the charge is valid. Messages say what is wrong and what is accepted.
 */
export function chargeRules(data: unknown, ctx: ChargeRuleContext): RuleError[] {
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    return [err('', 'objeto', `Envie um objeto com os sete campos: ${CHARGE_FIELDS.join(', ')}.`)];
  }
  const d = data as Record<string, unknown>;
  const out: RuleError[] = [];

  const unknown = Object.keys(d).filter((k) => !(CHARGE_FIELDS as readonly string[]).includes(k));
  if (unknown.length) {
    out.push(
      err(
        '',
        'campo_desconhecido',
        `Campos desconhecidos: ${unknown.join(', ')}. Use só: ${CHARGE_FIELDS.join(', ')}.`,
      ),
    );
  }
  for (const f of CHARGE_FIELDS) {
    if (!(f in d) || d[f] === undefined) {
      out.push(
        err(
          f,
          'campo_obrigatorio',
          f === 'faltando'
            ? 'Informe faltando: a lista dos campos null (lista vazia se nada falta).'
            : `Informe ${f} (use null se o texto não diz).`,
        ),
      );
    }
  }

  // valor_centavos
  const valor = d.valor_centavos;
  if (valor !== null && valor !== undefined) {
    if (!isInt(valor)) {
      out.push(
        err(
          'valor_centavos',
          'valor_inteiro',
          `valor_centavos deve ser um número inteiro de centavos (150 reais = 15000); recebido ${show(valor)}.`,
        ),
      );
    } else if (valor < VALOR_MIN_CENTAVOS || valor > VALOR_MAX_CENTAVOS) {
      const recebido = valor >= 0 ? formatBRL(valor) : String(valor);
      out.push(
        err(
          'valor_centavos',
          'valor_faixa',
          `O valor deve ficar entre R$ 1,00 e R$ 100.000,00 (100 a 10.000.000 centavos); recebido ${recebido} (${valor} centavos). Lembre: 150 reais = 15000.`,
        ),
      );
    }
  }

  // parcelas
  const parcelas = d.parcelas;
  if (parcelas !== null && parcelas !== undefined) {
    if (!isInt(parcelas)) {
      out.push(
        err(
          'parcelas',
          'parcelas_inteiro',
          `parcelas deve ser um número inteiro de 1 a 12; recebido ${show(parcelas)}.`,
        ),
      );
    } else if (parcelas < PARCELAS_MIN || parcelas > PARCELAS_MAX) {
      out.push(
        err(
          'parcelas',
          'parcelas_faixa',
          `O número de parcelas deve ficar entre 1 e 12; recebido ${parcelas}.`,
        ),
      );
    }
  }

  // metodo
  const metodo = d.metodo;
  const metodoOk = (METODOS as readonly unknown[]).includes(metodo);
  if (metodo !== null && metodo !== undefined && !metodoOk) {
    out.push(
      err(
        'metodo',
        'metodo_invalido',
        `metodo deve ser pix, boleto ou cartao (ou null se o texto não diz); recebido ${show(metodo)}.`,
      ),
    );
  }
  if (metodoOk && metodo !== 'cartao' && isInt(parcelas) && parcelas > 1) {
    out.push(
      err(
        'parcelas',
        'parcelas_pix_boleto',
        'Pix e boleto aceitam só 1 parcela. Parcelamento só no cartão.',
      ),
    );
  }

  // cliente_nome, descricao
  const textField = (campo: 'cliente_nome' | 'descricao', max: number) => {
    const v = d[campo];
    if (v === null || v === undefined) return;
    if (typeof v !== 'string') {
      out.push(
        err(campo, `${campo}_texto`, `${campo} deve ser um texto ou null; recebido ${show(v)}.`),
      );
    } else if (v.trim() === '') {
      out.push(
        err(campo, `${campo}_vazio`, `${campo} está vazio: use null quando o texto não informa.`),
      );
    } else if (v.length > max) {
      out.push(
        err(
          campo,
          `${campo}_tamanho`,
          `${campo} pode ter no máximo ${max} caracteres; recebido ${v.length}.`,
        ),
      );
    }
  };
  textField('cliente_nome', CLIENTE_NOME_MAX);
  textField('descricao', DESCRICAO_MAX);

  // vencimento
  const venc = d.vencimento;
  if (venc !== null && venc !== undefined) {
    if (typeof venc !== 'string' || !isIsoDate(venc)) {
      out.push(
        err(
          'vencimento',
          'vencimento_invalido',
          `vencimento deve ser uma data real no formato AAAA-MM-DD; recebido ${show(venc)}.`,
        ),
      );
    } else if (venc < ctx.today) {
      out.push(
        err(
          'vencimento',
          'vencimento_passado',
          `O vencimento não pode ser uma data passada: ${formatDateBR(venc)} já passou (hoje é ${formatDateBR(ctx.today)}). Use hoje ou uma data futura.`,
        ),
      );
    }
  }

  // faltando
  const faltando = d.faltando;
  if (faltando !== undefined) {
    if (!Array.isArray(faltando)) {
      out.push(
        err(
          'faltando',
          'faltando_lista',
          `faltando deve ser uma lista de nomes de campos; recebido ${show(faltando)}.`,
        ),
      );
    } else {
      const unknownNames = faltando.filter(
        (n) => !(CAMPOS_FALTANTES as readonly unknown[]).includes(n),
      );
      if (unknownNames.length) {
        out.push(
          err(
            'faltando',
            'faltando_desconhecido',
            `faltando tem nomes desconhecidos: ${unknownNames.map(show).join(', ')}. Use só: ${CAMPOS_FALTANTES.join(', ')}.`,
          ),
        );
      }
      const dup = faltando.filter((n, i) => faltando.indexOf(n) !== i);
      if (dup.length) {
        out.push(
          err(
            'faltando',
            'faltando_repetido',
            `faltando repete ${[...new Set(dup.map(show))].join(', ')}.`,
          ),
        );
      }
      for (const campo of CAMPOS_FALTANTES) {
        if (!(campo in d)) continue;
        const isNull = d[campo] === null;
        const listed = faltando.includes(campo);
        if (isNull && !listed) {
          out.push(
            err(
              'faltando',
              'faltando_sem_campo_nulo',
              `${campo} está null mas não está em faltando. Se o texto não informa ${campo}, inclua "${campo}" em faltando.`,
            ),
          );
        } else if (!isNull && listed) {
          out.push(
            err(
              'faltando',
              'faltando_com_valor',
              `${campo} está em faltando mas tem valor ${show(d[campo])}. Um campo está em faltando se e somente se for null: tire "${campo}" de faltando ou use null.`,
            ),
          );
        }
      }
    }
  }

  // Safety net: the zod schema must accept whatever the rules accept (no drift).
  if (out.length === 0) {
    const p = cobrancaSchema.safeParse(d);
    if (!p.success) {
      for (const issue of p.error.issues) {
        out.push(err(String(issue.path[0] ?? ''), 'formato', issue.message));
      }
    }
  }
  return out;
}

export type ChargeValidation =
  { ok: true; value: DadosCobranca } | { ok: false; errors: RuleError[] };

/** Validates an untrusted input; on success the typed charge. */
export function validateCharge(data: unknown, ctx: ChargeRuleContext): ChargeValidation {
  const errors = chargeRules(data, ctx);
  if (errors.length) return { ok: false, errors };
  const v = cobrancaSchema.parse(data);
  return { ok: true, value: { ...v, faltando: [...v.faltando] } };
}

/** One line per error for the model / CLI: "campo: mensagem". */
export function ruleErrorText(e: RuleError): string {
  return e.campo ? `${e.campo}: ${e.mensagem}` : e.mensagem;
}

/**
 * The seven fields of an untrusted input, each kept only when its type fits (ranges are not
 * checked: an out-of-range value is what the agent has to fix). For storing `falhou` results.
 */
export function projectDados(data: unknown): DadosCobranca {
  const d =
    data && typeof data === 'object' && !Array.isArray(data)
      ? (data as Record<string, unknown>)
      : {};
  const int = (v: unknown) => (isInt(v) ? v : null);
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  const faltando = Array.isArray(d.faltando)
    ? [
        ...new Set(
          d.faltando.filter((n): n is CampoFaltante =>
            (CAMPOS_FALTANTES as readonly unknown[]).includes(n),
          ),
        ),
      ]
    : [];
  return {
    valor_centavos: int(d.valor_centavos),
    parcelas: int(d.parcelas),
    metodo: (METODOS as readonly unknown[]).includes(d.metodo) ? (d.metodo as Metodo) : null,
    cliente_nome: str(d.cliente_nome),
    vencimento: str(d.vencimento),
    descricao: str(d.descricao),
    faltando,
  };
}

/** One field the agent (or a later attempt) changed. */
export interface FieldChange {
  campo: (typeof CHARGE_FIELDS)[number];
  antes: unknown;
  depois: unknown;
}

/**
 * Fields of the seven that differ between two versions of a charge (values compared as JSON,
 * missing = null). The review queue stores this diff with each charge and shows it before
 * confirming; the attempt timeline shows it between attempts.
 */
export function changedChargeFields(
  before: Partial<DadosCobranca> | null | undefined,
  after: Partial<DadosCobranca> | null | undefined,
): FieldChange[] {
  const out: FieldChange[] = [];
  for (const campo of CHARGE_FIELDS) {
    const antes = before?.[campo] ?? null;
    const depois = after?.[campo] ?? null;
    if (JSON.stringify(antes) !== JSON.stringify(depois)) out.push({ campo, antes, depois });
  }
  return out;
}
