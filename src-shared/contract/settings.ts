import { z } from '../zod';
import { isValidZone } from '../time';
import { defineChannel } from './define';

/** What the renderer may learn about settings: never the API key itself. */
export interface SettingsView {
  apiKeyConfigured: boolean;
  /** Where the key comes from, if configured. */
  apiKeySource: 'app' | 'env' | null;
  /** Whether the OS can encrypt a key typed in the app (safeStorage). */
  canStoreApiKey: boolean;
  /** pt-BR reason when it cannot. */
  cannotStoreReason: string | null;
  model: string;
  timeZone: string;
  maxAttempts: number;
  freeSqlEnabled: boolean;
  databaseUrl: string | null;
}

/**
 * What Configurações may change (supervisors only in a team deployment: these are the settings of
 * this computer, for everyone who signs in on it). There is no operator name any more (#18): who
 * did what is the database login (session_user), never a value typed in the app.
 */
export const SettingsPatch = z
  .object({
    model: z.string().trim().min(1, 'Informe o nome do modelo.').max(100).optional(),
    timeZone: z
      .string()
      .refine(isValidZone, 'Fuso horário desconhecido. Use um nome IANA, como America/Sao_Paulo.')
      .optional(),
    maxAttempts: z.number().int().min(1).max(5).optional(),
    freeSqlEnabled: z.boolean().optional(),
  })
  .strict();
export type SettingsPatch = z.infer<typeof SettingsPatch>;

/** "Testar chave": the configured key and model answered a one-token request. */
export interface ApiKeyTestResult {
  modelo: string;
  duracaoMs: number;
  mensagem: string;
}

export const settingsContract = {
  'settings/get': defineChannel<SettingsView>()(z.object({}).strict()),
  'settings/update': defineChannel<SettingsView>()(SettingsPatch),
  'settings/setApiKey': defineChannel<SettingsView>()(
    z
      .object({
        apiKey: z
          .string()
          .trim()
          .min(20, 'A chave parece curta demais. Cole a chave completa (começa com sk-ant-).')
          .max(400),
      })
      .strict(),
  ),
  'settings/clearApiKey': defineChannel<SettingsView>()(z.object({}).strict()),
  /** Calls the Messages API with the configured key and model (main process only). */
  'settings/testApiKey': defineChannel<ApiKeyTestResult>()(z.object({}).strict()),
} as const;
