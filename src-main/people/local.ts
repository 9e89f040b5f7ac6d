import { userInfo } from 'node:os';
import type pg from 'pg';
import { releaseClient } from '../db/tx';
import { GROUP_ROLES } from '../db/roles';
import { scramVerifier } from './scram';

/**
 * The login of the local OS user on the embedded database: their user name made a valid,
 * non-reserved login name ("Maria Souza" → "maria_souza", "postgres" → "local_postgres").
 */
export function localLoginName(osUser: string = safeUserName()): string {
  let n = osUser
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '_')
    .slice(0, 50);
  if (!/^[a-z_]/.test(n)) n = `u_${n}`;
  if (n.length < 2 || /^(pg_|balcao_)/.test(n) || n === 'postgres' || n === 'public') {
    n = `local_${n}`;
  }
  return n;
}

function safeUserName(): string {
  try {
    return userInfo().username || 'operador';
  } catch {
    return process.env.USER || process.env.USERNAME || 'operador';
  }
}

/**
 * Embedded default (#18): the local user is the single supervisor. Creates (or refreshes) their
 * login as a member of balcao_supervisor with the password kept beside the embedded cluster.
 * Returns false when the login name belongs to something that is not a plain person login
 * (a superuser): then the app keeps the service role.
 */
export async function ensureLocalSupervisor(
  admin: pg.Pool,
  login: string,
  password: string,
): Promise<boolean> {
  const c = await admin.connect();
  let failed: unknown;
  try {
    const id = c.escapeIdentifier(login);
    const pw = c.escapeLiteral(scramVerifier(password));
    const r = await c.query<{ rolsuper: boolean }>(
      'SELECT rolsuper FROM pg_roles WHERE rolname = $1',
      [login],
    );
    if (r.rows[0]?.rolsuper) return false;
    if (!r.rows[0]) {
      try {
        await c.query(`CREATE ROLE ${id} LOGIN INHERIT PASSWORD ${pw}`);
      } catch (e) {
        if ((e as { code?: string }).code !== '42710') throw e; // created meanwhile
      }
    }
    await c.query(`ALTER ROLE ${id} LOGIN PASSWORD ${pw}`);
    await c.query(`GRANT ${GROUP_ROLES.supervisor} TO ${id}`);
    return true;
  } catch (e) {
    failed = e;
    throw e;
  } finally {
    releaseClient(c, failed);
  }
}
