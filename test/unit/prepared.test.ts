import { describe, expect, it } from 'vitest';
import { hot, prepareStatements, shouldPrepare, statementName } from '../../src-main/db/prepared';
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
});
