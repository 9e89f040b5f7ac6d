import { describe, expect, it } from 'vitest';
import {
  MAX_PREPARED_PER_CONNECTION,
  analyticsPrepares,
  forgetPrepared,
  hot,
  hotOn,
  prepareStatements,
  shouldPrepare,
  statementName,
} from '../../src-main/db/prepared';
import { settingsFromEnv } from '../../src-main/settings/defaults';

const APP = 'postgres://balcao_app@pgbouncer:6432/balcao';
const DIRECT = 'postgres://balcao_app@db:5432/balcao';

describe('prepared statements for the workers (issue #17)', () => {
  it('are on for a session connection, off behind a transaction pooler, and BALCAO_DB_PREPARAR decides when set', () => {
    const s = (env: Record<string, string>) => shouldPrepare(settingsFromEnv(env));
    // No DIRECT_DATABASE_URL: the app URL already serves the session-level locks.
    expect(s({})).toBe(true);
    expect(s({ APP_DATABASE_URL: APP })).toBe(true);
    expect(s({ APP_DATABASE_URL: DIRECT, DIRECT_DATABASE_URL: DIRECT })).toBe(true);
    // A separate session URL says the app URL goes through a pooler (PgBouncer in transaction mode).
    expect(s({ APP_DATABASE_URL: APP, DIRECT_DATABASE_URL: DIRECT })).toBe(false);
    // PgBouncer 1.21+ with max_prepared_statements, or a deliberate off.
    expect(s({ APP_DATABASE_URL: APP, DIRECT_DATABASE_URL: DIRECT, BALCAO_DB_PREPARAR: '1' })).toBe(
      true,
    );
    expect(s({ BALCAO_DB_PREPARAR: '0' })).toBe(false);
    expect(s({ BALCAO_DB_PREPARAR: 'talvez' })).toBe(true);
  });

  it('name a statement after its text, and only on a pool marked for it', () => {
    const a = statementName('SELECT $1');
    expect(a).toMatch(/^balcao_[0-9a-f]{24}$/);
    expect(statementName('SELECT $1')).toBe(a);
    expect(statementName('SELECT $2')).not.toBe(a);
    const marked = prepareStatements({});
    expect(hot(marked, 'SELECT $1', [1])).toEqual({ name: a, text: 'SELECT $1', values: [1] });
    expect(hot({}, 'SELECT $1', [1])).toEqual({ text: 'SELECT $1', values: [1] });
    expect(hot(prepareStatements(marked, false), 'SELECT $1', [1])).not.toHaveProperty('name');
  });

  it("the analytics pool prepares on the owner's direct connection only, unless BALCAO_DB_PREPARAR says", () => {
    const a = (env: Record<string, string>) => analyticsPrepares(settingsFromEnv(env));
    // Derived from DATABASE_URL (the owner's session URL; the embedded default too).
    expect(a({})).toBe(true);
    expect(a({ DATABASE_URL: DIRECT })).toBe(true);
    // A separate endpoint may be a replica behind a transaction pooler.
    expect(a({ ANALYTICS_DATABASE_URL: APP })).toBe(false);
    expect(a({ ANALYTICS_DATABASE_URL: APP, BALCAO_DB_PREPARAR: '1' })).toBe(true);
    expect(a({ BALCAO_DB_PREPARAR: '0' })).toBe(false);
    // A team server's DATABASE_URL may be a PgBouncer in transaction mode.
    const team = (env: Record<string, string>) =>
      analyticsPrepares(settingsFromEnv(env), 'pessoal');
    expect(team({ DATABASE_URL: APP })).toBe(false);
    expect(team({ DATABASE_URL: APP, BALCAO_DB_PREPARAR: '1' })).toBe(true);
  });

  it('a connection holds a bounded number of them, and forgets them when told', () => {
    const pool = prepareStatements({});
    const client = {
      connection: { parsedStatements: { x: 'SELECT 1' }, submittedNamedStatements: {} },
    };
    for (let i = 0; i < MAX_PREPARED_PER_CONNECTION; i++) {
      expect(hotOn(pool, client, `SELECT ${i}`, [])).toHaveProperty('name');
    }
    // Full: a new text goes unnamed; the ones it holds stay named.
    expect(hotOn(pool, client, 'SELECT -1', [])).not.toHaveProperty('name');
    expect(hotOn(pool, client, 'SELECT 0', [])).toHaveProperty('name');
    // Another connection has its own count; a pool that does not prepare never names.
    expect(hotOn(pool, {}, 'SELECT -1', [])).toHaveProperty('name');
    expect(hotOn({}, client, 'SELECT 0', [])).not.toHaveProperty('name');
    // After DEALLOCATE ALL: pg's record and ours are emptied, so the next use parses again.
    expect(forgetPrepared(client)).toBe(true);
    expect(client.connection.parsedStatements).toEqual({});
    expect(hotOn(pool, client, 'SELECT -1', [])).toHaveProperty('name');
    // A client whose record cannot be reached must not be reused.
    expect(forgetPrepared({})).toBe(false);
  });
});
