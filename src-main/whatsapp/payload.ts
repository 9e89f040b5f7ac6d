/**
 * The webhook deliveries of the WhatsApp Business Cloud API (Meta's `whatsapp_business_account`
 * object), checked with zod after the signature: `entry[].changes[].value` with `metadata`,
 * `contacts[]`, `messages[]` and `statuses[]`. Objects are not strict (Meta adds fields); what
 * Balcão reads is typed and bounded.
 */
import { z } from '@shared/zod';

const id = (label: string) =>
  z
    .string({ error: `${label} deve ser um texto.` })
    .min(1, { error: `${label} está vazio.` })
    .max(200, { error: `${label} passa de 200 caracteres.` });

/** Unix seconds as Meta sends them (a string of digits). */
const timestamp = z
  .string({ error: 'timestamp deve ser um texto de dígitos.' })
  .regex(/^\d{1,12}$/, { error: 'timestamp deve ser segundos Unix.' });

export const WaMessageSchema = z.object({
  from: z.string({ error: 'from deve ser um texto.' }).regex(/^\d{6,20}$/, {
    error: 'from deve ser o número do remetente (só dígitos).',
  }),
  id: id('id da mensagem'),
  timestamp,
  type: z.string({ error: 'type deve ser um texto.' }).min(1).max(40),
  text: z.object({ body: z.string({ error: 'text.body deve ser um texto.' }) }).optional(),
  context: z.object({ id: z.string().optional(), from: z.string().optional() }).optional(),
});

export const WaStatusSchema = z.object({
  id: id('id do status'),
  status: z.string({ error: 'status deve ser um texto.' }).min(1).max(40),
  timestamp,
  recipient_id: z.string().optional(),
  biz_opaque_callback_data: z.string().max(512).optional(),
  errors: z
    .array(
      z.object({
        code: z.number().int().optional(),
        title: z.string().optional(),
        message: z.string().optional(),
      }),
    )
    .optional(),
});

export const WaValueSchema = z.object({
  messaging_product: z.string().optional(),
  metadata: z.object({
    phone_number_id: id('metadata.phone_number_id'),
    display_phone_number: z.string().optional(),
  }),
  contacts: z
    .array(z.object({ wa_id: z.string().optional(), profile: z.object({}).optional() }))
    .optional(),
  messages: z.array(WaMessageSchema).max(1000).optional(),
  statuses: z.array(WaStatusSchema).max(1000).optional(),
});

export const WaDeliverySchema = z.object({
  object: z.string({ error: 'object deve ser um texto.' }),
  entry: z
    .array(
      z.object({
        id: z.string().optional(),
        changes: z.array(
          z.object({
            field: z.string({ error: 'field deve ser um texto.' }),
            // Checked per change (only `messages` changes carry a WaValue).
            value: z.unknown(),
          }),
        ),
      }),
      { error: 'entry deve ser uma lista.' },
    )
    .max(1000),
});

export type WaMessage = z.output<typeof WaMessageSchema>;
export type WaStatus = z.output<typeof WaStatusSchema>;
export type WaValue = z.output<typeof WaValueSchema>;

/** The `messages` values of a delivery, or a pt-BR reason (first problem, with its path). */
export function parseDelivery(
  raw: unknown,
): { ok: true; values: WaValue[] } | { ok: false; motivo: string } {
  const d = WaDeliverySchema.safeParse(raw);
  if (!d.success) return { ok: false, motivo: describe(d.error) };
  if (d.data.object !== 'whatsapp_business_account') {
    return { ok: false, motivo: `object inesperado: "${d.data.object.slice(0, 60)}".` };
  }
  const values: WaValue[] = [];
  for (const [i, e] of d.data.entry.entries()) {
    for (const [j, ch] of e.changes.entries()) {
      if (ch.field !== 'messages') continue;
      const v = WaValueSchema.safeParse(ch.value);
      if (!v.success) {
        return { ok: false, motivo: describe(v.error, `entry.${i}.changes.${j}.value.`) };
      }
      values.push(v.data);
    }
  }
  return { ok: true, values };
}

function describe(err: z.ZodError, prefix = ''): string {
  const issue = err.issues[0];
  const path = issue?.path.length ? `${prefix}${issue.path.join('.')}: ` : prefix;
  return `Notificação do WhatsApp inválida — ${path}${issue?.message ?? 'formato inesperado.'}`;
}
