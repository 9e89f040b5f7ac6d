import { AppError } from '@shared/errors';

/** Parses a postgres:// URL or fails with a pt-BR message (the URL itself is never echoed). */
export function parseDatabaseUrl(url: string, name = 'DATABASE_URL'): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new AppError('configuracao', `${name} não é uma URL válida do PostgreSQL.`);
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') {
    throw new AppError('configuracao', `${name} deve começar com postgres:// ou postgresql://.`);
  }
  return u;
}

/** Same host, port and database as `url`, logging in as another role. */
export function urlForRole(url: string, role: string, password?: string): string {
  const u = parseDatabaseUrl(url);
  u.username = encodeURIComponent(role);
  u.password = password ? encodeURIComponent(password) : '';
  return u.toString();
}

/** The URL with a different database name. */
export function urlForDatabase(url: string, database: string): string {
  const u = parseDatabaseUrl(url);
  u.pathname = `/${encodeURIComponent(database)}`;
  return u.toString();
}

/** For logs and the UI: the URL without any password (the one redaction, util/redact.ts). */
export { redactUrl } from '../util/redact';

/**
 * Host, port, database and options of `hostUrl`, logging in with the user and password of
 * `credentialsUrl` (roles and passwords replicate: the app role reaches the replica, the
 * analytics role reaches the primary, through the same pooler when there is one).
 */
export function urlWithCredentialsOf(hostUrl: string, credentialsUrl: string): string {
  const u = parseDatabaseUrl(hostUrl);
  const c = parseDatabaseUrl(credentialsUrl);
  u.username = c.username;
  u.password = c.password;
  return u.toString();
}
