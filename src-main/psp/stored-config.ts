/**
 * The PSP and payment-link settings stored in the database (#36 item 6, migration 1120): one row
 * shared by the desktops (Configurações), `balcao serve` and `balcao worker` — the WhatsApp
 * settings' design (whatsapp/stored-config.ts).
 *
 * Precedence, as for every value saved in Configurações: a value stored here wins over the
 * process's environment (BALCAO_PSP_*, BALCAO_LINK_*); a field not stored (NULL) falls back to
 * the environment, then to the default (the token URL: `{URL}/oauth/token`). `serve` and `worker`
 * read it when they start (`withStoredPsp`): restart them after a change.
 *
 * Certificate, key and CA are stored as file paths; the files are read by serve/worker only
 * (psp/config.ts), never by the desktop for the renderer. The secrets (client secret, webhook
 * path token, link token) are write-only for people: `pspSettingsView` reads only the columns a
 * person's role may SELECT (the database refuses the others), and the view says only whether
 * each is set. Only the service login reads them (`storedPspEnv`).
 */
import type { PspSettingsPatch, PspSettingsView } from '@shared/contract/psp-settings';
import type pg from 'pg';
import { query } from '../db/tx';
import { storedRow } from '../db/stored-row';

/** Each stored column and the environment variable it stands for. */
const COLUNAS = {
  url: { coluna: 'url', env: 'BALCAO_PSP_URL' },
  tokenUrl: { coluna: 'token_url', env: 'BALCAO_PSP_TOKEN_URL' },
  clientId: { coluna: 'client_id', env: 'BALCAO_PSP_CLIENT_ID' },
  clientSecret: { coluna: 'client_secret', env: 'BALCAO_PSP_CLIENT_SECRET' },
  certPath: { coluna: 'cert_path', env: 'BALCAO_PSP_CERT' },
  keyPath: { coluna: 'key_path', env: 'BALCAO_PSP_KEY' },
  caPath: { coluna: 'ca_path', env: 'BALCAO_PSP_CA' },
  webhookToken: { coluna: 'webhook_token', env: 'BALCAO_PSP_WEBHOOK_TOKEN' },
  linkUrl: { coluna: 'link_url', env: 'BALCAO_LINK_URL' },
  linkToken: { coluna: 'link_token', env: 'BALCAO_LINK_TOKEN' },
} as const satisfies Record<keyof PspSettingsPatch, { coluna: string; env: string }>;

type Campo = keyof typeof COLUNAS;
const SEGREDOS: ReadonlySet<Campo> = new Set(['clientSecret', 'webhookToken', 'linkToken']);
const tabela = storedRow({
  tabela: 'psp_configuracao',
  colunas: COLUNAS,
  segredos: SEGREDOS,
  nome: 'do PSP',
  migracao: '1120',
});

interface ViewRow {
  url: string | null;
  token_url: string | null;
  client_id: string | null;
  cert_path: string | null;
  key_path: string | null;
  ca_path: string | null;
  link_url: string | null;
  client_secret_configurado: boolean;
  webhook_token_configurado: boolean;
  link_token_configurado: boolean;
  alterada_em: string | null;
  alterada_por: string | null;
}

// Only columns a person's role may read (never the secrets themselves).
const VIEW_SQL = `SELECT url, token_url, client_id, cert_path, key_path, ca_path, link_url,
       client_secret_configurado, webhook_token_configurado, link_token_configurado,
       to_char(alterada_em AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS alterada_em,
       alterada_por
  FROM psp_configuracao WHERE id = 1`;

function toView(r: ViewRow | undefined): PspSettingsView {
  return {
    url: r?.url ?? null,
    tokenUrl: r?.token_url ?? null,
    clientId: r?.client_id ?? null,
    certPath: r?.cert_path ?? null,
    keyPath: r?.key_path ?? null,
    caPath: r?.ca_path ?? null,
    linkUrl: r?.link_url ?? null,
    clientSecretConfigurado: r?.client_secret_configurado ?? false,
    webhookTokenConfigurado: r?.webhook_token_configurado ?? false,
    linkTokenConfigurado: r?.link_token_configurado ?? false,
    alteradaEm: r?.alterada_em ?? null,
    alteradaPor: r?.alterada_por ?? null,
  };
}

/** What Configurações shows: the plain values and whether each secret is set. */
export async function pspSettingsView(pool: pg.Pool): Promise<PspSettingsView> {
  const rows = await query<ViewRow>(pool, VIEW_SQL);
  return toView(rows[0]);
}

/**
 * Saves a change (only the fields present; null removes a stored value) and answers with the new
 * view. The statement names only the changed columns, so a person's role needs no right to read
 * a secret to replace it.
 */
export async function savePspSettings(
  pool: pg.Pool,
  patch: PspSettingsPatch,
): Promise<PspSettingsView> {
  await tabela.save(pool, patch);
  return pspSettingsView(pool);
}

/**
 * The stored settings as environment variables (service login only: it reads the secrets);
 * fields not stored are absent.
 */
export async function storedPspEnv(pool: pg.Pool): Promise<Record<string, string>> {
  const out = await tabela.env(pool);
  // A stored API Pix URL without a stored token URL: the token URL follows it (`{URL}/oauth/token`),
  // not an environment's token URL meant for another PSP.
  if (out.BALCAO_PSP_URL && !out.BALCAO_PSP_TOKEN_URL) {
    out.BALCAO_PSP_TOKEN_URL = `${out.BALCAO_PSP_URL.replace(/\/+$/, '')}/oauth/token`;
  }
  return out;
}

/** The process's environment with the stored settings over it (stored wins). */
export async function withStoredPsp(
  pool: pg.Pool,
  env: NodeJS.ProcessEnv,
): Promise<NodeJS.ProcessEnv> {
  return { ...env, ...(await storedPspEnv(pool)) };
}
