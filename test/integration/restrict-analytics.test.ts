/**
 * #40.4 — `balcao db migrate` on a standard PostgreSQL (a server of this test's own: PUBLIC has
 * CONNECT on `postgres` and on every new database). The plain migrate says first what it applied,
 * then what is open and the way out; `--restringir-analise` lists the statements, asks (or takes
 * `--sim`), applies them in one transaction, and nobody else loses access.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliAnswering } from '../support/cli';
import { analyticsReach } from '../../src-main/db/connect';
import { ANALYTICS_ROLE } from '../../src-main/db/roles';
import { startLoneServer, type LoneServer } from '../support/replica-cluster';

let server: LoneServer;
let env: NodeJS.ProcessEnv;
const DB = 'balcao_restrito';

async function sql(url: string, text: string): Promise<pg.QueryResultRow[]> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await c.connect();
  try {
    return (await c.query(text)).rows;
  } finally {
    await c.end();
  }
}

/** Whether `user` can log in to `db` (trust auth: only privileges decide). */
async function canConnect(user: string, db: string): Promise<boolean> {
  return sql(server.urlFor(user, db), 'SELECT 1').then(
    () => true,
    (e: { code?: string }) => {
      expect(e.code).toBe('42501'); // insufficient_privilege, not some other failure
      return false;
    },
  );
}

async function reach(): Promise<string[]> {
  const pool = new pg.Pool({ connectionString: server.urlFor('postgres', DB), max: 1 });
  try {
    return await analyticsReach(pool);
  } finally {
    await pool.end();
  }
}

async function cli(
  args: string[],
  answer: boolean | null | undefined,
  extra: NodeJS.ProcessEnv = {},
): Promise<{ code: number; out: string; err: string }> {
  const r = await runCliAnswering(['db', ...args], { ...env, ...extra }, answer);
  if (answer !== undefined && !args.includes('--sim') && r.code !== 2) {
    expect(r.asked.length, 'asked before applying').toBeLessThanOrEqual(1);
  }
  return r;
}

beforeAll(async () => {
  server = await startLoneServer();
  await sql(server.adminUrl, `CREATE DATABASE ${DB}`);
  await sql(server.adminUrl, 'CREATE DATABASE outro');
  // A person who uses the other databases through PUBLIC's CONNECT, and keeps using them.
  await sql(server.adminUrl, 'CREATE ROLE financeiro LOGIN');
  env = {
    DATABASE_URL: server.urlFor('postgres', DB),
    BALCAO_LOG_LEVEL: 'silent',
    BALCAO_ANALYTICS_OUTROS_BANCOS: 'recusar',
  };
}, 60_000);
afterAll(() => server?.stop());

describe('balcao db migrate on a standard PostgreSQL (#40.4)', () => {
  it('says first that the migrations were applied, then what is open and how to close it', async () => {
    const r = await cli(['migrate'], undefined);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^Migrações aplicadas: 0001_foundation, /);
    expect(r.err).toMatch(/^balcao: O banco ainda não está pronto: O usuário de análise/);
    for (const db of ['outro', 'postgres', 'template1']) expect(r.err).toContain(db);
    expect(r.err).toContain('npx balcao db migrate --restringir-analise');
    expect(r.err).toContain('pg_hba.conf');
    expect(await reach()).toEqual(['outro', 'postgres', 'template1']);
  });

  it('--sim without --restringir-analise, or no terminal and no --sim: usage errors, nothing changed', async () => {
    const a = await cli(['migrate', '--sim'], undefined);
    expect(a.code).toBe(2);
    expect(a.err).toContain('--sim vale só com --restringir-analise');
    const b = await cli(['migrate', '--restringir-analise'], null);
    expect(b.code).toBe(2);
    expect(b.err).toContain('repita com --sim');
    expect(await reach()).toEqual(['outro', 'postgres', 'template1']);
  });

  it('a login that is not a superuser is refused before anything is done', async () => {
    const r = await cli(['migrate', '--restringir-analise', '--sim'], undefined, {
      DATABASE_URL: server.urlFor('financeiro', DB),
      APP_DATABASE_URL: server.urlFor('balcao_app', DB),
      ANALYTICS_DATABASE_URL: server.urlFor(ANALYTICS_ROLE, DB),
    });
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toContain('precisa de um superusuário');
    expect(r.err).toContain('"financeiro" não é');
    expect(await reach()).toEqual(['outro', 'postgres', 'template1']);
  });

  it('lists the statements and asks; "no" changes nothing', async () => {
    const r = await cli(['migrate', '--restringir-analise'], false);
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      `REVOKE CONNECT, TEMPORARY ON DATABASE "postgres" FROM PUBLIC, ${ANALYTICS_ROLE};`,
    );
    expect(r.err).toContain('GRANT CONNECT ON DATABASE "outro" TO "financeiro";');
    expect(r.err).toContain('Nada foi alterado.');
    expect(await reach()).toEqual(['outro', 'postgres', 'template1']);
  });

  it('"yes" applies them: the analytics role reaches only Balcão\'s database, nobody else loses a thing', async () => {
    const r = await cli(['migrate', '--restringir-analise'], true);
    expect(r.code).toBe(0);
    expect(r.out).toContain(`Pronto: o usuário de análise alcança só o banco ${DB}.`);
    expect(await reach()).toEqual([]);
    for (const db of ['outro', 'postgres']) {
      expect(await canConnect(ANALYTICS_ROLE, db), `${ANALYTICS_ROLE} → ${db}`).toBe(false);
      expect(await canConnect('financeiro', db), `financeiro → ${db}`).toBe(true);
    }
    expect(await canConnect(ANALYTICS_ROLE, DB)).toBe(true);
    expect(await canConnect('balcao_app', DB)).toBe(true);
    // A person's TEMPORARY on the other databases stays too.
    const temp = await sql(
      server.adminUrl,
      `SELECT has_database_privilege('financeiro', 'outro', 'TEMPORARY') AS t`,
    );
    expect(temp[0]!.t).toBe(true);
    // And the plain migrate now calls the database ready.
    const after = await cli(['migrate', '--json'], undefined);
    expect(after.code).toBe(0);
    expect(JSON.parse(after.out)).toEqual({ aplicadas: [], banco: 'external' });
  });

  it('run again (a script with --sim --json): nothing to restrict, exit 0', async () => {
    const r = await cli(['migrate', '--restringir-analise', '--sim', '--json'], undefined);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({
      aplicadas: [],
      restricao: { alcancaveis: [], comandos: [], aplicada: false },
    });
  });
});
