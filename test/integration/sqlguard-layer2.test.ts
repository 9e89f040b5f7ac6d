/**
 * Layer 2 alone: the hostile corpus on a RAW analytics connection (no parser, no executor)
 * where our code opened the tenant transaction (READ ONLY, timeout, balcao_definir_lojista(1))
 * and the item runs as one extended-protocol statement — only the role and the view stand.
 * After each: no canary in the rows or in the RAW PostgreSQL error text (detail, hint, where),
 * nothing written, and the same connection — without DISCARD ALL — answers merchant 1 and
 * merchant 2 correctly. (Against stacked statements in the simple protocol layer 2 cannot hold
 * alone: ROLLBACK; then choosing a tenant is always possible on a raw session. Layers 1 and 3
 * each make that impossible.)
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeReadOnly } from '../../src-main/sqlguard/executor';
import { checkSqlSync, loadGuard } from '../../src-main/sqlguard/guard';
import type { TestDatabase } from '../support/db';
import {
  M1,
  M2,
  NORMAL_SQL,
  checksum,
  errorText,
  expectNoLeak,
  loadCorpus,
  seedGuardDatabase,
  type HostileItem,
} from '../support/sqlguard';

const TIMEOUT_MS = 300;
const corpus = loadCorpus();
const rows = corpus.map((i) => [i.id, i] as [string, HostileItem]);

let db: TestDatabase;
let raw: pg.Client;
let before: string;

beforeAll(async () => {
  ({ db, before } = await seedGuardDatabase());
});
afterAll(async () => {
  await raw?.end().catch(() => undefined);
  await db.drop();
});

async function rawClient(): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: db.analyticsUrl });
  c.on('error', () => undefined);
  await c.connect();
  return c;
}

async function rawTotal(c: pg.Client, merchantId: number) {
  await c.query('BEGIN READ ONLY');
  try {
    await c.query({ text: 'SELECT balcao_definir_lojista($1)', values: [merchantId] });
    return (await c.query(NORMAL_SQL)).rows[0] as unknown;
  } finally {
    await c.query('ROLLBACK');
  }
}

describe('what layer 2 alone cannot stop is refused by layers 1 and 3', () => {
  const known = corpus.filter((i) => i.camada2 === 'explain');
  it('the corpus lists them', () => {
    expect(known.length).toBeGreaterThanOrEqual(8);
  });
  it.each(known.map((i) => [i.id, i] as [string, HostileItem]))('%s', async (_id, item) => {
    await loadGuard();
    expect(checkSqlSync(item.sql).ok).toBe(false);
    const pool = new pg.Pool({ connectionString: db.analyticsUrl, max: 1 });
    try {
      await expect(
        executeReadOnly(pool, { merchantId: 1, sql: item.sql, timeoutMs: TIMEOUT_MS }),
      ).rejects.toThrow(/^consulta recusada|^A consulta/);
    } finally {
      await pool.end();
    }
  });
});

describe('layer 2 alone: raw analytics connection, one statement after our tenant setup', () => {
  it.each(rows)('%s', async (_id, item) => {
    raw ??= await rawClient();
    let out: string;
    try {
      await raw.query('BEGIN READ ONLY');
      await raw.query(`SET LOCAL statement_timeout = ${TIMEOUT_MS}`);
      await raw.query({ text: 'SELECT balcao_definir_lojista($1)', values: [1] });
      // queryMode 'extended': one Parse/Bind/Execute, never the simple protocol.
      const config = { text: item.sql, queryMode: 'extended', rowMode: 'array' } as pg.QueryConfig;
      const r: pg.QueryResult = await raw.query(config);
      out = JSON.stringify(r.rows.slice(0, 2_000));
    } catch (e) {
      out = errorText(e); // the RAW PostgreSQL error, with detail/hint/where: still no canary
    }
    try {
      await raw.query('ROLLBACK');
    } catch {
      await raw.end().catch(() => undefined);
      raw = await rawClient();
    }
    // Numbers too (#12 point 7), except where PostgreSQL has nothing to revoke (EXPLAIN).
    expectNoLeak(out, item.id, item.camada2 !== 'explain');
    expect(await checksum(db.admin)).toBe(before);
    // No DISCARD ALL here on purpose: nothing the statement did may survive into the next tenant.
    expect(await rawTotal(raw, 1)).toEqual(M1);
    expect(await rawTotal(raw, 2)).toEqual(M2);
  });
});
