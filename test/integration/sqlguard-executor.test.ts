/** Layer 3 (executor): protocol, caps, timeout, login role, connection hygiene. */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@shared/errors';
import { executeReadOnly } from '../../src-main/sqlguard/executor';
import { runFreeSql } from '../../src-main/sales/free-sql/run';
import type { TestDatabase } from '../support/db';
import {
  M1,
  M2,
  NORMAL_SQL,
  closeGuardDatabase,
  openGuardDatabase,
  row0,
} from '../support/sqlguard';

let db: TestDatabase;
let pool: pg.Pool;
let connections = 0;

beforeAll(async () => {
  ({ db, pool } = await openGuardDatabase());
  pool.on('connect', () => connections++);
});
afterAll(() => closeGuardDatabase({ db, pool }));

async function stillHealthy() {
  const m1 = await executeReadOnly(pool, { merchantId: 1, sql: NORMAL_SQL, timeoutMs: 3_000 });
  const m2 = await executeReadOnly(pool, { merchantId: 2, sql: NORMAL_SQL, timeoutMs: 3_000 });
  expect(row0(m1)).toEqual(M1);
  expect(row0(m2)).toEqual(M2);
}

function failure(e: unknown): AppError {
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
}

describe('protocol', () => {
  it('stacked statements are impossible even without the parser (extended protocol)', async () => {
    for (const sql of [
      'select 1; select 2',
      `select * from vendas_ia; select set_config('balcao.merchant_id', '2', true)`,
      'select 1; rollback; select balcao_definir_lojista(2); select * from vendas_ia',
    ]) {
      const e = failure(
        await executeReadOnly(pool, { merchantId: 1, sql, timeoutMs: 1_000 }).catch((x) => x),
      );
      expect(e.message).not.toMatch(/multiple commands|prepared statement/);
    }
    await stillHealthy();
  });

  it('COPY reaching the wire (parser bypassed) kills the connection instead of the process', async () => {
    const e = failure(
      await executeReadOnly(pool, {
        merchantId: 1,
        sql: 'copy (select * from vendas_ia) to stdout',
        timeoutMs: 1_000,
      }).catch((x) => x),
    );
    expect(e.message).toBe('consulta recusada: só é permitido ler a visão de vendas');
    await stillHealthy();
  });

  it('logs in as the analytics role itself: a pool of another user is refused', async () => {
    const admin = new pg.Pool({ connectionString: db.adminUrl, max: 1 });
    try {
      const e = failure(
        await executeReadOnly(admin, { merchantId: 1, sql: NORMAL_SQL, timeoutMs: 1_000 }).catch(
          (x) => x,
        ),
      );
      expect(e.code).toBe('configuracao');
    } finally {
      await admin.end();
    }
  });

  it('validates the merchant id before touching the database', async () => {
    for (const merchantId of [0, -1, 1.5, Number.NaN, 2 ** 60]) {
      const e = failure(
        await executeReadOnly(pool, { merchantId, sql: NORMAL_SQL, timeoutMs: 1_000 }).catch(
          (x) => x,
        ),
      );
      expect(e.code).toBe('entrada_invalida');
    }
  });
});

describe('caps', () => {
  it('stops at 500 rows while streaming: a billion-row result comes back at once, truncated', async () => {
    const r = await runFreeSql(
      pool,
      { timeoutMs: 3_000 },
      {
        merchantId: 1,
        origem: 'cli',
        sql: 'select a.x, b.x as y, c.x as z from generate_series(1, 1000) a(x), generate_series(1, 1000) b(x), generate_series(1, 1000) c(x)',
      },
    );
    expect(r.linhas).toHaveLength(500);
    expect(r.truncado).toBe(true);
    // Load-then-cut would run into the 3 s timeout (a billion rows) and fail with tempo_esgotado;
    // only the cursor stopping the portal gives these 500 rows.
    await stillHealthy();
  });

  it('stops at the byte budget', async () => {
    const r = await executeReadOnly(pool, {
      merchantId: 1,
      sql: `select x, repeat('x', 1000) as pad from generate_series(1, 400) g(x)`,
      timeoutMs: 3_000,
      maxBytes: 20_000,
    });
    expect(r.truncado).toBe(true);
    expect(r.linhas.length).toBeGreaterThan(5);
    expect(r.linhas.length).toBeLessThan(25);
    expect(Buffer.byteLength(JSON.stringify(r.linhas))).toBeLessThanOrEqual(20_000);
  });

  it('kills the connection when one giant value floods the wire (no buffering)', async () => {
    const before = connections;
    const e = failure(
      await executeReadOnly(pool, {
        merchantId: 1,
        sql: `select repeat('x', 20000000)`,
        timeoutMs: 5_000,
      }).catch((x) => x),
    );
    expect(e.message).toBe('consulta recusada: o resultado passou do limite de tamanho');
    await stillHealthy();
    expect(connections).toBe(before + 1); // the flooded connection was destroyed, not reused
  });

  it('ends every statement within the timeout (default 3 s) with our message', async () => {
    const t0 = performance.now();
    const e = failure(
      await runFreeSql(
        pool,
        { timeoutMs: 3_000 },
        {
          merchantId: 1,
          origem: 'cli',
          // CPU-bound, no spill (a spilling query would hit temp_file_limit first).
          sql: 'select count(*) from generate_series(1, 1000) a(x), lateral generate_series(a.x, a.x + 999) b(y), lateral generate_series(b.y, b.y + 999) c(z)',
        },
      ).catch((x) => x),
    );
    const elapsed = performance.now() - t0;
    expect(e.code).toBe('tempo_esgotado');
    expect(e.message).toMatch(/limite de 3 s/);
    // Never before the limit (a timer cannot fire early); the statement itself runs for minutes,
    // so without the timeout this test would hit its own 30 s timeout.
    expect(elapsed).toBeGreaterThanOrEqual(3_000);
    await stillHealthy();
  });
});

describe('connection hygiene', () => {
  it('reuses one clean connection: nothing a query sets survives into the next', async () => {
    const pid = async () =>
      (
        await executeReadOnly(pool, {
          merchantId: 1,
          sql: 'select pg_backend_pid() as p',
          timeoutMs: 1_000,
        })
      ).linhas[0]?.[0];
    const p1 = await pid();
    // Session state a statement can create on its own (parser bypassed): a prepared statement,
    // a session GUC, a cursor. All gone after ROLLBACK + the session reset.
    for (const sql of [
      'prepare p as select * from vendas_ia',
      `set balcao.merchant_id = '2'`,
      'declare c cursor with hold for select * from vendas_ia',
      'listen canal',
    ]) {
      await executeReadOnly(pool, { merchantId: 1, sql, timeoutMs: 1_000 }).catch(() => undefined);
      await stillHealthy();
    }
    const e = failure(
      await executeReadOnly(pool, { merchantId: 1, sql: 'execute p', timeoutMs: 1_000 }).catch(
        (x) => x,
      ),
    );
    expect(e.code).toBe('consulta_recusada');
    expect(await pid()).toBe(p1);
  });

  it('cannot hold a session advisory lock past its transaction (the reset does not unlock them)', async () => {
    // The session reset (src-main/db/tenant.ts) leaves advisory locks out of DISCARD ALL's parts:
    // the analytics role may run none of the functions that take or release them.
    const r = await db.admin.query<{ f: string }>(
      `SELECT p.oid::regprocedure::text AS f FROM pg_proc p
        WHERE p.proname ~ 'advisory' AND has_function_privilege('balcao_analytics', p.oid, 'EXECUTE')`,
    );
    expect(r.rows).toEqual([]);
    const e = failure(
      await executeReadOnly(pool, {
        merchantId: 1,
        sql: 'select pg_advisory_lock(42)',
        timeoutMs: 1_000,
      }).catch((x) => x),
    );
    expect(e.message).not.toMatch(/pg_advisory/);
    const held = await db.admin.query(
      `SELECT 1 FROM pg_locks WHERE locktype = 'advisory'
          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    expect(held.rowCount).toBe(0);
  });

  it('gives our pt-BR messages for runtime errors, never PostgreSQL text', async () => {
    const cases: [string, RegExp][] = [
      ['select 1 / 0', /^A consulta falhou: divisão por zero\.$/],
      ['select modalidade::int from vendas_ia', /^A consulta falhou: um valor não pôde/],
      ['select nao_existe from vendas_ia', /^A consulta usa uma coluna que não existe/],
      ['select * from transacoes', /^consulta recusada: só é permitido ler a visão de vendas$/],
    ];
    for (const [sql, re] of cases) {
      const e = failure(
        await executeReadOnly(pool, { merchantId: 1, sql, timeoutMs: 1_000 }).catch((x) => x),
      );
      expect(e.message).toMatch(re);
    }
  });

  it('returns typed values: numbers, ISO timestamps in the configured zone, nulls', async () => {
    const r = await executeReadOnly(pool, {
      merchantId: 1,
      timeZone: 'America/Sao_Paulo',
      timeoutMs: 1_000,
      sql: `select id, bandeira, valor_bruto_centavos, aprovada_em,
                    date_trunc('month', aprovada_em) as mes, sum(valor_bruto_centavos) over () as total,
                    avg(valor_bruto_centavos) over () as media, parcelas > 1 as parcelado
               from vendas_ia order by aprovada_em limit 1`,
    });
    expect(r.colunas).toEqual([
      'id',
      'bandeira',
      'valor_bruto_centavos',
      'aprovada_em',
      'mes',
      'total',
      'media',
      'parcelado',
    ]);
    // Positional row: [id, bandeira, valor_bruto_centavos, aprovada_em, mes, total, media, parcelado]
    expect(r.linhas[0]?.slice(1)).toEqual([
      null,
      1000,
      '2026-03-02T10:00:00-03:00',
      '2026-03-01T00:00:00-03:00',
      22800,
      4560,
      false,
    ]);
  });
});

describe('output fidelity (#12 point 4)', () => {
  it('keeps every column and value: __proto__, repeated names, exact big numbers', async () => {
    const r = await runFreeSql(
      pool,
      { timeoutMs: 2_000 },
      {
        merchantId: 1,
        origem: 'cli',
        sql: `select count(*) as "__proto__", 1 as a, 2 as a_2, 3 as a,
                     12345678901234567.89 as grande, 9007199254740993 as inteiro,
                     sum(valor_bruto_centavos)::numeric / 8 as fracao, 12.50 as escala
                from vendas_ia;`,
      },
    );
    expect(r.colunas).toEqual([
      '__proto__',
      'a',
      'a_2',
      'a',
      'grande',
      'inteiro',
      'fracao',
      'escala',
    ]);
    expect(r.linhas).toEqual([
      [5, 1, 2, 3, '12345678901234567.89', '9007199254740993', 2850, 12.5],
    ]);
    // The JSON that crosses IPC keeps them too.
    expect(JSON.parse(JSON.stringify(r)).linhas[0]).toHaveLength(8);
  });

  it('layer 3 runs only a SELECT: EXPLAIN, SET, SHOW and COPY are refused even without the parser', async () => {
    for (const sql of [
      'explain analyze select * from vendas_ia',
      'explain select * from vendas_ia',
      `set work_mem = '64MB'`,
      'show search_path',
      'copy (select 1) to stdout',
    ]) {
      const e = failure(
        await executeReadOnly(pool, { merchantId: 1, sql, timeoutMs: 1_000 }).catch((x) => x),
      );
      expect(e.message, sql).toMatch(/^(consulta recusada|A consulta)/);
    }
    await stillHealthy();
  });
});
