import { CAMPOS_EM_FALTANDO, EXTRACTION_STATUSES, METODOS } from '@shared/extraction-types';
import type { DadosCobranca, ExtractionStatus } from '@shared/extraction-types';
import { z } from '@shared/zod';

/**
 * What an eval case expects (evals/cobrancas.jsonl: `{texto, hoje, esperado}`). Every key is
 * optional: only the fields written in `esperado` are compared.
 */
export const EsperadoCobranca = z
  .object({
    status: z.enum(EXTRACTION_STATUSES),
    valor_centavos: z.number().int().nullable(),
    parcelas: z.number().int().nullable(),
    metodo: z.enum(METODOS).nullable(),
    cliente_nome: z.string().nullable(),
    vencimento: z.string().nullable(),
    descricao: z.string().nullable(),
    cliente_documento: z.string().nullable(),
    faltando: z.array(z.enum(CAMPOS_EM_FALTANDO)),
    /** true: the amount alert must fire; false: it must not. */
    alerta_valor: z.boolean(),
  })
  .partial()
  .strict();
export type EsperadoCobranca = z.infer<typeof EsperadoCobranca>;

export const EvalCase = z
  .object({
    texto: z.string().min(1),
    hoje: z.iso.date(),
    esperado: EsperadoCobranca,
    merchant_id: z.number().int().positive().optional(),
    nota: z.string().optional(),
  })
  .strict();
export type EvalCase = z.infer<typeof EvalCase>;

/** One field that did not match. */
export interface Diferenca {
  campo: string;
  esperado: unknown;
  obtido: unknown;
}

/** Outcome of comparing one case (the evals use it for every suite). */
export interface Comparacao {
  ok: boolean;
  /** Fields compared (for per-field accuracy). */
  campos: string[];
  diferencas: Diferenca[];
}

/** Names compare case-, accent- and space-insensitively; other strings exactly. */
function normName(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * Compares an extraction result with an eval case's `esperado`, field by field. `faltando`
 * compares as a set; `cliente_nome` and `descricao` ignore case, accents and extra spaces.
 */
export function compareWithExpected(
  result: {
    status: ExtractionStatus;
    dados: DadosCobranca | null;
    alertas?: readonly { codigo: string }[];
  },
  esperado: EsperadoCobranca,
): Comparacao {
  const campos: string[] = [];
  const diferencas: Diferenca[] = [];
  const check = (
    campo: string,
    exp: unknown,
    got: unknown,
    eq: (a: unknown, b: unknown) => boolean,
  ) => {
    campos.push(campo);
    if (!eq(exp, got)) diferencas.push({ campo, esperado: exp, obtido: got });
  };
  const same = (a: unknown, b: unknown) => a === b;
  const sameName = (a: unknown, b: unknown) =>
    typeof a === 'string' && typeof b === 'string' ? normName(a) === normName(b) : a === b;
  const d = result.dados;
  if (esperado.status !== undefined) check('status', esperado.status, result.status, same);
  for (const f of ['valor_centavos', 'parcelas', 'metodo', 'vencimento'] as const) {
    if (esperado[f] !== undefined) check(f, esperado[f], d ? d[f] : null, same);
  }
  if (esperado.cliente_documento !== undefined) {
    check('cliente_documento', esperado.cliente_documento, d?.cliente_documento ?? null, same);
  }
  for (const f of ['cliente_nome', 'descricao'] as const) {
    if (esperado[f] !== undefined) check(f, esperado[f], d ? d[f] : null, sameName);
  }
  if (esperado.faltando !== undefined) {
    const exp = [...new Set(esperado.faltando)].sort();
    const got = [...new Set(d?.faltando ?? [])].sort();
    check(
      'faltando',
      exp,
      got,
      () => exp.length === got.length && exp.every((x, i) => x === got[i]),
    );
  }
  if (esperado.alerta_valor !== undefined) {
    const got = (result.alertas ?? []).some((a) => a.codigo === 'valor_divergente');
    check('alerta_valor', esperado.alerta_valor, got, same);
  }
  return { ok: diferencas.length === 0, campos, diferencas };
}
