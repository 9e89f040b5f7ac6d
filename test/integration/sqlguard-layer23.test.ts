/**
 * Defence in depth: the hostile corpus WITHOUT layer 1 (the parser), straight into the executor
 * (extended protocol, cursor, caps, read-only tenant transaction, reset) on one pooled
 * connection. After each: no canary, nothing written, and the same connection answers
 * merchant 1 and merchant 2 correctly.
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@shared/errors';
import { executeReadOnly } from '../../src-main/sqlguard/executor';
import type { TestDatabase } from '../support/db';
import {
  BOUNDED_MS,
  checksum,
  closeGuardDatabase,
  expectNoLeak,
  loadCorpus,
  M1,
  M2,
  NORMAL_SQL,
  openGuardDatabase,
  row0,
  type HostileItem,
} from '../support/sqlguard';

const TIMEOUT_MS = 300;
const corpus = loadCorpus();
const rows = corpus.map((i) => [i.id, i] as [string, HostileItem]);

let db: TestDatabase;
let pool: pg.Pool;
let before: string;

beforeAll(async () => {
  ({ db, pool, before } = await openGuardDatabase());
});
afterAll(() => closeGuardDatabase({ db, pool }));

describe('layers 2+3 hold without the parser', () => {
  it.each(rows)('%s', async (_id, item) => {
    const t0 = performance.now();
    let out: string;
    try {
      const r = await executeReadOnly(pool, {
        merchantId: 1,
        sql: item.sql,
        timeoutMs: TIMEOUT_MS,
      });
      expect(r.linhas.length).toBeLessThanOrEqual(500);
      out = JSON.stringify(r.linhas);
    } catch (e) {
      expect(e).toBeInstanceOf(AppError);
      out = (e as AppError).message;
    }
    expect(performance.now() - t0).toBeLessThan(BOUNDED_MS);
    expectNoLeak(out, item.id);
    expect(await checksum(db.admin)).toBe(before);
    const m1 = await executeReadOnly(pool, { merchantId: 1, sql: NORMAL_SQL, timeoutMs: 3_000 });
    const m2 = await executeReadOnly(pool, { merchantId: 2, sql: NORMAL_SQL, timeoutMs: 3_000 });
    expect(row0(m1)).toEqual(M1);
    expect(row0(m2)).toEqual(M2);
  });
});
