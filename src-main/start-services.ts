import { CHANNELS, type EventName, type Events } from '@shared/contract';
import pg from 'pg';
import type { Clock } from './clock';
import { liveSourceOf, startLiveQueue, type LiveSource } from './intake/live-source';
import { systemClock } from './clock';
import { connectDatabases, dbTimeoutsOf, type ConnectedDatabases } from './db/connect';
import { createPool, closeDatabases, type Databases } from './db/pool';
import { analyticsPrepares } from './db/prepared';
import { ANALYTICS_ROLE } from './db/roles';
import { urlForRole, urlWithCredentialsOf } from './db/urls';
import type { ServiceDeps } from './deps';
import { createHandlers } from './ipc/handlers';
import type { Handlers } from './ipc/types';
import {
  createAccess,
  identify,
  loginRefusal,
  type AccessGate,
  type Access,
} from './people/session';
import type { CredentialVault } from './people/vault';
import { pixClientFromEnv } from './psp';
import { linkClientFromEnv } from './psp/links';
import type { SettingsSource } from './settings/types';
import { embeddedDbDir } from './util/dataDir';
import type { Logger } from './util/logger';
import { startVendasConsolidador } from './sales/consolidate';

export interface Services {
  deps: ServiceDeps;
  /** Every channel, routed to the signed-in person's services. */
  handlers: Handlers;
  /** Who may call what (the one IPC wrapper asks it). */
  gate: AccessGate;
  access: Access<Handlers>;
  dbs: Databases;
  close(): Promise<void>;
}

export interface StartOptions {
  settings: SettingsSource;
  dataDir: string;
  logger: Logger;
  appVersion: string;
  clock?: Clock;
  env?: NodeJS.ProcessEnv;
  /** "Lembrar" (safeStorage in the shell); without it remembering is refused with the reason. */
  vault?: CredentialVault;
  /** Pushes an event to every window (live queue); without it nothing listens. */
  broadcast?: <E extends EventName>(event: E, payload: Events[E]) => void;
}

/** Handlers that always call the current person's services. */
export function routed(access: Access<Handlers>): Handlers {
  return Object.fromEntries(
    CHANNELS.map((ch) => [
      ch,
      (input: never, ctx: never) =>
        (access.handlers()[ch] as (i: never, c: never) => unknown)(input, ctx),
    ]),
  ) as unknown as Handlers;
}

/** How DATABASE_URL's own login (libpq sources: PGUSER, PGPASSWORD, .pgpass) is received. */
export async function probeLogin(
  url: string,
  connectMs: number,
): Promise<'pessoa' | 'servico' | 'recusado'> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: connectMs });
  c.on('error', () => undefined);
  try {
    await c.connect();
  } catch (e) {
    // A client-side failure (no password to send) leaves the socket open: close it.
    await c.end().catch(() => undefined);
    const msg = e instanceof Error ? e.message : '';
    // Wrong or missing password, or a login that may not enter (PostgreSQL, or PgBouncer in
    // front of it: "no such user", "SASL authentication failed"): a person must sign in.
    if (loginRefusal(e) || /password/i.test(msg)) return 'recusado';
    return 'servico'; // unreachable etc.: the usual path reports it
  }
  try {
    const has = await c.query<{ tem: boolean }>(
      "SELECT to_regprocedure('public.balcao_meus_papeis()') IS NOT NULL AS tem",
    );
    if (!has.rows[0]?.tem) return 'servico';
    return (await identify(c)).papeis.length ? 'pessoa' : 'servico';
  } catch {
    return 'servico';
  } finally {
    await c.end().catch(() => undefined);
  }
}

/**
 * Plain bootstrap (no Electron). Three ways in (#18):
 * - embedded (no DATABASE_URL): the local user's own login is the single supervisor, no sign-in;
 * - DATABASE_URL whose login is refused, or is a person: each person signs in with their own
 *   login (or is already in through PGUSER/PGPASSWORD/.pgpass); nothing is migrated from here;
 * - DATABASE_URL with an administrative login: migrate and run as one service login, as before.
 */
export async function startServices(opts: StartOptions): Promise<Services> {
  const settings = opts.settings.get();
  if (settings.databaseUrl) {
    const kind = await probeLogin(settings.databaseUrl, settings.dbConnectTimeoutMs);
    if (kind !== 'servico') return startPersonal(opts, settings.databaseUrl, kind === 'pessoa');
  }
  const dbs: ConnectedDatabases = await connectDatabases({
    settings,
    embeddedDir: embeddedDbDir(opts.dataDir, opts.env),
    migrate: true,
    // Demo data only for the embedded default: an external database is the user's own.
    seedIfEmpty: !settings.databaseUrl,
    checkAnalyticsReach: true,
    localSupervisor: true,
    logger: opts.logger,
  });
  const deps = serviceDeps(opts, dbs, dbs.mode);
  const access = createAccess({
    modo: dbs.localPersonUrl ? 'unico' : 'servico',
    base: deps,
    makeHandlers: createHandlers,
    ...(opts.vault ? { vault: opts.vault } : {}),
    logger: opts.logger,
  });
  if (dbs.localPersonUrl) {
    try {
      await access.adopt(dbs.localPersonUrl);
    } catch (e) {
      await dbs.close();
      throw e;
    }
  }
  // The sales rollups' background fold (migration 0580) runs in the main process on a timer, on
  // the app role; the worker runs one too (safe concurrently).
  const fold = startVendasConsolidador(dbs.app, { logger: opts.logger });
  const live = liveQueue(opts, liveSourceOf(settings, 'servico', dbs.appUrl), dbs.app);
  return servicesOf(deps, access, async () => {
    await live?.close();
    await fold.stop();
    await access.close();
    await dbs.close();
  });
}

function serviceDeps(
  opts: StartOptions,
  dbs: Databases,
  databaseMode: ServiceDeps['databaseMode'],
): ServiceDeps {
  return {
    settings: opts.settings,
    clock: opts.clock ?? systemClock,
    dbs,
    logger: opts.logger,
    databaseMode,
    appVersion: opts.appVersion,
    psp: pspClients(opts),
  };
}

/**
 * The PSP's client from BALCAO_PSP_* and the payment-link service's from BALCAO_LINK_* (#36); a
 * configuration error is logged and the app runs as without it (charges stay `pendente`, the
 * screens say so) instead of not opening at all.
 */
function pspClients(opts: StartOptions): NonNullable<ServiceDeps['psp']> {
  const env = opts.env ?? process.env;
  const clock = opts.clock ?? systemClock;
  const safely = <T>(what: string, make: () => T | null): T | null => {
    try {
      return make();
    } catch (err) {
      opts.logger.warn({ err }, `${what}: configuração inválida; nada será enviado`);
      return null;
    }
  };
  return {
    client: safely('psp', () => pixClientFromEnv(env, clock)),
    links: safely('links', () => linkClientFromEnv(env, clock)),
  };
}

function servicesOf(
  deps: ServiceDeps,
  access: Access<Handlers>,
  close: () => Promise<void>,
): Services {
  return { deps, handlers: routed(access), gate: access.gate, access, dbs: deps.dbs, close };
}

/**
 * The live queue (intake/live-source.ts): LISTEN on a session connection, or the change log read
 * through `pool` (a team's desktops, behind PgBouncer or not); null without windows.
 */
function liveQueue(opts: StartOptions, source: LiveSource, pool: pg.Pool) {
  const broadcast = opts.broadcast;
  if (!broadcast) return null;
  return startLiveQueue({
    source,
    pool,
    onChange: (c) => broadcast('review/changed', c),
    logger: opts.logger,
  });
}

/** A team server: people sign in with their own logins; no admin or app-role credentials here. */
async function startPersonal(
  opts: StartOptions,
  databaseUrl: string,
  alreadyIn: boolean,
): Promise<Services> {
  const s = opts.settings.get();
  const timeouts = dbTimeoutsOf(s);
  const analyticsUrl = s.analyticsDatabaseUrl ?? urlForRole(databaseUrl, ANALYTICS_ROLE);
  // Before sign-in nothing but the session channels passes the gate: this pool stays unused.
  const idle = createPool(databaseUrl, { max: 1, applicationName: 'balcao', timeouts });
  const dbs: Databases = {
    admin: idle,
    app: idle,
    analytics: createPool(analyticsUrl, {
      max: 5,
      applicationName: 'balcao-analytics',
      timeouts: { ...timeouts, connectMs: s.analyticsConnectTimeoutMs },
      onConnectionError: (err) => opts.logger.warn({ err }, 'conexão de análise perdida'),
      // DATABASE_URL may be a transaction pooler here (a team's PgBouncer).
      prepare: analyticsPrepares(s, 'pessoal'),
    }),
  };
  const deps = serviceDeps(opts, dbs, 'external');
  let live: ReturnType<typeof liveQueue> = null;
  const access = createAccess({
    modo: 'pessoal',
    base: deps,
    makeHandlers: createHandlers,
    personUrl: (u, p) => urlForRole(databaseUrl, u, p),
    readUrlOf: (url) =>
      s.analyticsDatabaseUrl ? urlWithCredentialsOf(s.analyticsDatabaseUrl, url) : undefined,
    ...(opts.vault ? { vault: opts.vault } : {}),
    logger: opts.logger,
    onSignIn(url, pool) {
      if (!opts.broadcast) return;
      void live?.close();
      // Through the person's own pool: no direct connection per desktop (#39.1).
      live = liveQueue(opts, liveSourceOf(s, 'pessoal', url), pool);
    },
    onSignOut() {
      void live?.close();
      live = null;
    },
  });
  if (alreadyIn) await access.adopt(databaseUrl);
  else await access.resume();
  return servicesOf(deps, access, async () => {
    await access.close();
    await closeDatabases(dbs);
  });
}
