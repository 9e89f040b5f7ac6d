/**
 * The PSP and payment-link settings in Configurações (#36 item 6), as the WhatsApp ones (#37.5).
 * One set for the whole installation, stored in the database and read by `balcao serve` and
 * `balcao worker` when they start; a value stored here wins over their environment
 * (BALCAO_PSP_*, BALCAO_LINK_*). Certificate, key and CA are file paths (never the files). The
 * three secrets (client secret, webhook path token, link token) are write-only: the renderer
 * learns only whether each is set, and may replace or remove it. Supervisors change them.
 */
import { z } from '../zod';
import { defineChannel } from './define';

/** What the renderer sees: plain values, and for each secret only whether it is set. */
export interface PspSettingsView {
  /** Null: not set here (the environment of serve/worker, else the default). */
  url: string | null;
  /** Null: BALCAO_PSP_TOKEN_URL, else `{url}/oauth/token`. */
  tokenUrl: string | null;
  clientId: string | null;
  certPath: string | null;
  keyPath: string | null;
  caPath: string | null;
  linkUrl: string | null;
  clientSecretConfigurado: boolean;
  webhookTokenConfigurado: boolean;
  linkTokenConfigurado: boolean;
  /** Last change (ISO) and the database login that made it. */
  alteradaEm: string | null;
  alteradaPor: string | null;
}

const limpo = (v: string) => v.trim();

const url = (exemplo: string, https: boolean) =>
  z
    .string()
    .transform(limpo)
    .pipe(
      z
        .string()
        .max(500, 'URL longa demais (máximo 500 caracteres).')
        .regex(
          https ? /^https:\/\/[^\s/]+(\/\S*)?$/ : /^https?:\/\/[^\s/]+(\/\S*)?$/,
          https
            ? `Informe uma URL https://… (o PSP exige TLS), como ${exemplo}.`
            : `Informe uma URL http(s)://…, como ${exemplo}.`,
        )
        .transform((v) => v.replace(/\/+$/, '')),
    );

export const PspUrl = url('https://pix.seu-psp.com.br/api/v2', true);
export const PspTokenUrl = url('https://pix.seu-psp.com.br/oauth/token', true);
export const LinkUrl = url('https://links.empresa.com.br', false);

export const PspClientId = z
  .string()
  .transform(limpo)
  .pipe(
    z
      .string()
      .min(1, 'Informe o client id fornecido pelo PSP.')
      .max(200, 'Client id longo demais (máximo 200 caracteres).')
      .regex(/^\S+$/, 'O client id não tem espaços: cole o valor completo.'),
  );

/** A PEM file's absolute path on the machines running serve and worker (never its contents). */
const caminho = (nome: string) =>
  z
    .string()
    .transform(limpo)
    .pipe(
      z
        .string()
        .max(1000, `Caminho ${nome} longo demais (máximo 1000 caracteres).`)
        .regex(
          /^\//,
          `Informe o caminho absoluto ${nome} (começa com /, ex.: /etc/balcao/psp/cliente.pem).`,
        )
        .refine((v) => !v.includes('-----BEGIN '), {
          message: `Informe o caminho ${nome}, não o conteúdo do arquivo PEM.`,
        }),
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

export const PspWebhookToken = z
  .string()
  .transform(limpo)
  .pipe(
    z
      .string()
      .regex(
        /^[A-Za-z0-9_-]{16,128}$/,
        'O token do caminho das notificações tem de 16 a 128 caracteres entre letras, números, _ e -.',
      ),
  );

/**
 * A change: only the fields present change; `null` removes the stored value (back to the
 * environment or the default). Secrets are sent only to replace them.
 */
export const PspSettingsPatch = z
  .object({
    url: PspUrl.nullable().optional(),
    tokenUrl: PspTokenUrl.nullable().optional(),
    clientId: PspClientId.nullable().optional(),
    clientSecret: segredo('O client secret', 8, 500).nullable().optional(),
    certPath: caminho('do certificado').nullable().optional(),
    keyPath: caminho('da chave').nullable().optional(),
    caPath: caminho('da CA').nullable().optional(),
    webhookToken: PspWebhookToken.nullable().optional(),
    linkUrl: LinkUrl.nullable().optional(),
    linkToken: segredo('O token do serviço de links', 8, 2000).nullable().optional(),
  })
  .strict();
export type PspSettingsPatch = z.infer<typeof PspSettingsPatch>;

export const pspSettingsContract = {
  'psp/settings': defineChannel<PspSettingsView>()(z.object({}).strict()),
  'psp/saveSettings': defineChannel<PspSettingsView>()(PspSettingsPatch),
} as const;
