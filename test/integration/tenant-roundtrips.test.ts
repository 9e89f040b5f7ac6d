/**
 * The read-only transaction's cost on the wire: every path (sales executor, free-SQL executor,
 * textbook base-table path) opens its transaction in at most two round trips before its query
 * — none for the pipelined paths (the opening and the queries go out together), one for the
 * hardened free-SQL path (its roles are checked before its SQL is sent) — sets the tenant only
 * through balcao_definir_lojista, once, and still rolls back, discards and checks. Round trips
 * waited before a message are the server's ReadyForQuery messages received before it was sent.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGRUPAMENTOS, METRICAS, validateConsulta, type ConsultaVendas } from '@shared/sales-dsl';
import { prepareStatements } from '../../src-main/db/prepared';
import { withTenantReadOnly } from '../../src-main/db/tenant';
import { AppError } from '@shared/errors';
import { periodTotalQuery } from '../../src-main/sales/answer';
import { compileSalesQuery } from '../../src-main/sales/compile';
import {
  executeSalesQueries,
  executeSalesQuery,
  executeSalesQueryBaseTable,
  executeSalesQueryTenantView,
} from '../../src-main/sales/execute';
import { executeReadOnly, wrapQuery } from '../../src-main/sqlguard/executor';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { M1, NORMAL_SQL, row0, seedCanaries } from '../support/sqlguard';

/** What the client sent and how many round trips (ReadyForQuery) it waited for, in order. */
type WireEvent = { kind: 'simple' | 'parse'; text: string } | { kind: 'ready' };

interface WireConnection {
  query(text: string): void;
  parse(q: { text: string }): void;
  on(ev: 'readyForQuery', fn: () => void): void;
  removeListener(ev: 'readyForQuery', fn: () => void): void;
}

/** Records every message the pool's clients send and every round trip they complete. */
function recordWire(pool: pg.Pool): WireEvent[] {
  const events: WireEvent[] = [];
  const patched = new WeakSet<object>();
  pool.on('acquire', (client) => {
    const con = (client as unknown as { connection: WireConnection }).connection;
    if (patched.has(con)) return;
    patched.add(con);
    const query = con.query.bind(con);
    const parse = con.parse.bind(con);
    con.query = (text) => {
      events.push({ kind: 'simple', text });
      query(text);
    };
    con.parse = (q) => {
      events.push({ kind: 'parse', text: q.text });
      parse(q);
    };
    con.on('readyForQuery', () => events.push({ kind: 'ready' }));
  });
  return events;
}

/**
 * Waits until the pool has every client back: the reset (rollback, discard, check) runs after
 * the caller has its answer, and the client is released when it ends.
 */
async function settled(pool: pg.Pool): Promise<void> {
  const until = Date.now() + 5_000;
  while (pool.idleCount < pool.totalCount && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 5));
  }
  expect(pool.idleCount).toBe(pool.totalCount);
}

/** Round trips completed before the first message carrying `marker`, and in all. */
function roundTrips(events: WireEvent[], marker: string) {
  const first = events.findIndex((e) => e.kind !== 'ready' && e.text.includes(marker));
  expect(first).toBeGreaterThanOrEqual(0);
  return {
    before: events.slice(0, first).filter((e) => e.kind === 'ready').length,
    total: events.filter((e) => e.kind === 'ready').length,
    tenantSets: events.filter((e) => e.kind !== 'ready' && /balcao_definir_lojista/.test(e.text))
      .length,
    sent: events.flatMap((e) => (e.kind === 'ready' ? [] : [e.text])),
  };
}

let db: TestDatabase;
let analytics: pg.Pool;
let admin: pg.Pool;

beforeAll(async () => {
  db = await createTestDatabase();
  await seedCanaries(db.admin);
  // Fresh single-connection pools so every event belongs to the transaction under test.
  analytics = new pg.Pool({ connectionString: db.analyticsUrl, max: 1 });
  admin = new pg.Pool({ connectionString: db.adminUrl, max: 1 });
  analytics.on('error', () => undefined);
  admin.on('error', () => undefined);
});
afterAll(async () => {
  await Promise.allSettled([analytics.end(), admin.end()]);
  await db.drop();
});

function consulta(): ConsultaVendas {
  const v = validateConsulta({ metrica: 'quantidade', periodo: 'este_ano' }, '2026-03-16');
  if (!v.ok || v.value.tipo !== 'consulta') throw new Error('consulta de teste inválida');
  return v.value.consulta;
}
const CONSULTA = consulta();
const CTX = { merchantId: 1, timeZone: 'America/Sao_Paulo', timeoutMs: 3_000 };

describe('tenant read-only transaction round trips', () => {
  it('withTenantReadOnly: the query goes out with the opening (no round trip before it), tenant set once, then rollback + discard', async () => {
    const events = recordWire(analytics);
    const n = await withTenantReadOnly(
      analytics,
      { merchantId: 1, timeoutMs: 3_000 },
      async (c) => {
        const r = await c.query<{ n: number }>('SELECT count(*)::int AS n FROM vendas_aprovadas');
        return r.rows[0]?.n;
      },
    );
    // The caller has its answer with the two answers (open + query) of ONE round trip: both
    // were written before the first came back. The reset comes after.
    expect(events.filter((e) => e.kind === 'ready')).toHaveLength(2);
    expect(events.findIndex((e) => e.kind === 'ready')).toBe(2);
    await settled(analytics);
    analytics.removeAllListeners('acquire');
    expect(n).toBe(5);
    const rt = roundTrips(events, 'FROM vendas_aprovadas');
    expect(rt.before).toBeLessThanOrEqual(2);
    expect(rt.before).toBe(0);
    expect(rt.tenantSets).toBe(1);
    expect(rt.sent[0]).toMatch(
      /^BEGIN .*READ ONLY; SET LOCAL statement_timeout = 3000; .*SELECT balcao_definir_lojista\(1\)/,
    );
    // Rollback and the session reset (DISCARD ALL's parts but the plans) in one string.
    expect(rt.sent.at(-1)).toMatch(
      /^ROLLBACK; CLOSE ALL; SET SESSION AUTHORIZATION DEFAULT; RESET ALL; DEALLOCATE ALL; UNLISTEN \*; DISCARD TEMP; DISCARD SEQUENCES$/,
    );
    // open + query + reset (was 4 with ROLLBACK and DISCARD ALL apart, and 5 before that).
    expect(rt.total).toBe(3);
  });

  it('the sales executors (rollups and tenant view): the query rides with the opening', async () => {
    for (const exec of [executeSalesQuery, executeSalesQueryTenantView]) {
      const events = recordWire(analytics);
      const linhas = await exec(analytics, CONSULTA, CTX);
      await settled(analytics);
      expect(linhas).toHaveLength(1);
      const query = events.find((e) => e.kind === 'parse');
      expect(query).toBeDefined();
      const rt = roundTrips(events, query && 'text' in query ? query.text : '?');
      expect(rt.before).toBe(0);
      expect(rt.tenantSets).toBe(1);
      expect(rt.total).toBe(3);
      analytics.removeAllListeners('acquire');
    }
  });

  it('the free-SQL executor: one round trip before its extended-protocol query, then rollback + discard + check', async () => {
    const events = recordWire(analytics);
    const r = await executeReadOnly(analytics, {
      merchantId: 1,
      sql: NORMAL_SQL,
      timeoutMs: 3_000,
    });
    await settled(analytics);
    analytics.removeAllListeners('acquire');
    expect(row0(r)).toEqual(M1);
    const rt = roundTrips(events, 'from vendas_ia');
    expect(rt.before).toBe(1);
    expect(rt.tenantSets).toBe(1);
    // The guarded query itself goes through Parse/Bind/Execute, never the simple protocol.
    // …wrapped by layer 3 so that only a SELECT can run (#12).
    expect(events.some((e) => e.kind === 'parse' && e.text === wrapQuery(NORMAL_SQL))).toBe(true);
    expect(events.some((e) => e.kind === 'simple' && e.text.includes(NORMAL_SQL))).toBe(false);
    // Rollback, session reset and the clean-state check: one string, one round trip.
    const after = rt.sent.at(-1) ?? '';
    expect(after).toMatch(/^ROLLBACK; CLOSE ALL; .*DEALLOCATE ALL; .*DISCARD SEQUENCES; SELECT /s);
    expect(after).toMatch(/AS limpo$/);
    expect(rt.total).toBe(3);
    // The hardened opening pins the session too, in the same string.
    expect(rt.sent[0]).toMatch(/search_path = pg_catalog, public, pg_temp/);
  });

  it('the textbook base-table path shares the scaffolding: pipelined too, no tenant', async () => {
    const events = recordWire(admin);
    const base = await executeSalesQueryBaseTable(admin, CONSULTA, CTX);
    await settled(admin);
    admin.removeAllListeners('acquire');
    expect(base).toEqual(await executeSalesQuery(db.analytics, CONSULTA, CTX));
    const query = events.find((e) => e.kind === 'parse');
    const rt = roundTrips(events, query && 'text' in query ? query.text : '?');
    expect(rt.before).toBe(0);
    expect(rt.tenantSets).toBe(0);
    expect(rt.sent.at(-1)).toBe('ROLLBACK');
  });
});

describe('the pipelined opening', () => {
  const pipelineOf = (c: pg.PoolClient) => (c as unknown as { pipeline: boolean }).pipeline;

  it('an answer and its period total: both queries go out with the opening, one round trip in all', async () => {
    const v = validateConsulta(
      { metrica: 'ticket_medio', agrupar_por: 'modalidade', periodo: 'este_ano' },
      '2026-03-16',
    );
    if (!v.ok || v.value.tipo !== 'consulta') throw new Error('consulta de teste inválida');
    const grouped = v.value.consulta;
    const total = periodTotalQuery(grouped);
    expect(total).not.toBeNull();
    const events = recordWire(analytics);
    const [rows, totals] = await executeSalesQueries(analytics, [grouped, total!], CTX);
    await settled(analytics);
    analytics.removeAllListeners('acquire');
    const parses = events.flatMap((e) => (e.kind === 'parse' ? [e.text] : []));
    expect(parses).toHaveLength(2);
    for (const text of parses) expect(roundTrips(events, text).before).toBe(0);
    // open + two queries + reset.
    expect(events.filter((e) => e.kind === 'ready')).toHaveLength(4);
    // The same rows as each query alone, in the order asked.
    expect(rows).toEqual(await executeSalesQuery(analytics, grouped, CTX));
    expect(totals).toEqual(await executeSalesQuery(analytics, total!, CTX));
    expect(rows!.length).toBeGreaterThan(0);
  });

  it('an opening that fails takes the queries behind it down with it (25P02); the caller gets its error', async () => {
    // The app role may not set a tenant: the opening fails after BEGIN.
    const app = new pg.Pool({ connectionString: db.appUrl, max: 1 });
    app.on('error', () => undefined);
    try {
      let behind: unknown;
      const err = await withTenantReadOnly(app, { merchantId: 1, timeoutMs: 3_000 }, (c) =>
        c.query('SELECT 1 AS um').catch((e: unknown) => {
          behind = e;
          throw e;
        }),
      ).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      // Never the raw database error, and not the aborted-transaction one it caused.
      expect(String((err as Error).message)).not.toMatch(/permission denied|25P02|aborted/i);
      expect((behind as { code?: string }).code).toBe('25P02');
      await settled(app);
      // The connection came back clean and out of pipeline mode.
      const c = await app.connect();
      try {
        expect(pipelineOf(c)).toBe(false);
        const r = await c.query<{ tx: string; m: string | null }>(
          "SELECT current_setting('transaction_read_only') AS tx, current_setting('balcao.merchant_id', true) AS m",
        );
        expect(r.rows[0]?.m ?? '').toBe('');
      } finally {
        c.release();
      }
    } finally {
      await app.end();
    }
  });

  it('a transaction that ends with a query still in flight destroys its connection instead of reusing it', async () => {
    const before = analytics.totalCount;
    expect(before).toBe(1);
    const err = await withTenantReadOnly(analytics, { merchantId: 1, timeoutMs: 3_000 }, (c) => {
      void c.query('SELECT count(*) FROM generate_series(1, 3000000)').catch(() => undefined);
      return Promise.reject(new Error('falha do chamador'));
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    await settled(analytics);
    expect(analytics.totalCount).toBe(0);
    // The next transaction gets a fresh connection, in pipeline mode only while it runs.
    const n = await withTenantReadOnly(
      analytics,
      { merchantId: 1, timeoutMs: 3_000 },
      async (c) => {
        expect(pipelineOf(c)).toBe(true);
        return (await c.query<{ n: number }>('SELECT count(*)::int AS n FROM vendas_aprovadas'))
          .rows[0]?.n;
      },
    );
    expect(n).toBe(5);
    await settled(analytics);
    const c = await analytics.connect();
    expect(pipelineOf(c)).toBe(false);
    c.release();
  });
});

describe('prepared sales queries (a pool that prepares: the analytics pool on a direct connection)', () => {
  let prepared: pg.Pool;
  beforeAll(() => {
    prepared = prepareStatements(new pg.Pool({ connectionString: db.analyticsUrl, max: 1 }));
    prepared.on('error', () => undefined);
  });
  afterAll(async () => {
    await prepared.end();
  });
  const parsesOf = (events: WireEvent[]) =>
    events.flatMap((e) => (e.kind === 'parse' ? [e.text] : []));

  it('are parsed once per connection: the next answer sends no Parse, keeps its round trips and its rows', async () => {
    const expected = await executeSalesQuery(analytics, CONSULTA, CTX);
    const first = recordWire(prepared);
    expect(await executeSalesQuery(prepared, CONSULTA, CTX)).toEqual(expected);
    await settled(prepared);
    prepared.removeAllListeners('acquire');
    expect(parsesOf(first)).toHaveLength(1);
    // The session reset keeps the named statements (nothing on this path can PREPARE).
    const reset = roundTrips(first, 'ROLLBACK').sent.at(-1) ?? '';
    expect(reset).toMatch(/^ROLLBACK; CLOSE ALL; SET SESSION AUTHORIZATION DEFAULT; RESET ALL; /);
    expect(reset).not.toMatch(/DEALLOCATE/);

    const again = recordWire(prepared);
    expect(await executeSalesQuery(prepared, CONSULTA, CTX)).toEqual(expected);
    await settled(prepared);
    prepared.removeAllListeners('acquire');
    expect(parsesOf(again)).toEqual([]);
    expect(again.filter((e) => e.kind === 'ready')).toHaveLength(3);
    expect(roundTrips(again, 'balcao_definir_lojista').tenantSets).toBe(1);
  });

  it('every shape the compiler makes settles on one generic plan: no re-planning on each answer', async () => {
    // PostgreSQL plans a prepared statement's first five runs with the values, then keeps a generic
    // plan unless it looks costlier. A shape whose row estimates follow the values (a LIMIT, an
    // integer series over the dates) never gets one and is planned again on every answer.
    const shapes: { name: string; label: string; text: string; values: unknown[] }[] = [];
    for (const metrica of METRICAS)
      for (const agrupar_por of AGRUPAMENTOS)
        for (const modalidades of [[], ['pix', 'debito']] as const)
          for (const [data_inicio, data_fim] of [
            ['2025-03-17', '2026-03-16'],
            ['2026-03-09', '2026-03-15'],
          ] as const)
            for (const limite of agrupar_por === 'nenhum' ? [null] : [null, 3]) {
              const q: ConsultaVendas = {
                metrica,
                agrupar_por,
                periodo: null,
                data_inicio,
                data_fim,
                modalidades: [...modalidades],
                ordem: limite ? 'decrescente' : null,
                limite,
              };
              for (const one of [q, periodTotalQuery(q)]) {
                if (!one) continue;
                const sql = compileSalesQuery(one, { ...CTX, source: 'rollups' });
                const label = [one.metrica, one.agrupar_por, one.modalidades.join('+') || 'todas']
                  .concat(one.data_inicio, one.limite ? `top${one.limite}` : [])
                  .join('·');
                shapes.push({ name: `s${shapes.length}`, label, ...sql });
              }
            }
    const c = new pg.Client({ connectionString: db.adminUrl });
    await c.connect();
    try {
      await c.query('BEGIN READ ONLY');
      await c.query('SET LOCAL ROLE balcao_analytics');
      await c.query('SELECT balcao_definir_lojista(1)');
      for (const s of shapes) {
        for (let i = 0; i < 7; i++) await c.query({ name: s.name, text: s.text, values: s.values });
      }
      await c.query('RESET ROLE');
      const r = await c.query<{ name: string; generic_plans: string }>(
        'SELECT name, generic_plans::text FROM pg_prepared_statements WHERE NOT from_sql',
      );
      const generic = new Map(r.rows.map((x) => [x.name, Number(x.generic_plans)]));
      const replanned = shapes.filter((s) => !(Number(generic.get(s.name)) > 0));
      expect(replanned.map((s) => s.label)).toEqual([]);
      expect(generic.size).toBe(shapes.length);
    } finally {
      await c.query('ROLLBACK').catch(() => undefined);
      await c.end();
    }
  });

  it('after untrusted free SQL the full reset drops them, and the next answer parses again instead of failing', async () => {
    const expected = await executeSalesQuery(analytics, CONSULTA, CTX);
    expect(await executeSalesQuery(prepared, CONSULTA, CTX)).toEqual(expected);
    await settled(prepared);
    // Free SQL on the same connection: what it PREPAREs is gone after it, and so are ours.
    const free = recordWire(prepared);
    await executeReadOnly(prepared, {
      merchantId: 1,
      sql: 'prepare p as select * from vendas_ia',
      timeoutMs: 3_000,
    }).catch(() => undefined);
    await settled(prepared);
    prepared.removeAllListeners('acquire');
    expect(roundTrips(free, 'ROLLBACK').sent.at(-1)).toMatch(/DEALLOCATE ALL; .*AS limpo$/s);
    const refused = await executeReadOnly(prepared, {
      merchantId: 1,
      sql: 'execute p',
      timeoutMs: 3_000,
    }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    await settled(prepared);

    const after = recordWire(prepared);
    expect(await executeSalesQuery(prepared, CONSULTA, CTX)).toEqual(expected);
    await settled(prepared);
    prepared.removeAllListeners('acquire');
    expect(parsesOf(after)).toHaveLength(1);
    // Same connection all along: nothing was destroyed to get there.
    expect(prepared.totalCount).toBe(1);
  });
});
