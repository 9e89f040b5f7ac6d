/**
 * An inbound merchant message, as a channel hands it to Balcão (JSONL line or POST body):
 *   { canal, mensagem_id, merchant, texto, recebida_em?, responde_a? }
 * Never trusted: checked here with zod, every reason in pt-BR.
 */
import { z } from '@shared/zod';
import { TEXTO_MAX } from '../extraction';

/** A string PostgreSQL can store and a person can read: no U+0000, no lone surrogates. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function cleanText(label: string, max: number) {
  return z
    .string({ error: `${label} deve ser um texto.` })
    .refine((s) => !s.includes('\u0000'), { error: `${label} contém o caractere nulo (U+0000).` })
    .refine((s) => !LONE_SURROGATE.test(s), {
      error: `${label} contém caracteres inválidos (UTF-16 malformado).`,
    })
    .transform((s) => s.trim())
    .refine((s) => s.length > 0, { error: `${label} está vazio.` })
    .refine((s) => s.length <= max, {
      error: `${label} passa de ${max.toLocaleString('pt-BR')} caracteres.`,
    });
}

export const MensagemEntradaSchema = z.strictObject(
  {
    canal: z.string({ error: 'canal deve ser um texto.' }).regex(/^[a-z0-9][a-z0-9_.-]{0,39}$/, {
      error: 'canal inválido: use até 40 letras minúsculas, dígitos, ".", "_" ou "-".',
    }),
    mensagem_id: cleanText('mensagem_id', 200),
    merchant: z
      .number({ error: 'merchant deve ser o id numérico do lojista.' })
      .int({ error: 'merchant deve ser um número inteiro.' })
      .positive({ error: 'merchant deve ser positivo.' })
      .max(Number.MAX_SAFE_INTEGER, { error: 'merchant fora do intervalo.' }),
    texto: cleanText('texto', TEXTO_MAX),
    recebida_em: z.iso
      .datetime({ offset: true, error: 'recebida_em deve ser data e hora ISO 8601 com fuso.' })
      .optional(),
    responde_a: cleanText('responde_a', 200).optional(),
  },
  {
    error: (iss) =>
      iss.code === 'unrecognized_keys'
        ? `campo desconhecido: ${iss.keys.join(', ')}.`
        : 'a mensagem deve ser um objeto JSON.',
  },
);

export type MensagemEntrada = z.output<typeof MensagemEntradaSchema>;

/** The first problem of an invalid message, as one pt-BR sentence. */
export function parseMensagem(
  raw: unknown,
  now: Date,
): { ok: true; value: MensagemEntrada } | { ok: false; motivo: string } {
  const r = MensagemEntradaSchema.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0];
    const path = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    const msg = issue?.message ?? 'mensagem inválida.';
    return {
      ok: false,
      motivo: `Mensagem recusada — ${msg.startsWith(String(issue?.path[0])) ? msg : path + msg}`,
    };
  }
  if (r.data.recebida_em && Date.parse(r.data.recebida_em) > now.getTime() + 5 * 60_000) {
    return { ok: false, motivo: 'Mensagem recusada — recebida_em está no futuro.' };
  }
  return { ok: true, value: r.data };
}
