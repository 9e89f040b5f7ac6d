import { join } from 'node:path';
import type pg from 'pg';
import { AppError } from '@shared/errors';
import type { Settings } from '../settings/types';
import type { Logger } from '../util/logger';
import { startEmbedded, type EmbeddedKeeper, type EmbeddedServer } from './embedded';
import { mapDbError } from './errors';
import { migrate } from './migrate';
import { releaseClient } from './tx';
import { closeDatabases, createPool, type Databases, type DbTimeouts } from './pool';
import { analyticsPrepares, shouldPrepare } from './prepared';
import { ANALYTICS_ROLE, APP_ROLE } from './roles';
import { seedDemo } from './seed';
import { ensureLocalSupervisor, localLoginName } from '../people/local';
import { urlForRole, urlWithCredentialsOf } from './urls';

export interface ConnectedDatabases extends Databases {
  mode: 'embedded' | 'external';
  adminUrl: string;
  /** The app role's URL (the intake's session connections default to it). */
  appUrl: string;
  /** The analytics login's URL (credentials included: never log or show it). */
  analyticsUrl: string;
  /** Migrations applied while connecting (empty when already up to date or not asked). */
  migrations: string[];
  /**
   * Embedded with `localSupervisor`: the URL of the local user's own login, the single
   * supervisor (credentials included: never log or show it).
   */
  localPersonUrl?: string;
  close(): Promise<void>;
}

export interface ConnectOptions {
  settings: Settings;
  /** Folder for the embedded cluster when no DATABASE_URL is configured. */
  embeddedDir?: string;
  /** Embedded: keep the server for the next command after this process leaves (the CLI). */
  embeddedKeeper?: EmbeddedKeeper;
  /** Run migrations first (the app does on start). */
  migrate?: boolean;
  /** Load demo data when the database has no merchants yet (embedded first run). */
  seedIfEmpty?: boolean;
  /**
   * Refuse to start when the analytics role can CONNECT to another database (#12): the app's
   * start-up and the CLI commands that run sales questions/free SQL ask for it.
   */
  checkAnalyticsReach?: boolean;
  /** Embedded: create/refresh the local user's login as the single supervisor (the app). */
  localSupervisor?: boolean;
  logger?: Logger;
}

/** The bounded waits configured in the settings (BALCAO_DB_*_TIMEOUT_MS). */
export function dbTimeoutsOf(s: Settings): DbTimeouts {
  return {
    statementMs: s.dbStatementTimeoutMs,
    lockMs: s.dbLockTimeoutMs,
    idleInTransactionMs: s.dbIdleInTransactionTimeoutMs,
    connectMs: s.dbConnectTimeoutMs,
  };
}

/** The three endpoints' URLs when DATABASE_URL is set (the app and analytics roles' defaults). */
export function resolveExternalUrls(
  s: Settings,
  databaseUrl: string,
): { adminUrl: string; appUrl: string; analyticsUrl: string } {
  return {
    adminUrl: databaseUrl,
    appUrl: s.appDatabaseUrl ?? urlForRole(databaseUrl, APP_ROLE),
    analyticsUrl: s.analyticsDatabaseUrl ?? urlForRole(databaseUrl, ANALYTICS_ROLE),
  };
}

/**
 * The analytics side (#16). A separate ANALYTICS_DATABASE_URL (e.g. a hot standby, maybe behind
 * PgBouncer) also gets the app role on that endpoint for merchant search, and — with
 * BALCAO_ANALYTICS_FALLBACK=primary — the analytics role on the app's endpoint (the primary) to
 * fall back to. Connect timeouts are short so a down or hung replica fails in bounded time.
 */
export function analyticsPools(
  s: Settings,
  appUrl: string,
  analyticsUrl: string,
  timeouts: DbTimeouts,
  onConnectionError: (pool: string) => (err: Error) => void,
  app?: Databases['app'],
): Pick<Databases, 'analytics' | 'appRead' | 'fallback'> {
  const replicaTimeouts = { ...timeouts, connectMs: s.analyticsConnectTimeoutMs };
  const analytics = createPool(analyticsUrl, {
    max: 5,
    applicationName: 'balcao-analytics',
    timeouts: replicaTimeouts,
    onConnectionError: onConnectionError('analytics'),
    prepare: analyticsPrepares(s),
  });
  if (!s.analyticsDatabaseUrl) return { analytics };
  const appRead = createPool(urlWithCredentialsOf(analyticsUrl, appUrl), {
    max: 2,
    applicationName: 'balcao-app-leitura',
    timeouts: replicaTimeouts,
    onConnectionError: onConnectionError('app-leitura'),
    // Plain lookups only: a hung replica (or a pooler waiting for it) fails in bounded time.
    queryTimeoutMs: s.queryTimeoutMs + 2_000,
  });
  if (s.analyticsFallback !== 'primary' || !app) return { analytics, appRead };
  const primaryAnalytics = createPool(urlWithCredentialsOf(appUrl, analyticsUrl), {
    max: 3,
    applicationName: 'balcao-analytics-primario',
    timeouts,
    onConnectionError: onConnectionError('analytics-primario'),
    prepare: shouldPrepare(s),
  });
  return { analytics, appRead, fallback: { analytics: primaryAnalytics, appRead: app } };
}

/** Other databases of the server the analytics role may CONNECT to (as seen by the admin). */
export async function analyticsReach(admin: pg.Pool): Promise<string[]> {
  const r = await admin.query<{ datname: string }>(
    `SELECT d.datname FROM pg_database d
      WHERE d.datallowconn AND d.datname <> current_database()
        AND has_database_privilege($1, d.oid, 'CONNECT')
      ORDER BY 1`,
    [ANALYTICS_ROLE],
  );
  return r.rows.map((x) => x.datname);
}

/**
 * #12 point 6: roles are cluster-wide, so the analytics role must not be able to connect to any
 * other database of the same server. Refuses to start with a pt-BR how-to.
 */
export async function checkAnalyticsReach(
  admin: pg.Pool,
  outrosBancos: Settings['analyticsOutrosBancos'] = 'recusar',
): Promise<void> {
  // BALCAO_ANALYTICS_OUTROS_BANCOS=permitir: a shared dev/test server, checked by nobody.
  if (outrosBancos === 'permitir') return;
  const others = await analyticsReach(admin);
  if (others.length === 0) return;
  const shown = others.slice(0, 5);
  const quoted = shown.map((d) => `"${d.replace(/"/g, '""')}"`);
  throw new AppError(
    'configuracao',
    `O usuário de análise (${ANALYTICS_ROLE}) consegue conectar em outros bancos deste servidor: ` +
      `${shown.join(', ')}${others.length > shown.length ? ` e mais ${others.length - shown.length}` : ''}. ` +
      `Ele deve alcançar só o banco do Balcão. Para fechar: como superusuário, ` +
      `npx balcao db migrate --restringir-analise (lista os comandos e pergunta; --sim para scripts), ` +
      `que para cada banco concede CONNECT por nome a quem o usa e roda ` +
      `REVOKE CONNECT, TEMPORARY ON DATABASE ${quoted[0]} FROM PUBLIC, ${ANALYTICS_ROLE}; ` +
      `ou, no pg_hba.conf, antes das outras linhas: "host <banco do Balcão> ${ANALYTICS_ROLE} <rede> scram-sha-256" ` +
      `e "host all ${ANALYTICS_ROLE} all reject" (depois, SELECT pg_reload_conf()); esta verificação lê privilégios, não o pg_hba.conf: nesse caminho, ` +
      `BALCAO_ANALYTICS_OUTROS_BANCOS=permitir. ` +
      `Em servidor só de desenvolvimento, a mesma variável desliga esta verificação.`,
  );
}

/**
 * Opens the admin, app and analytics pools. With DATABASE_URL: that server; the app and
 * analytics roles log in with APP_DATABASE_URL / ANALYTICS_DATABASE_URL, or the same URL with
 * the role as user. Without it: an embedded PostgreSQL in `embeddedDir`.
 */
export async function connectDatabases(opts: ConnectOptions): Promise<ConnectedDatabases> {
  const s = opts.settings;
  let embedded: EmbeddedServer | undefined;
  let adminUrl: string;
  let appUrl: string;
  let analyticsUrl: string;
  if (s.databaseUrl) {
    ({ adminUrl, appUrl, analyticsUrl } = resolveExternalUrls(s, s.databaseUrl));
  } else {
    if (!opts.embeddedDir) {
      throw new AppError(
        'configuracao',
        'Nenhum banco configurado: defina DATABASE_URL (ex.: postgres://usuario@127.0.0.1:5432/balcao).',
      );
    }
    opts.logger?.info({ dir: opts.embeddedDir }, 'iniciando PostgreSQL embutido');
    embedded = await startEmbedded(
      join(opts.embeddedDir),
      opts.embeddedKeeper ? { keeper: opts.embeddedKeeper } : {},
    );
    adminUrl = embedded.adminUrl;
    appUrl = urlForRole(adminUrl, APP_ROLE, embedded.appPassword);
    analyticsUrl = urlForRole(adminUrl, ANALYTICS_ROLE, embedded.analyticsPassword);
  }
  const timeouts = dbTimeoutsOf(s);
  const onConnectionError = (pool: string) => (err: Error) =>
    opts.logger?.warn(
      { err, pool },
      'conexão com o banco perdida (a operação em curso falha sozinha)',
    );
  const admin = createPool(adminUrl, {
    max: 3,
    applicationName: 'balcao-admin',
    timeouts,
    onConnectionError: onConnectionError('admin'),
  });
  const app = createPool(appUrl, {
    max: 5,
    applicationName: 'balcao-app',
    timeouts,
    onConnectionError: onConnectionError('app'),
  });
  const dbs: Databases = {
    admin,
    app,
    ...analyticsPools(s, appUrl, analyticsUrl, timeouts, onConnectionError, app),
  };
  const close = async () => {
    await closeDatabases(dbs);
    if (embedded) await embedded.stop();
  };
  let migrations: string[] = [];
  let localPersonUrl: string | undefined;
  try {
    if (opts.migrate) {
      migrations = (await migrate(adminUrl)).applied;
      if (migrations.length) opts.logger?.info({ migrations }, 'migrações aplicadas');
    }
    const roles = await admin.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_roles WHERE rolname = ANY($1)',
      [[APP_ROLE, ANALYTICS_ROLE]],
    );
    if (embedded && roles.rows[0]?.n === 2) {
      // Role passwords live beside the embedded cluster; set them on every start (idempotent).
      const c = await admin.connect();
      let failed: unknown;
      try {
        await c.query(`ALTER ROLE ${APP_ROLE} PASSWORD ${c.escapeLiteral(embedded.appPassword)}`);
        await c.query(
          `ALTER ROLE ${ANALYTICS_ROLE} PASSWORD ${c.escapeLiteral(embedded.analyticsPassword)}`,
        );
      } catch (e) {
        failed = e;
        throw e;
      } finally {
        releaseClient(c, failed);
      }
      if (opts.localSupervisor && embedded.personPassword) {
        const groups = await admin.query(
          "SELECT 1 FROM pg_roles WHERE rolname = 'balcao_supervisor'",
        );
        const login = localLoginName();
        if (
          groups.rowCount &&
          (await ensureLocalSupervisor(admin, login, embedded.personPassword))
        ) {
          localPersonUrl = urlForRole(adminUrl, login, embedded.personPassword);
        }
      }
    }
    if (embedded) {
      // Our own server: the analytics role reaches only Balcão's database (#12).
      await admin.query(`DO $$
        DECLARE d text;
        BEGIN
          FOR d IN SELECT datname FROM pg_database
                    WHERE datallowconn AND datname <> current_database() LOOP
            EXECUTE format('REVOKE CONNECT, TEMPORARY ON DATABASE %I FROM PUBLIC', d);
          END LOOP;
        END $$`);
    }
    if (opts.checkAnalyticsReach) await checkAnalyticsReach(admin, s.analyticsOutrosBancos);
    if (opts.seedIfEmpty) {
      const r = await admin.query('SELECT EXISTS (SELECT 1 FROM merchants) AS tem');
      if (!(r.rows[0] as { tem: boolean }).tem) {
        opts.logger?.info('carregando dados de demonstração');
        await seedDemo(admin, { now: new Date(), timeZone: s.timeZone });
      }
    }
  } catch (e) {
    opts.logger?.error({ err: e }, 'falha ao preparar o banco');
    await close();
    throw mapDbError(e);
  }
  return {
    ...dbs,
    mode: embedded ? 'embedded' : 'external',
    adminUrl,
    appUrl,
    analyticsUrl,
    migrations,
    ...(localPersonUrl ? { localPersonUrl } : {}),
    close,
  };
}
