import { homedir } from 'node:os';
import { join } from 'node:path';

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/**
 * The folder Electron uses as userData for "balcao", computed without Electron so the CLI
 * shares the app's embedded database. BALCAO_DATA_DIR overrides it.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.BALCAO_DATA_DIR) return env.BALCAO_DATA_DIR;
  const home = homedir();
  if (process.platform === 'darwin') return join(home, 'Library', 'Application Support', 'balcao');
  if (process.platform === 'win32') {
    return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'balcao');
  }
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'balcao');
}

/**
 * Where the embedded PostgreSQL lives. PostgreSQL refuses to run as root; as root it runs as
 * the `postgres` system user, which cannot enter /root, so root's cluster lives in
 * /var/lib/balcao (unless BALCAO_DATA_DIR says otherwise).
 */
export function embeddedDbDir(dataDir: string, env: NodeJS.ProcessEnv = process.env): string {
  if (isRoot() && !env.BALCAO_DATA_DIR && process.platform === 'linux') {
    return '/var/lib/balcao/postgres';
  }
  return join(dataDir, 'postgres');
}
