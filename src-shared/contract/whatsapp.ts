/**
 * The WhatsApp settings in Configurações (#37 item 5). One set for the whole installation,
 * stored in the database and read by `balcao serve` and `balcao worker` when they start; a value
 * stored here wins over their environment (BALCAO_WHATSAPP_*). The three secrets (token, app
 * secret, verify token) are write-only: the renderer learns only whether each is set, and may
 * replace or remove it. Supervisors change them (permissions.ts).
 */
import { z } from '../zod';
import { defineChannel } from './define';

/** Meta's Graph API, versioned: the default of BALCAO_WHATSAPP_API_URL. */
export const WHATSAPP_API_URL_PADRAO = 'https://graph.facebook.com/v23.0';
export const WHATSAPP_IDIOMA_PADRAO = 'pt_BR';

/** What the renderer sees: plain values, and for each secret only whether it is set. */
export interface WhatsAppSettingsView {
  /** Null: not set here (the environment of serve/worker, else Meta's default). */
  apiUrl: string | null;
  phoneNumberId: string | null;
  modelo: string | null;
  modeloIdioma: string | null;
  tokenConfigurado: boolean;
  appSecretConfigurado: boolean;
  verifyTokenConfigurado: boolean;
  /** Last change (ISO) and the database login that made it. */
  alteradaEm: string | null;
  alteradaPor: string | null;
}

const limpo = (v: string) => v.trim();

export const WhatsAppApiUrl = z
  .string()
  .transform(limpo)
  .pipe(
    z
      .string()
      .max(500, 'URL longa demais (máximo 500 caracteres).')
      .regex(
        /^https?:\/\/[^\s/]+(\/\S*)?$/,
        `Informe uma URL http(s)://…, como ${WHATSAPP_API_URL_PADRAO}.`,
      )
      .transform((v) => v.replace(/\/+$/, '')),
  );
export const WhatsAppPhoneNumberId = z
  .string()
  .transform(limpo)
  .pipe(
    z
      .string()
      .regex(
        /^[0-9]{1,30}$/,
        'O identificador do número (Phone Number ID) tem só dígitos, como aparece no painel da Meta.',
      ),
  );
export const WhatsAppModelo = z
  .string()
  .transform(limpo)
  .pipe(
    z
      .string()
      .regex(
        /^[a-z0-9_]{1,512}$/,
        'O nome do modelo aprovado na Meta usa só letras minúsculas, números e _ (ex.: aviso_balcao).',
      ),
  );
export const WhatsAppIdioma = z
  .string()
  .transform(limpo)
  .pipe(
    z
      .string()
      .regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, 'Use um código de idioma da Meta, como pt_BR ou en_US.'),
  );
const segredo = (nome: string, min: number, max: number) =>
  z
    .string()
    .transform(limpo)
    .pipe(
      z
        .string()
        .min(
          min,
          `${nome} parece curto demais: cole o valor completo (ao menos ${min} caracteres).`,
        )
        .max(max, `${nome} longo demais (máximo ${max} caracteres).`)
        .regex(/^\S+$/, `${nome} não tem espaços: cole o valor completo, sem espaços.`),
    );

/**
 * A change: only the fields present change; `null` removes the stored value (back to the
 * environment or the default). Secrets are sent only to replace them.
 */
export const WhatsAppSettingsPatch = z
  .object({
    apiUrl: WhatsAppApiUrl.nullable().optional(),
    phoneNumberId: WhatsAppPhoneNumberId.nullable().optional(),
    modelo: WhatsAppModelo.nullable().optional(),
    modeloIdioma: WhatsAppIdioma.nullable().optional(),
    token: segredo('O token de acesso', 20, 2000).nullable().optional(),
    appSecret: segredo('A chave secreta do app', 16, 200).nullable().optional(),
    verifyToken: segredo('O token de verificação', 8, 200).nullable().optional(),
  })
  .strict();
export type WhatsAppSettingsPatch = z.infer<typeof WhatsAppSettingsPatch>;

export const whatsappContract = {
  'whatsapp/settings': defineChannel<WhatsAppSettingsView>()(z.object({}).strict()),
  'whatsapp/saveSettings': defineChannel<WhatsAppSettingsView>()(WhatsAppSettingsPatch),
} as const;
