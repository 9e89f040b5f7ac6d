/**
 * The background fold of the sales rollups (migration 0580) on real PostgreSQL: the watermark
 * never passes a sale an in-flight transaction may still commit; a fold killed midway (backend
 * terminated, client process SIGKILLed) leaves nothing behind; the fold runs on its own on a
 * timer; and concurrent writers + readers, checked in the same snapshot against the base table.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsultaVendas } from '@shared/sales-dsl';
import { compileSalesQuery } from '../../src-main/sales/compile';
import {
  executeSalesQuery,
  executeSalesQueryBaseTable,
  executeSalesQueryRollups,
} from '../../src-main/sales/execute';
import {
  consolidarTudo,
  consolidarVendas,
  startVendasConsolidador,
} from '../../src-main/sales/consolidate';
import { ROLLUP_TIME_ZONE } from '../../src-main/sales/rollup-sql';
import { mulberry32 } from '../../src-main/db/prng';
import { createPool } from '../../src-main/db/pool';
import { createTestDatabase, type TestDatabase } from '../support/db';

const ZONE = ROLLUP_TIME_ZONE;
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await db.admin.query(
    `INSERT INTO merchants (id, nome) VALUES (1, 'Loja Um'), (2, 'Loja Dois'), (3, 'Loja Três')`,
  );
});
afterAll(() => db.drop());

const INSERT_ONE = `INSERT INTO transacoes (merchant_id, status, modalidade, bandeira,
    valor_bruto_centavos, valor_liquido_centavos, aprovada_em)
  VALUES ($1, 'aprovada', 'debito', 'visa', $2, $2, $3) RETURNING id`;

/** n random sales (set-based), Jan–Apr 2026. */
async function insertMany(n: number): Promise<void> {
  await db.admin.query(
    `INSERT INTO transacoes (merchant_id, status, modalidade, bandeira, valor_bruto_centavos,
       valor_liquido_centavos, aprovada_em)
     SELECT 1 + (g % 3), (ARRAY['aprovada','aprovada','aprovada','negada','estornada'])[1 + (g % 5)],
            m, CASE WHEN m = 'pix' THEN NULL ELSE 'elo' END, b, b - b / 50,
            timestamptz '2026-01-01 03:00Z' + random() * interval '110 days'
       FROM (SELECT g, (ARRAY['debito','credito_avista','credito_parcelado','pix'])[1 + (g / 7) % 4] AS m,
                    (random() * 40000)::bigint AS b
               FROM generate_series(1, $1::int) g) s`,
    [n],
  );
}

/** Rows of the six rollups that differ from a fresh aggregate of transacoes (zero rows aside). */
async function rollupDiff(): Promise<number> {
  const r = await db.admin.query<{ diff: number }>(`
    WITH e AS (
      SELECT merchant_id, (aprovada_em AT TIME ZONE '${ZONE}')::date AS dia,
             extract(hour FROM aprovada_em AT TIME ZONE '${ZONE}')::smallint AS hora,
             modalidade, bandeira, valor_bruto_centavos AS b, valor_liquido_centavos AS l
        FROM transacoes WHERE status = 'aprovada'),
    d AS (SELECT merchant_id, dia, modalidade, bandeira, count(*) q, sum(b)::bigint b, sum(l)::bigint l FROM e GROUP BY 1, 2, 3, 4),
    h AS (SELECT merchant_id, dia, hora, modalidade, count(*) q, sum(b)::bigint b, sum(l)::bigint l FROM e GROUP BY 1, 2, 3, 4),
    mh AS (SELECT merchant_id, date_trunc('month', dia)::date mes, hora, modalidade, count(*) q, sum(b)::bigint b, sum(l)::bigint l FROM e GROUP BY 1, 2, 3, 4),
    dm AS (SELECT merchant_id, dia, modalidade, count(*) q, sum(b)::bigint b, sum(l)::bigint l FROM e GROUP BY 1, 2, 3),
    mm AS (SELECT merchant_id, date_trunc('month', dia)::date mes, modalidade, bandeira, count(*) q, sum(b)::bigint b, sum(l)::bigint l FROM e GROUP BY 1, 2, 3, 4),
    dt AS (SELECT merchant_id, dia, count(*) q, sum(b)::bigint b, sum(l)::bigint l FROM e GROUP BY 1, 2),
    rd AS (SELECT merchant_id, dia, modalidade, bandeira, quantidade, bruto_centavos, liquido_centavos FROM vendas_diarias WHERE quantidade <> 0),
    rh AS (SELECT merchant_id, dia, hora, modalidade, quantidade, bruto_centavos, liquido_centavos FROM vendas_horarias WHERE quantidade <> 0),
    rmh AS (SELECT merchant_id, mes, hora, modalidade, quantidade, bruto_centavos, liquido_centavos FROM vendas_mes_hora WHERE quantidade <> 0),
    rdm AS (SELECT merchant_id, dia, modalidade, quantidade, bruto_centavos, liquido_centavos FROM vendas_dia_modalidade WHERE quantidade <> 0),
    rmm AS (SELECT merchant_id, mes, modalidade, bandeira, quantidade, bruto_centavos, liquido_centavos FROM vendas_mensais WHERE quantidade <> 0),
    rdt AS (SELECT merchant_id, dia, quantidade, bruto_centavos, liquido_centavos FROM vendas_dia_totais WHERE quantidade <> 0)
    SELECT ((SELECT count(*) FROM (SELECT * FROM d EXCEPT SELECT * FROM rd) x)
          + (SELECT count(*) FROM (SELECT * FROM rd EXCEPT SELECT * FROM d) x)
          + (SELECT count(*) FROM (SELECT * FROM h EXCEPT SELECT * FROM rh) x)
          + (SELECT count(*) FROM (SELECT * FROM rh EXCEPT SELECT * FROM h) x)
          + (SELECT count(*) FROM (SELECT * FROM mh EXCEPT SELECT * FROM rmh) x)
          + (SELECT count(*) FROM (SELECT * FROM rmh EXCEPT SELECT * FROM mh) x)
          + (SELECT count(*) FROM (SELECT * FROM dm EXCEPT SELECT * FROM rdm) x)
          + (SELECT count(*) FROM (SELECT * FROM rdm EXCEPT SELECT * FROM dm) x)
          + (SELECT count(*) FROM (SELECT * FROM mm EXCEPT SELECT * FROM rmm) x)
          + (SELECT count(*) FROM (SELECT * FROM rmm EXCEPT SELECT * FROM mm) x)
          + (SELECT count(*) FROM (SELECT * FROM dt EXCEPT SELECT * FROM rdt) x)
          + (SELECT count(*) FROM (SELECT * FROM rdt EXCEPT SELECT * FROM dt) x))::int AS diff`);
  return r.rows[0]?.diff ?? -1;
}

/** What the fold has written: state row + a checksum of the six rollups. */
async function foldState(): Promise<string> {
  const r = await db.admin.query<{ s: string }>(
    `SELECT (SELECT marca FROM vendas_consolidacao) || '|' ||
            (SELECT coalesce(sum(quantidade), 0) || ':' || coalesce(sum(bruto_centavos), 0) FROM vendas_diarias) || '|' ||
            (SELECT coalesce(sum(quantidade), 0) || ':' || count(*) FROM vendas_horarias) || '|' ||
            (SELECT coalesce(sum(quantidade), 0) || ':' || count(*) FROM vendas_mes_hora) || '|' ||
            (SELECT coalesce(sum(quantidade), 0) || ':' || count(*) FROM vendas_dia_modalidade) || '|' ||
            (SELECT coalesce(sum(quantidade), 0) || ':' || count(*) FROM vendas_mensais) || '|' ||
            (SELECT coalesce(sum(quantidade), 0) || ':' || count(*) FROM vendas_dia_totais) || '|' ||
            (SELECT count(*) FROM vendas_ajustes) AS s`,
  );
  return r.rows[0]?.s ?? '';
}

const total = (merchant: number, data_inicio = '2026-01-01', data_fim = '2026-12-31') =>
  ({
    metrica: 'total_bruto',
    agrupar_por: 'nenhum',
    periodo: null,
    data_inicio,
    data_fim,
    modalidades: [],
    ordem: null,
    limite: null,
  }) satisfies ConsultaVendas;

/** The period total through the rollups (forced: the product may read the base table, #40.8). */
async function ask(merchant: number): Promise<number> {
  const l = await executeSalesQueryRollups(db.analytics, total(merchant), {
    merchantId: merchant,
    timeZone: ZONE,
    timeoutMs: 10_000,
  });
  return Number(l[0]?.valor ?? 0);
}

async function waitFor(cond: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condição não atingida a tempo');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('safe watermark', () => {
  it('never folds past a sale an open transaction may still commit; answers stay exact', async () => {
    await consolidarTudo(db.app);
    const before = await ask(2);
    const a = new pg.Client({ connectionString: db.adminUrl });
    await a.connect();
    try {
      await a.query('BEGIN');
      const held = await a.query<{ id: string }>(INSERT_ONE, [2, 500, '2026-02-02T12:00:00Z']);
      // Later ids, committed while A is open.
      const later = await db.admin.query<{ id: string }>(INSERT_ONE, [
        2,
        70,
        '2026-02-02T12:00:00Z',
      ]);
      expect(BigInt(later.rows[0]?.id ?? 0)).toBeGreaterThan(BigInt(held.rows[0]?.id ?? 0));
      for (let i = 0; i < 4; i++) await consolidarVendas(db.app);
      const st = await db.admin.query<{ marca: string }>(
        'SELECT marca::text FROM vendas_consolidacao',
      );
      expect(BigInt(st.rows[0]?.marca ?? 0)).toBeLessThan(BigInt(held.rows[0]?.id ?? 0));
      expect(await ask(2)).toBe(before + 70);
      await a.query('COMMIT');
      expect(await ask(2)).toBe(before + 570);
      await consolidarTudo(db.app);
      expect(await ask(2)).toBe(before + 570);
      expect(await rollupDiff()).toBe(0);
    } finally {
      await a.end();
    }
  });

  it('handles TRUNCATE … RESTART IDENTITY (ids start over below the old watermark)', async () => {
    await insertMany(200);
    await consolidarTudo(db.app);
    await db.admin.query('TRUNCATE transacoes RESTART IDENTITY');
    expect(await ask(1)).toBe(0);
    await insertMany(150);
    const base = await executeSalesQueryBaseTable(db.admin, total(1), {
      merchantId: 1,
      timeZone: ZONE,
      timeoutMs: 10_000,
    });
    expect(await ask(1)).toBe(Number(base[0]?.valor));
    await consolidarTudo(db.app);
    expect(await rollupDiff()).toBe(0);
  });
});

describe('a fold killed midway leaves nothing behind', () => {
  /**
   * Holds the log (readers pass, writers wait) so a fold stops at its DELETE of the log, after
   * its one pass has written the batch and the log into all five rollups (migration 0840).
   */
  async function holdLastRollup(): Promise<pg.Client> {
    const h = new pg.Client({ connectionString: db.adminUrl });
    await h.connect();
    await h.query('BEGIN');
    await h.query('LOCK TABLE vendas_ajustes IN EXCLUSIVE MODE');
    return h;
  }
  const foldWaiting = (app: string) => async () => {
    const r = await db.admin.query(
      `SELECT 1 FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'`,
      [app],
    );
    return (r.rowCount ?? 0) > 0;
  };

  it('backend terminated inside the fold transaction', async () => {
    await insertMany(3000);
    await db.admin.query(
      `UPDATE transacoes SET status = 'estornada' WHERE id IN (SELECT id FROM transacoes WHERE status = 'aprovada' ORDER BY id LIMIT 40)`,
    );
    await consolidarVendas(db.app); // records the candidate
    const snapshot = await foldState();
    const h = await holdLastRollup();
    const pool = createPool(db.appUrl, { max: 1, applicationName: 'balcao-fold-teste' });
    try {
      const fold = consolidarVendas(pool, { lockTimeoutMs: 60_000 });
      fold.catch(() => undefined);
      await waitFor(foldWaiting('balcao-fold-teste'));
      await db.admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'balcao-fold-teste'`,
      );
      await expect(fold).rejects.toThrow();
    } finally {
      await h.query('ROLLBACK');
      await h.end();
      await pool.end();
    }
    expect(await foldState()).toBe(snapshot);
    await consolidarTudo(db.app);
    expect(await rollupDiff()).toBe(0);
  });

  it('client process SIGKILLed (kill -9) inside the fold transaction', async () => {
    await insertMany(3000);
    await db.admin.query(
      `DELETE FROM transacoes WHERE id IN (SELECT id FROM transacoes WHERE status = 'aprovada' ORDER BY id LIMIT 30)`,
    );
    await consolidarVendas(db.app);
    const snapshot = await foldState();
    const h = await holdLastRollup();
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', resolve(__dirname, '../support/fold-child.ts'), db.appUrl],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<NodeJS.Signals | null>((r) => child.on('exit', (_c, s) => r(s)));
    try {
      await waitFor(foldWaiting('balcao-fold-filho'), 30_000);
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await h.query('ROLLBACK');
      await h.end();
    }
    expect(out).not.toMatch(/ok/);
    // The orphaned backend finishes its statement, cannot get a COMMIT, and goes away.
    await waitFor(async () => {
      const r = await db.admin.query(
        `SELECT 1 FROM pg_stat_activity WHERE application_name = 'balcao-fold-filho'`,
      );
      return r.rowCount === 0;
    });
    expect(await foldState()).toBe(snapshot);
    await consolidarTudo(db.app);
    expect(await rollupDiff()).toBe(0);
  }, 60_000);
});

describe('runs on its own', () => {
  it('the timer folds new sales and logged changes without being called', async () => {
    const c = startVendasConsolidador(db.app, { intervalMs: 30 });
    try {
      await insertMany(500);
      await db.admin.query(
        `UPDATE transacoes SET valor_bruto_centavos = valor_bruto_centavos + 1 WHERE id % 7 = 0`,
      );
      await waitFor(async () => {
        const r = await db.admin.query<{ pend: boolean }>(
          `SELECT (SELECT count(*) FROM vendas_ajustes) = 0
              AND (SELECT marca FROM vendas_consolidacao) >= (SELECT max(id) FROM transacoes) AS pend`,
        );
        return r.rows[0]?.pend === true;
      });
    } finally {
      await c.stop();
    }
    expect(await rollupDiff()).toBe(0);
  });
});

describe('the delta logs stay small', () => {
  it('autovacuum takes each delta log as soon as a thousand entries were folded away (0850)', async () => {
    // Folds and readers scan these tables whole: their cost is the table's size, dead rows
    // included. The default threshold (20% of ~0 live rows plus 50) is tuned for tables that
    // keep their rows, so a bulk reversal left hundreds of MB of dead pages behind.
    const r = await db.admin.query<{ relname: string; reloptions: string[] }>(
      `SELECT relname, reloptions FROM pg_class
        WHERE relname IN ('vendas_ajustes', 'fila_contagens_delta', 'relatorio_dias_delta')
        ORDER BY relname`,
    );
    expect(r.rows).toEqual(
      ['fila_contagens_delta', 'relatorio_dias_delta', 'vendas_ajustes'].map((relname) => ({
        relname,
        reloptions: [
          'autovacuum_vacuum_scale_factor=0',
          'autovacuum_vacuum_threshold=1000',
          'autovacuum_vacuum_cost_delay=0',
        ],
      })),
    );
  });
});

describe('concurrent writers and readers', () => {
  it('every answer equals the base table in the same snapshot, and right after', async () => {
    const rand = mulberry32(15_2026);
    const queries: ConsultaVendas[] = [
      total(1),
      { ...total(1), agrupar_por: 'dia', data_inicio: '2026-01-20', data_fim: '2026-03-10' },
      { ...total(1), agrupar_por: 'hora', metrica: 'quantidade' },
      { ...total(1), agrupar_por: 'modalidade', metrica: 'ticket_medio' },
      { ...total(1), agrupar_por: 'dia_da_semana', metrica: 'total_liquido' },
    ];
    let running = true;
    const writer = async (k: number) => {
      const c = new pg.Client({ connectionString: db.adminUrl });
      await c.connect();
      try {
        while (running) {
          const m = 1 + Math.floor(rand() * 3);
          const at = new Date(Date.UTC(2026, 0, 1 + Math.floor(rand() * 100), rand() * 24));
          const op = rand();
          await c.query('BEGIN');
          if (op < 0.6) {
            await c.query(INSERT_ONE, [m, 1 + Math.floor(rand() * 9000), at.toISOString()]);
          } else if (op < 0.8) {
            await c.query(
              `UPDATE transacoes SET status = CASE status WHEN 'aprovada' THEN 'estornada' ELSE 'aprovada' END
                WHERE id = (SELECT id FROM transacoes WHERE merchant_id = $1 ORDER BY id DESC OFFSET $2 LIMIT 1)`,
              [m, Math.floor(rand() * 200)],
            );
          } else if (op < 0.9) {
            await c.query(
              `UPDATE transacoes SET aprovada_em = aprovada_em + interval '5 hours', merchant_id = $2
                WHERE id = (SELECT id FROM transacoes ORDER BY id DESC OFFSET $1 LIMIT 1)`,
              [Math.floor(rand() * 400), m],
            );
          } else {
            await c.query(
              `DELETE FROM transacoes WHERE id = (SELECT id FROM transacoes ORDER BY id DESC OFFSET $1 LIMIT 1)`,
              [Math.floor(rand() * 400)],
            );
          }
          // Some transactions stay open a little, as an authorization does.
          if (k % 2 === 0) await new Promise((r) => setTimeout(r, 5));
          await c.query('COMMIT');
        }
      } finally {
        await c.end();
      }
    };
    const folder = startVendasConsolidador(db.app, { intervalMs: 15 });
    const writers = [0, 1, 2, 3].map(writer);

    // Reader: base table (owner) and Balcão's SQL (analytics role, tenant views + pending rows)
    // in one exported snapshot.
    const owner = new pg.Client({ connectionString: db.adminUrl });
    const reader = new pg.Client({ connectionString: db.analyticsUrl });
    await owner.connect();
    await reader.connect();
    let compared = 0;
    try {
      const end = Date.now() + 4_000;
      while (Date.now() < end || compared < 20) {
        const merchant = 1 + (compared % 3);
        await owner.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
        const snap = await owner.query<{ s: string }>('SELECT pg_export_snapshot() AS s');
        await reader.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
        await reader.query(`SET TRANSACTION SNAPSHOT '${snap.rows[0]?.s ?? ''}'`);
        await reader.query('SELECT balcao_definir_lojista($1)', [merchant]);
        for (const q of queries) {
          const ctx = { merchantId: merchant, timeZone: ZONE };
          const viaBalcao = compileSalesQuery(q, { ...ctx, source: 'rollups' });
          const viaBase = compileSalesQuery(q, { ...ctx, source: 'base' });
          const b = await reader.query({ text: viaBalcao.text, values: viaBalcao.values });
          const a = await owner.query({ text: viaBase.text, values: viaBase.values });
          expect(b.rows, JSON.stringify(q)).toEqual(a.rows);
          compared++;
        }
        await reader.query('ROLLBACK');
        await owner.query('ROLLBACK');
      }
    } finally {
      running = false;
      await Promise.allSettled(writers);
      await folder.stop();
      await owner.end();
      await reader.end();
    }
    await Promise.all(writers);
    expect(compared).toBeGreaterThanOrEqual(20);
    // Right after: the product path (its own snapshot) against the base table.
    for (const merchant of [1, 2, 3]) {
      for (const q of queries) {
        const ctx = { merchantId: merchant, timeZone: ZONE, timeoutMs: 10_000 };
        const base = await executeSalesQueryBaseTable(db.admin, q, ctx);
        expect(await executeSalesQuery(db.analytics, q, ctx)).toEqual(base);
        expect(await executeSalesQueryRollups(db.analytics, q, ctx)).toEqual(base);
      }
    }
    await consolidarTudo(db.app);
    expect(await rollupDiff()).toBe(0);
  }, 60_000);
});
