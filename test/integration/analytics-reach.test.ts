/**
 * #12 point 6: the analytics role reaches only Balcão's database. Roles are cluster-wide, so
 * start-up refuses (pt-BR how-to) when it can CONNECT to any other database of the server.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@shared/errors';
import { analyticsReach, checkAnalyticsReach, connectDatabases } from '../../src-main/db/connect';
import { settingsFromEnv } from '../../src-main/settings/defaults';
import { main } from '../../src-main/cli/main';
import { createTestDatabase, type TestDatabase } from '../support/db';

let db: TestDatabase;
let other: string;
beforeAll(async () => {
  db = await createTestDatabase();
  other = `balcao_alcance_${process.pid}`;
  await db.admin.query(`DROP DATABASE IF EXISTS ${other}`);
  await db.admin.query(`CREATE DATABASE ${other}`);
});
afterAll(async () => {
  await db.admin.query(`DROP DATABASE IF EXISTS ${other}`);
  await db.drop();
});

describe('analytics role reach', () => {
  it('sees a database it can CONNECT to (PUBLIC has CONNECT on a new database)', async () => {
    expect(await analyticsReach(db.admin)).toContain(other);
    // …and it really can: a login as the analytics role on that database works.
    const u = new URL(db.analyticsUrl);
    u.pathname = `/${other}`;
    const c = new pg.Client({ connectionString: u.toString() });
    await c.connect();
    await c.end();
  });

  it('start-up refuses with a pt-BR how-to naming the database', async () => {
    const e = await checkAnalyticsReach(db.admin).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(AppError);
    const m = (e as AppError).message;
    expect(m).toMatch(
      /^O usuário de análise \(balcao_analytics\) consegue conectar em outros bancos/,
    );
    expect(m).toContain('REVOKE CONNECT, TEMPORARY ON DATABASE');
    expect(m).toContain('BALCAO_ANALYTICS_OUTROS_BANCOS=permitir');
  });

  it('after REVOKE CONNECT from PUBLIC that database is no longer reachable', async () => {
    await db.admin.query(`REVOKE CONNECT, TEMPORARY ON DATABASE ${other} FROM PUBLIC`);
    expect(await analyticsReach(db.admin)).not.toContain(other);
    await db.admin.query(`GRANT CONNECT ON DATABASE ${other} TO PUBLIC`);
  });

  it('connectDatabases refuses to start unless told the server is a shared test server', async () => {
    const base = {
      DATABASE_URL: db.adminUrl,
      APP_DATABASE_URL: db.appUrl,
      ANALYTICS_DATABASE_URL: db.analyticsUrl,
    };
    const refuse = settingsFromEnv({ ...base, BALCAO_ANALYTICS_OUTROS_BANCOS: 'recusar' });
    expect(refuse.analyticsOutrosBancos).toBe('recusar');
    await expect(
      connectDatabases({ settings: refuse, migrate: false, checkAnalyticsReach: true }),
    ).rejects.toThrow(/consegue conectar em outros bancos/);
    const allow = settingsFromEnv({ ...base, BALCAO_ANALYTICS_OUTROS_BANCOS: 'permitir' });
    const dbs = await connectDatabases({
      settings: allow,
      migrate: false,
      checkAnalyticsReach: true,
    });
    await dbs.close();
  });

  it("on a team server the deployment's `balcao db migrate` (the admin login) refuses to call it done", async () => {
    const out: string[] = [];
    const io = { out: (t: string) => out.push(t), err: (t: string) => out.push(t), isTTY: false };
    const env = { DATABASE_URL: db.adminUrl, BALCAO_LOG_LEVEL: 'silent' };
    const code = await main(['db', 'migrate', '--json'], io, {
      ...env,
      BALCAO_ANALYTICS_OUTROS_BANCOS: 'recusar',
    });
    expect(code).toBe(1);
    const erro = (JSON.parse(out.join('')) as { erro: string }).erro;
    expect(erro).toMatch(/^O banco não está pronto: O usuário de análise \(balcao_analytics\)/);
    expect(erro).toContain(other);
    out.length = 0;
    await db.admin.query(`REVOKE CONNECT, TEMPORARY ON DATABASE ${other} FROM PUBLIC`);
    try {
      const after = await main(['db', 'migrate', '--json'], io, {
        ...env,
        BALCAO_ANALYTICS_OUTROS_BANCOS: 'recusar',
      });
      // Other databases of the shared test server may still be reachable: only ours is checked.
      if (after !== 0) expect(out.join('')).not.toContain(other);
    } finally {
      await db.admin.query(`GRANT CONNECT ON DATABASE ${other} TO PUBLIC`);
    }
  });
});
