/**
 * #11 part 1: a connection lost under an operation fails that operation alone (pt-BR, nothing
 * half-written) and never kills the process. Backends are killed with pg_terminate_backend from
 * the admin connection, as a server restart or failover would.
 */
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../src-shared/errors';
import { createPool } from '../../src-main/db/pool';
import { withTenantReadOnly } from '../../src-main/db/tenant';
import { query, withTransaction } from '../../src-main/db/tx';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { ensureMerchants } from '../support/queue-fixtures';
import { startStaleProxy } from '../support/stale-proxy';

let db: TestDatabase;
const uncaught: unknown[] = [];
const onUncaught = (e: unknown) => uncaught.push(e);

beforeAll(async () => {
  db = await createTestDatabase();
  await ensureMerchants(db.admin, { 1: 'Padaria Central' });
});
afterAll(() => db.drop());
beforeEach(() => {
  uncaught.length = 0;
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onUncaught);
});
afterEach(() => {
  process.off('uncaughtException', onUncaught);
  process.off('unhandledRejection', onUncaught);
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function kill(pid: number): Promise<void> {
  // Terminate and wait until the backend is gone (5 s at most), so callers see a dead connection.
  await db.admin.query('SELECT pg_terminate_backend($1, 5000)', [pid]);
}

async function pidOf(c: pg.PoolClient): Promise<number> {
  return (await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
}

async function auditCount(acao: string): Promise<number> {
  const r = await db.admin.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM auditoria WHERE acao = $1',
    [acao],
  );
  return r.rows[0]!.n;
}

describe('a backend killed while a transaction awaits something else', () => {
  it('fails that transaction with a pt-BR error, saves nothing, and the pool goes on', async () => {
    const pool = createPool(db.appUrl, { max: 2 });
    try {
      const e = await withTransaction(pool, async (c) => {
        await c.query(
          "INSERT INTO auditoria (operador, acao, detalhes) VALUES ('teste', 'minimo', '{}')",
        );
        const pid = await pidOf(c);
        // The transaction awaits something else (a model call, a timer) for 200 ms while its
        // backend is terminated.
        await Promise.all([sleep(200), kill(pid)]);
        await c.query(
          "INSERT INTO auditoria (operador, acao, detalhes) VALUES ('teste', 'minimo', '{}')",
        );
        return 'não devia chegar aqui';
      }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(AppError);
      expect(e).toMatchObject({
        code: 'banco_indisponivel',
        message: 'A conexão com o banco caiu no meio da operação e nada foi salvo. Tente de novo.',
      });
      expect(await auditCount('minimo')).toBe(0);
      // The dead client was destroyed, not reused: the next operations work.
      for (let i = 0; i < 4; i++) {
        const r = await query<{ um: number }>(pool, 'SELECT 1 AS um');
        expect(r).toEqual([{ um: 1 }]);
      }
      await sleep(50);
      expect(uncaught).toEqual([]);
    } finally {
      await pool.end();
    }
  });

  it('a kill while the client sits idle in the transaction (no query running) is caught too', async () => {
    const pool = createPool(db.appUrl, { max: 1 });
    try {
      // The transaction sits idle (no query running) until the test has terminated its backend:
      // ordered by promises, not by timers, so a slow machine cannot reorder kill and commit.
      let pid = 0;
      let pidKnown!: () => void;
      const pidReady = new Promise<void>((r) => (pidKnown = r));
      let release!: () => void;
      const killed = new Promise<void>((r) => (release = r));
      const p = withTransaction(pool, async (c) => {
        pid = await pidOf(c);
        pidKnown();
        await killed;
        return 1;
      });
      await pidReady;
      await kill(pid);
      release();
      await expect(p).rejects.toMatchObject({ code: 'banco_indisponivel' });
      await sleep(50);
      expect(uncaught).toEqual([]);
      expect(await query(pool, 'SELECT 1 AS um')).toEqual([{ um: 1 }]);
    } finally {
      await pool.end();
    }
  });

  it('with retry (claims), a loss before COMMIT runs once more on a fresh connection', async () => {
    const pool = createPool(db.appUrl, { max: 2 });
    try {
      let runs = 0;
      const r = await withTransaction(
        pool,
        async (c) => {
          runs++;
          await c.query(
            "INSERT INTO auditoria (operador, acao, detalhes) VALUES ('teste', 'retentado', '{}')",
          );
          if (runs === 1) {
            await kill(await pidOf(c));
            await sleep(100);
          }
          return runs;
        },
        { retry: true },
      );
      expect(r).toBe(2);
      expect(await auditCount('retentado')).toBe(1);
      expect(uncaught).toEqual([]);
    } finally {
      await pool.end();
    }
  });
});

describe('pooled connections that died while idle', () => {
  it('a write meets every stale connection of the pool at BEGIN and still runs once, on a fresh one', async () => {
    const proxy = await startStaleProxy(db.appUrl);
    const pool = createPool(proxy.url, { max: 3 });
    try {
      // Three idle connections in the pool, then all three go stale without the pool knowing.
      await Promise.all([1, 2, 3].map(() => query(pool, 'SELECT pg_sleep(0.05)')));
      expect(pool.idleCount).toBe(3);
      proxy.goStale();
      let runs = 0;
      // No `retry`: a write whose connection dies after BEGIN is not run again (see above), but
      // one that died before BEGIN ran nothing, so it goes to the next connection.
      const r = await withTransaction(pool, async (c) => {
        runs++;
        await c.query(
          "INSERT INTO auditoria (operador, acao, detalhes) VALUES ('teste', 'apos_ociosa', '{}')",
        );
        return runs;
      });
      expect(r).toBe(1);
      expect(await auditCount('apos_ociosa')).toBe(1);
      expect(proxy.opened()).toBe(4);
      await sleep(50);
      expect(uncaught).toEqual([]);
    } finally {
      await pool.end();
      await proxy.close();
    }
  });
});

describe('reads retry once on a fresh connection', () => {
  it('a pool whose idle connections were all killed still answers reads', async () => {
    const pool = createPool(db.appUrl, { max: 3 });
    try {
      await Promise.all([1, 2, 3].map(() => query(pool, 'SELECT pg_sleep(0.05)')));
      await db.admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'balcao_app' AND datname = current_database()",
      );
      const rows = await Promise.all([1, 2, 3].map(() => query(pool, 'SELECT 2 AS dois')));
      expect(rows).toEqual([[{ dois: 2 }], [{ dois: 2 }], [{ dois: 2 }]]);
      await sleep(50);
      expect(uncaught).toEqual([]);
    } finally {
      await pool.end();
    }
  });

  it('the tenant read-only set-up survives a killed backend (retried once)', async () => {
    const pool = createPool(db.analyticsUrl, { max: 2 });
    try {
      let calls = 0;
      const r = await withTenantReadOnly(pool, { merchantId: 1, timeoutMs: 2000 }, async (c) => {
        calls++;
        if (calls === 1) {
          await db.admin.query('SELECT pg_terminate_backend($1)', [await pidOf(c)]);
          await sleep(50);
        }
        return (await c.query<{ m: string }>("SELECT current_setting('balcao.merchant_id') AS m"))
          .rows[0]!.m;
      });
      expect(r).toBe('1');
      expect(calls).toBe(2);
      await sleep(50);
      expect(uncaught).toEqual([]);
    } finally {
      await pool.end();
    }
  });

  it('a tenant read whose connection dies twice fails with a pt-BR error, process up', async () => {
    const pool = createPool(db.analyticsUrl, { max: 2 });
    try {
      const e = await withTenantReadOnly(pool, { merchantId: 1, timeoutMs: 2000 }, async (c) => {
        await db.admin.query('SELECT pg_terminate_backend($1)', [await pidOf(c)]);
        await sleep(50);
        return c.query('SELECT 1');
      }).catch((x: unknown) => x);
      expect(e).toMatchObject({
        code: 'banco_indisponivel',
        message:
          'A conexão com o banco caiu durante a consulta (nada foi alterado). Tente de novo.',
      });
      await sleep(50);
      expect(uncaught).toEqual([]);
    } finally {
      await pool.end();
    }
  });
});
