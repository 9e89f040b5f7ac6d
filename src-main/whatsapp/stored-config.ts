/**
 * The WhatsApp settings stored in the database (#37 item 5, migration 1090): one row shared by
 * the desktops (Configurações), `balcao serve` and `balcao worker`.
 *
 * Precedence, as for every value saved in Configurações: a value stored here wins over the
 * process's environment (BALCAO_WHATSAPP_*); a field not stored (NULL) falls back to the
 * environment, then to the default (Meta's versioned Graph API, pt_BR). `serve` and `worker`
 * read it when they start (`withStoredWhatsApp`): restart them after a change.
 *
 * The secrets (token, app secret, verify token) are write-only for people: `whatsappSettingsView`
 * reads only the columns a person's role may SELECT (the database refuses the others), and the
 * view says only whether each is set. Only the service login reads them (`storedWhatsAppEnv`).
 */
import type { WhatsAppSettingsPatch, WhatsAppSettingsView } from '@shared/contract/whatsapp';
import type pg from 'pg';
import { query } from '../db/tx';
import { storedRow } from '../db/stored-row';

/** Each stored column and the environment variable it stands for. */
const COLUNAS = {
  apiUrl: { coluna: 'api_url', env: 'BALCAO_WHATSAPP_API_URL' },
  phoneNumberId: { coluna: 'phone_number_id', env: 'BALCAO_WHATSAPP_PHONE_NUMBER_ID' },
  modelo: { coluna: 'modelo', env: 'BALCAO_WHATSAPP_TEMPLATE' },
  modeloIdioma: { coluna: 'modelo_idioma', env: 'BALCAO_WHATSAPP_TEMPLATE_IDIOMA' },
  token: { coluna: 'token', env: 'BALCAO_WHATSAPP_TOKEN' },
  appSecret: { coluna: 'app_secret', env: 'BALCAO_WHATSAPP_APP_SECRET' },
  verifyToken: { coluna: 'verify_token', env: 'BALCAO_WHATSAPP_VERIFY_TOKEN' },
} as const satisfies Record<keyof WhatsAppSettingsPatch, { coluna: string; env: string }>;

type Campo = keyof typeof COLUNAS;
const SEGREDOS: ReadonlySet<Campo> = new Set(['token', 'appSecret', 'verifyToken']);
const tabela = storedRow({
  tabela: 'whatsapp_configuracao',
  colunas: COLUNAS,
  segredos: SEGREDOS,
  nome: 'do WhatsApp',
  migracao: '1090',
});

interface ViewRow {
  api_url: string | null;
  phone_number_id: string | null;
  modelo: string | null;
  modelo_idioma: string | null;
  token_configurado: boolean;
  app_secret_configurado: boolean;
  verify_token_configurado: boolean;
  alterada_em: string | null;
  alterada_por: string | null;
}

// Only columns a person's role may read (never the secrets themselves).
const VIEW_SQL = `SELECT api_url, phone_number_id, modelo, modelo_idioma, token_configurado,
       app_secret_configurado, verify_token_configurado,
       to_char(alterada_em AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS alterada_em,
       alterada_por
  FROM whatsapp_configuracao WHERE id = 1`;

function toView(r: ViewRow | undefined): WhatsAppSettingsView {
  return {
    apiUrl: r?.api_url ?? null,
    phoneNumberId: r?.phone_number_id ?? null,
    modelo: r?.modelo ?? null,
    modeloIdioma: r?.modelo_idioma ?? null,
    tokenConfigurado: r?.token_configurado ?? false,
    appSecretConfigurado: r?.app_secret_configurado ?? false,
    verifyTokenConfigurado: r?.verify_token_configurado ?? false,
    alteradaEm: r?.alterada_em ?? null,
    alteradaPor: r?.alterada_por ?? null,
  };
}

/** What Configurações shows: the plain values and whether each secret is set. */
export async function whatsappSettingsView(pool: pg.Pool): Promise<WhatsAppSettingsView> {
  const rows = await query<ViewRow>(pool, VIEW_SQL);
  return toView(rows[0]);
}

/**
 * Saves a change (only the fields present; null removes a stored value) and answers with the new
 * view. The statement names only the changed columns, so a person's role needs no right to read
 * a secret to replace it.
 */
export async function saveWhatsAppSettings(
  pool: pg.Pool,
  patch: WhatsAppSettingsPatch,
): Promise<WhatsAppSettingsView> {
  await tabela.save(pool, patch);
  return whatsappSettingsView(pool);
}

/**
 * The stored settings as environment variables (service login only: it reads the secrets);
 * fields not stored are absent.
 */
export async function storedWhatsAppEnv(pool: pg.Pool): Promise<Record<string, string>> {
  const out = await tabela.env(pool);
  return out;
}

/** The process's environment with the stored settings over it (stored wins). */
export async function withStoredWhatsApp(
  pool: pg.Pool,
  env: NodeJS.ProcessEnv,
): Promise<NodeJS.ProcessEnv> {
  return { ...env, ...(await storedWhatsAppEnv(pool)) };
}
