import type { SettingsPatch, SettingsView } from '@shared/contract/settings';
import type { QualitySampling } from './quality-sampling';

/** USD per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export interface Settings {
  model: string;
  timeZone: string;
  /**
   * Label of the service login's actions (BALCAO_OPERATOR, else $USER): the CLI and an
   * installation without people. Never a person's identity (#18): for a person it is their
   * database login, and the database forces it (migration 0720). Not editable in the app.
   */
  operator: string;
  /** Validation attempts per extraction / question (model calls, not HTTP retries). */
  maxAttempts: number;
  freeSqlEnabled: boolean;
  /** Strict tool use (constrained decoding); off for models that reject it. */
  strictTools: boolean;
  anthropicBaseUrl: string | undefined;
  /** Per HTTP request to the model, ms. */
  requestTimeoutMs: number;
  /** SDK transport retries (connection errors, 408/409/429/5xx). */
  maxRetries: number;
  maxTokens: number;
  /** statement_timeout for analytics queries, ms. */
  queryTimeoutMs: number;
  /** Bounded waits of the app and admin pools (SET LOCAL per transaction), ms. */
  dbStatementTimeoutMs: number;
  dbLockTimeoutMs: number;
  dbIdleInTransactionTimeoutMs: number;
  /** How long to wait for a pooled connection, ms. */
  dbConnectTimeoutMs: number;
  databaseUrl: string | undefined;
  appDatabaseUrl: string | undefined;
  analyticsDatabaseUrl: string | undefined;
  /** Where "criar caso de avaliação" appends (BALCAO_EVALS_DIR); default: the project's evals/. */
  evalsDir: string | undefined;
  /** Replica lag (s) above which an answer is marked possibly stale (BALCAO_MAX_LAG_S). */
  maxLagS: number;
  /** BALCAO_ANALYTICS_FALLBACK=primary: read from the primary when the replica lags or is down. */
  analyticsFallback: 'primary' | 'none';
  /**
   * #12: start-up refuses when the analytics role can CONNECT to another database of the server
   * ('recusar', the default). 'permitir' (BALCAO_ANALYTICS_OUTROS_BANCOS=permitir) only for
   * development/test servers whose databases share the roles on purpose.
   */
  analyticsOutrosBancos: 'recusar' | 'permitir';
  /** Connect timeout of the analytics endpoint, ms (a down or hung replica fails in bounded time). */
  analyticsConnectTimeoutMs: number;
  prices: Record<string, ModelPrice>;
  /** Session (non-pooled) URL for LISTEN/NOTIFY and the workers' advisory locks (DIRECT_DATABASE_URL). */
  directDatabaseUrl: string | undefined;
  /**
   * Workers' hot statements and the analytics pool's compiled sales queries as prepared
   * statements (BALCAO_DB_PREPARAR=1/0). Unset: workers when their connection is a session one
   * (no DIRECT_DATABASE_URL besides it), analytics when it is derived from a service login's
   * DATABASE_URL (no ANALYTICS_DATABASE_URL; not on a team server); through PgBouncer it needs
   * 1.21+ with max_prepared_statements.
   */
  dbPrepare: boolean | undefined;
  /** Intake: a clean `completo` creates the charge as "sistema" (BALCAO_AUTO_CRIAR=0: all to the queue). */
  autoCriar: boolean;
  /** Intake: model requests in flight across every worker (BALCAO_MAX_EM_VOO). */
  maxEmVoo: number;
  /** Validation-failure rate (%) above which the queue report and `fila status` alert. */
  alertaFalhasValidacaoPct: number;
  /** Quality sampling (#39.4): BALCAO_AMOSTRA_QUALIDADE(_INICIAL); absent → the defaults. */
  amostraQualidade?: QualitySampling;
  /**
   * Deadlines of the review queue, minutes from the moment an item entered its situation
   * (BALCAO_PRAZO_FALHOU_MIN, BALCAO_PRAZO_INCOMPLETO_MIN — also `com_alerta` and `completo` —,
   * BALCAO_PRAZO_AGUARDANDO_MIN).
   */
  prazosMin: { falhou: number; incompleto: number; aguardando: number };
}

/**
 * What services see of settings. The shell backs it with electron-store + safeStorage;
 * the CLI and tests with environment variables and memory.
 */
export interface SettingsSource {
  get(): Settings;
  update(patch: SettingsPatch): Settings;
  getApiKey(): string | undefined;
  setApiKey(key: string): void;
  clearApiKey(): void;
  view(): SettingsView;
}
