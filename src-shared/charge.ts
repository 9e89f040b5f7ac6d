/**
 * The charge tool `registrar_cobranca` and its rules. The schema (types, bounds, the type
 * `DadosCobranca`, `normalizeDados`) is `charge-schema.ts`; here: the tool definition derived from
 * it, and `chargeRules` — zod's verdict worded per field, plus the rules a schema cannot hold
 * (Pix/boleto in one parcela, blank text, due date not past, faltando ⇔ null). The main process
 * (model feedback, the queue) and the renderer (the agent's form) use the same `chargeRules`, so
 * no node imports here.
 */
import {
  CAMPOS_EM_FALTANDO,
  CAMPOS_FALTANTES,
  CHARGE_FIELDS,
  METODOS,
  TOOL_FIELDS,
  cobrancaSchema,
  faltandoDesconhecido,
  fieldProblem,
  isInt,
  show,
  type CampoEmFaltando,
  type DadosCobranca,
  type Metodo,
  type ToolField,
} from './charge-schema';
import { canonicalDocumento } from './documento';
import type { RuleError } from './extraction-types';
import { formatDateBR } from './time';
import { toolInputSchema, type ToolInputSchema } from './tool-schema';

export {
  CHARGE_FIELDS,
  CLIENTE_DOCUMENTO_MAX,
  CLIENTE_NOME_MAX,
  DESCRICAO_MAX,
  PARCELAS_MAX,
  PARCELAS_MIN,
  VALOR_MAX_CENTAVOS,
  VALOR_MIN_CENTAVOS,
  cobrancaSchema,
  normalizeDados,
  withFaltaDocumento,
  type DadosCobranca,
  type DadosCobrancaDraft,
} from './charge-schema';

export const CHARGE_TOOL_NAME = 'registrar_cobranca';

export const CHARGE_TOOL_DESCRIPTION =
  'Registra o pedido de cobrança do lojista. Preencha só o que o texto diz; o que ele não diz fica ' +
  'null e entra em faltando. Valores em centavos. Boleto precisa do CPF/CNPJ de quem paga ' +
  '(cliente_documento).';

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

const err = (campo: string, regra: string, mensagem: string): RuleError => ({
  campo,
  regra,
  mensagem,
});
const isField = (k: unknown): k is ToolField => (TOOL_FIELDS as readonly unknown[]).includes(k);

/** Rules and, when they pass, the typed charge (parsed once). */
function checkCharge(
  data: unknown,
  ctx: ChargeRuleContext,
): { errors: RuleError[]; value: DadosCobranca | null } {
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    const m = `Envie um objeto com os sete campos: ${CHARGE_FIELDS.join(', ')}.`;
    return { errors: [err('', 'objeto', m)], value: null };
  }
  const d = data as Record<string, unknown>;
  const parsed = cobrancaSchema.safeParse(d);

  // zod's verdict: which fields it refused, unknown fields, unknown names in faltando.
  const refused = new Set<ToolField>();
  const unknownKeys: string[] = [];
  const unknownNames: unknown[] = [];
  const other: RuleError[] = [];
  for (const issue of parsed.error?.issues ?? []) {
    const [campo, i] = issue.path;
    if (issue.code === 'unrecognized_keys') unknownKeys.push(...issue.keys);
    else if (campo === 'faltando' && typeof i === 'number') {
      unknownNames.push((d.faltando as unknown[])[i]);
    } else if (isField(campo)) refused.add(campo);
    else other.push(err(String(campo ?? ''), 'formato', issue.message)); // not expected
  }

  const out: RuleError[] = [];
  if (unknownKeys.length) {
    out.push(
      err(
        '',
        'campo_desconhecido',
        `Campos desconhecidos: ${unknownKeys.join(', ')}. Use só: ${TOOL_FIELDS.join(', ')}.`,
      ),
    );
  }
  for (const f of CHARGE_FIELDS) {
    if (d[f] === undefined) out.push({ campo: f, ...fieldProblem(f, undefined) });
  }
  const present = (f: ToolField) => d[f] !== undefined;
  const refusedField = (f: ToolField) => {
    if (refused.has(f) && present(f)) out.push({ campo: f, ...fieldProblem(f, d[f]) });
  };

  refusedField('valor_centavos');
  refusedField('parcelas');
  refusedField('metodo');
  const { metodo, parcelas } = d;
  if (metodo != null && !refused.has('metodo') && metodo !== 'cartao' && isInt(parcelas)) {
    if (parcelas > 1) {
      out.push(
        err(
          'parcelas',
          'parcelas_pix_boleto',
          'Pix e boleto aceitam só 1 parcela. Parcelamento só no cartão.',
        ),
      );
    }
  }
  for (const f of ['cliente_nome', 'descricao'] as const) {
    const v = d[f];
    const blank = typeof v === 'string' && v.trim() === '';
    if (present(f) && (refused.has(f) || blank)) out.push({ campo: f, ...fieldProblem(f, v) });
  }
  refusedField('vencimento');
  const venc = d.vencimento;
  if (typeof venc === 'string' && !refused.has('vencimento') && venc < ctx.today) {
    out.push(
      err(
        'vencimento',
        'vencimento_passado',
        `O vencimento não pode ser uma data passada: ${formatDateBR(venc)} já passou (hoje é ${formatDateBR(ctx.today)}). Use hoje ou uma data futura.`,
      ),
    );
  }
  refusedField('cliente_documento');
  refusedField('faltando');
  if (Array.isArray(d.faltando)) out.push(...faltandoRules(d, d.faltando, unknownNames));

  out.push(...other);
  if (out.length || !parsed.success) return { errors: out, value: null };
  const value: DadosCobranca = { ...parsed.data, faltando: [...parsed.data.faltando] };
  if (typeof value.cliente_documento === 'string') {
    value.cliente_documento = canonicalDocumento(value.cliente_documento);
  }
  return { errors: [], value };
}

/** faltando: names zod refused, repeats, and listed ⇔ null. */
function faltandoRules(
  d: Record<string, unknown>,
  faltando: unknown[],
  unknownNames: unknown[],
): RuleError[] {
  const out: RuleError[] = [];
  if (unknownNames.length) out.push({ campo: 'faltando', ...faltandoDesconhecido(unknownNames) });
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
  // The payer's document is missing only on a boleto (#36.4); on another method it is optional.
  if (faltando.includes('cliente_documento')) {
    const doc = d.cliente_documento;
    if (doc !== undefined && doc !== null) {
      out.push(
        err(
          'faltando',
          'faltando_com_valor',
          `cliente_documento está em faltando mas tem valor ${show(doc)}. Tire "cliente_documento" de faltando ou use null.`,
        ),
      );
    } else if (d.metodo === 'pix' || d.metodo === 'cartao') {
      out.push(
        err(
          'faltando',
          'faltando_documento_opcional',
          `cliente_documento só falta no boleto; no ${d.metodo === 'pix' ? 'Pix' : 'cartão'} ele é opcional: tire "cliente_documento" de faltando.`,
        ),
      );
    }
  }
  return out;
}

/**
 * Every business rule over an untrusted tool input (model output or the agent's edit).
 * Returns [] when the charge is valid. Messages say what is wrong and what is accepted.
 */
export function chargeRules(data: unknown, ctx: ChargeRuleContext): RuleError[] {
  return checkCharge(data, ctx).errors;
}

export type ChargeValidation =
  { ok: true; value: DadosCobranca } | { ok: false; errors: RuleError[] };

/** Validates an untrusted input; on success the typed charge. */
export function validateCharge(data: unknown, ctx: ChargeRuleContext): ChargeValidation {
  const r = checkCharge(data, ctx);
  return r.value ? { ok: true, value: r.value } : { ok: false, errors: r.errors };
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
          d.faltando.filter((n): n is CampoEmFaltando =>
            (CAMPOS_EM_FALTANDO as readonly unknown[]).includes(n),
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
    ...(typeof d.cliente_documento === 'string' ? { cliente_documento: d.cliente_documento } : {}),
    faltando,
  };
}

/** One field the agent (or a later attempt) changed. */
export interface FieldChange {
  campo: ToolField;
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
  for (const campo of TOOL_FIELDS) {
    const antes = before?.[campo] ?? null;
    const depois = after?.[campo] ?? null;
    if (JSON.stringify(antes) !== JSON.stringify(depois)) out.push({ campo, antes, depois });
  }
  return out;
}
