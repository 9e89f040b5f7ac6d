import { registerSecret, registerUrlSecrets } from '../util/redact';
import { DEFAULT_TIME_ZONE, isValidZone } from '@shared/time';
import type { ModelPrice, Settings } from './types';
import { qualitySamplingFromEnv } from './quality-sampling';

// The issues named claude-sonnet-4-5, which the SDK lists as end-of-life on 2026-11-30;
// its successor at the same price is the default. ANTHROPIC_MODEL or the settings change it.
export const DEFAULT_MODEL = 'claude-sonnet-4-6';

/** Public list prices, USD per million tokens (estimate only; editable in settings). */
export const DEFAULT_PRICES: Record<string, ModelPrice> = {
  'claude-sonnet-4-5': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'claude-sonnet-4-6': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'claude-opus-4-5': { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  'claude-haiku-4-5': { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
};

function nonEmpty(v: string | undefined): string | undefined {
  const t = v?.trim();
  return t ? t : undefined;
}

function intEnv(v: string | undefined, fallback: number, min: number, max: number): number {
  const n = Number(v);
  return v !== undefined && Number.isInteger(n) && n >= min && n <= max ? n : fallback;
}

/** Settings from environment variables over the defaults. */
/** 1/true → true, 0/false → false, anything else (unset) → undefined. */
function flagEnv(v: string | undefined): boolean | undefined {
  const t = v?.trim().toLowerCase();
  if (t === '1' || t === 'true') return true;
  if (t === '0' || t === 'false') return false;
  return undefined;
}

export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): Settings {
  // Secrets the redaction masks wherever they show up (#12 point 5).
  registerSecret(env.ANTHROPIC_API_KEY);
  registerSecret(env.PGPASSWORD); // libpq's own source of DATABASE_URL's password
  for (const k of [
    'DATABASE_URL',
    'APP_DATABASE_URL',
    'ANALYTICS_DATABASE_URL',
    'DIRECT_DATABASE_URL',
  ] as const) {
    registerUrlSecrets(env[k]);
  }
  const zone = nonEmpty(env.BALCAO_TIME_ZONE);
  return {
    model: nonEmpty(env.ANTHROPIC_MODEL) ?? DEFAULT_MODEL,
    timeZone: zone && isValidZone(zone) ? zone : DEFAULT_TIME_ZONE,
    operator: nonEmpty(env.BALCAO_OPERATOR) ?? nonEmpty(env.USER) ?? 'operador',
    maxAttempts: intEnv(env.BALCAO_MAX_ATTEMPTS, 3, 1, 5),
    freeSqlEnabled: env.BALCAO_FREE_SQL === '1' || env.BALCAO_FREE_SQL === 'true',
    strictTools: env.BALCAO_STRICT_TOOLS !== '0' && env.BALCAO_STRICT_TOOLS !== 'false',
    anthropicBaseUrl: nonEmpty(env.ANTHROPIC_BASE_URL),
    requestTimeoutMs: intEnv(env.BALCAO_REQUEST_TIMEOUT_MS, 60_000, 100, 600_000),
    maxRetries: intEnv(env.BALCAO_MAX_RETRIES, 2, 0, 10),
    maxTokens: intEnv(env.BALCAO_MAX_TOKENS, 1024, 64, 8192),
    queryTimeoutMs: intEnv(env.BALCAO_QUERY_TIMEOUT_MS, 3_000, 100, 60_000),
    dbStatementTimeoutMs: intEnv(env.BALCAO_DB_STATEMENT_TIMEOUT_MS, 15_000, 100, 600_000),
    dbLockTimeoutMs: intEnv(env.BALCAO_DB_LOCK_TIMEOUT_MS, 3_000, 50, 600_000),
    dbIdleInTransactionTimeoutMs: intEnv(
      env.BALCAO_DB_IDLE_TX_TIMEOUT_MS,
      30_000,
      1_000,
      3_600_000,
    ),
    dbConnectTimeoutMs: intEnv(env.BALCAO_DB_CONNECT_TIMEOUT_MS, 5_000, 100, 120_000),
    databaseUrl: nonEmpty(env.DATABASE_URL),
    appDatabaseUrl: nonEmpty(env.APP_DATABASE_URL),
    analyticsDatabaseUrl: nonEmpty(env.ANALYTICS_DATABASE_URL),
    evalsDir: nonEmpty(env.BALCAO_EVALS_DIR),
    maxLagS: intEnv(env.BALCAO_MAX_LAG_S, 60, 0, 86_400),
    analyticsFallback: env.BALCAO_ANALYTICS_FALLBACK?.trim() === 'primary' ? 'primary' : 'none',
    analyticsOutrosBancos:
      (env.BALCAO_ANALYTICS_OUTROS_BANCOS ?? process.env.BALCAO_ANALYTICS_OUTROS_BANCOS)?.trim() ===
      'permitir'
        ? 'permitir'
        : 'recusar',
    analyticsConnectTimeoutMs: intEnv(env.BALCAO_ANALYTICS_CONNECT_TIMEOUT_MS, 3_000, 100, 60_000),
    prices: DEFAULT_PRICES,
    directDatabaseUrl: nonEmpty(env.DIRECT_DATABASE_URL),
    dbPrepare: flagEnv(env.BALCAO_DB_PREPARAR),
    autoCriar: env.BALCAO_AUTO_CRIAR !== '0' && env.BALCAO_AUTO_CRIAR !== 'false',
    maxEmVoo: intEnv(env.BALCAO_MAX_EM_VOO, 8, 1, 1000),
    alertaFalhasValidacaoPct: intEnv(env.BALCAO_ALERTA_FALHAS_VALIDACAO, 5, 1, 100),
    amostraQualidade: qualitySamplingFromEnv(env),
    prazosMin: {
      falhou: intEnv(env.BALCAO_PRAZO_FALHOU_MIN, 30, 1, 43_200),
      incompleto: intEnv(env.BALCAO_PRAZO_INCOMPLETO_MIN, 120, 1, 43_200),
      aguardando: intEnv(env.BALCAO_PRAZO_AGUARDANDO_MIN, 1440, 1, 43_200),
    },
  };
}
