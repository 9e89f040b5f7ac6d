/**
 * A PgBouncer of `balcao bench-fila`'s own (transaction pooling), in front of the bench database
 * on the server of DATABASE_URL: the desktops of a team reach the primary through one. People log
 * in with their own SCRAM passwords, looked up on the server (auth_query over pg_shadow, as the
 * README's team setup); `max_db_connections` bounds the server connections of every login
 * together. Runs as the `postgres` system user when we are root (PgBouncer refuses root). The
 * Debian package's binary: /usr/sbin/pgbouncer (BALCAO_PGBOUNCER_BIN to override).
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '../db/embedded';
import { parseDatabaseUrl } from '../db/urls';

export const PGBOUNCER_BIN = process.env.BALCAO_PGBOUNCER_BIN ?? '/usr/sbin/pgbouncer';

export function pgbouncerAvailable(): boolean {
  return existsSync(PGBOUNCER_BIN);
}

export interface BenchBouncer {
  port: number;
  /** A URL through PgBouncer to the bench database, logging in as `user`. */
  urlFor(user: string, password: string): string;
  /** `max_db_connections`: server connections of every login together. */
  maxConexoes: number;
  stop(): Promise<void>;
}

function owner(): { uid: number; gid: number } | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  return { uid, gid };
}

/**
 * Starts PgBouncer for `database` on the server of `serverUrl` (a superuser URL; PgBouncer logs
 * in to look people up as that user, with the URL's password if any).
 */
export async function startBenchBouncer(o: {
  serverUrl: string;
  database: string;
  maxConexoes: number;
  poolPorLogin: number;
}): Promise<BenchBouncer> {
  const server = parseDatabaseUrl(o.serverUrl);
  const host = server.hostname || '127.0.0.1';
  const serverPort = server.port || '5432';
  const authUser = decodeURIComponent(server.username || 'postgres');
  const authPass = decodeURIComponent(server.password) || 'bench-sem-senha';
  const port = await freePort();
  const own = owner();
  const dir = mkdtempSync(join(tmpdir(), 'balcao-bench-bouncer-'));
  chmodSync(dir, 0o755);
  const files = {
    ini: join(dir, 'pgbouncer.ini'),
    users: join(dir, 'userlist.txt'),
    log: join(dir, 'pgbouncer.log'),
  };
  writeFileSync(files.users, `"${authUser}" "${authPass}"\n`);
  writeFileSync(
    files.ini,
    [
      '[databases]',
      `${o.database} = host=${host} port=${serverPort} dbname=${o.database}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      `logfile = ${files.log}`,
      'auth_type = scram-sha-256',
      `auth_file = ${files.users}`,
      `auth_user = ${authUser}`,
      'auth_query = SELECT usename, passwd FROM pg_shadow WHERE usename=$1',
      'pool_mode = transaction',
      'max_client_conn = 2000',
      `default_pool_size = ${o.poolPorLogin}`,
      `max_db_connections = ${o.maxConexoes}`,
      'server_login_retry = 1',
      'query_wait_timeout = 10',
      '',
    ].join('\n'),
  );
  if (own) for (const f of [dir, files.ini, files.users]) chownSync(f, own.uid, own.gid);
  const child: ChildProcess = spawn(PGBOUNCER_BIN, [files.ini], {
    stdio: ['ignore', 'ignore', 'pipe'],
    ...(own ? { uid: own.uid, gid: own.gid } : {}),
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-2000);
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(t);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const urlFor = (user: string, password: string) =>
    `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/${encodeURIComponent(o.database)}`;
  // Up when it answers a login (the auth user's, whose server login is trust or its password).
  const deadline = Date.now() + 10_000;
  for (;;) {
    const c = new pg.Client({ connectionString: urlFor(authUser, authPass) });
    c.on('error', () => undefined);
    try {
      await c.connect();
      await c.query('SELECT 1');
      await c.end();
      break;
    } catch (e) {
      await c.end().catch(() => undefined);
      if (child.exitCode !== null || Date.now() > deadline) {
        let log = '';
        try {
          log = readFileSync(files.log, 'utf8').slice(-1500);
        } catch {
          /* none */
        }
        await stop();
        throw new Error(
          `PgBouncer não subiu: ${e instanceof Error ? e.message : String(e)} ${stderr} ${log}`,
          { cause: e },
        );
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return { port, urlFor, maxConexoes: o.maxConexoes, stop };
}
