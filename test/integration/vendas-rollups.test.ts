/**
 * Exactness of the sales rollups (migrations 0250 + 0580: rollups folded in the background, plus
 * the unfolded sales and logged changes read with them) against the base table, on real PostgreSQL:
 * random inserts, updates (status, merchant, modality, brand, date, values), deletes, MERGE,
 * upserts (INSERT … ON CONFLICT DO UPDATE) and a
 * truncate by ordinary writers, each followed by every metric × grouping × filter × period
 * through the product executor (rollups via tenant views, analytics role) compared with the
 * textbook query over transacoes, and the stored rollup rows compared with a fresh aggregate;
 * plus concurrent writers on the same merchant-day.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AGRUPAMENTOS,
  METRICAS,
  MODALIDADES,
  type ConsultaVendas,
  type Modalidade,
} from '@shared/sales-dsl';
import { mulberry32 } from '../../src-main/db/prng';
import { withTenantReadOnly } from '../../src-main/db/tenant';
import { compileSalesQuery } from '../../src-main/sales/compile';
import {
  executeSalesQuery,
  executeSalesQueryBaseTable,
  executeSalesQueryRollups,
} from '../../src-main/sales/execute';
import { planMonths, ROLLUP_TIME_ZONE, splitMonths } from '../../src-main/sales/rollup-sql';
import { consolidarTudo, consolidarVendas } from '../../src-main/sales/consolidate';
import { createTestDatabase, type TestDatabase } from '../support/db';

const ZONE = ROLLUP_TIME_ZONE;
const FILTROS: Modalidade[][] = [[], ['credito_avista', 'credito_parcelado'], ['pix']];
/**
 * Partial months at both ends; partial months at both ends read as whole months minus the days
 * outside; inside one month (read as the month minus its edges); whole months only; one day.
 */
const PERIODOS: [string, string][] = [
  ['2026-01-30', '2026-04-02'],
  ['2026-01-03', '2026-03-29'],
  ['2026-02-03', '2026-02-26'],
  ['2026-01-01', '2026-03-31'],
  ['2026-03-01', '2026-03-01'],
];
const BANDEIRAS = ['visa', 'mastercard', 'elo', 'amex', 'hipercard'];
const STATUS = ['aprovada', 'aprovada', 'aprovada', 'negada', 'estornada', 'chargeback'];

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await db.admin.query(
    `INSERT INTO merchants (id, nome) VALUES (1, 'Loja Um'), (2, 'Loja Dois'), (3, 'Loja Três')`,
  );
});
afterAll(() => db.drop());

const rand = mulberry32(8_2026);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;

/** An instant in Jan–Apr 2026, often within a second of a local midnight or an hour edge. */
function instant(): string {
  const day = 1 + Math.floor(rand() * 110);
  const base = Date.UTC(2026, 0, day, 3, 0, 0); // 00:00 in São Paulo (UTC-3)
  const r = rand();
  const offset =
    r < 0.2
      ? -1000 // 23:59:59 local, the day before
      : r < 0.35
        ? 0
        : r < 0.45
          ? Math.floor(rand() * 24) * 3_600_000 - 1
          : Math.floor(rand() * 86_400_000);
  return new Date(base + offset).toISOString();
}

function randomRow() {
  const modalidade = pick(MODALIDADES);
  const bruto = Math.floor(rand() * 50_000);
  return {
    merchant: 1 + Math.floor(rand() * 3),
    status: pick(STATUS),
    modalidade,
    bandeira: modalidade === 'pix' ? null : pick(BANDEIRAS),
    bruto,
    liquido: bruto - Math.floor(bruto * rand() * 0.05),
    em: instant(),
  };
}

async function insertRows(client: pg.Pool | pg.PoolClient, n: number): Promise<void> {
  const rows = Array.from({ length: n }, randomRow);
  await client.query({
    text: `INSERT INTO transacoes (merchant_id, status, modalidade, bandeira, valor_bruto_centavos,
             valor_liquido_centavos, aprovada_em)
           SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::bigint[],
             $6::bigint[], $7::timestamptz[])`,
    values: [
      rows.map((r) => r.merchant),
      rows.map((r) => r.status),
      rows.map((r) => r.modalidade),
      rows.map((r) => r.bandeira),
      rows.map((r) => r.bruto),
      rows.map((r) => r.liquido),
      rows.map((r) => r.em),
    ],
  });
}

async function randomIds(n: number): Promise<number[]> {
  const r = await db.admin.query<{ id: number }>(
    'SELECT id FROM transacoes ORDER BY random() LIMIT $1',
    [n],
  );
  return r.rows.map((x) => x.id);
}

/** Every kind of change a writer can make, single-row and multi-row statements. */
async function randomChanges(): Promise<void> {
  for (let k = 0; k < 16; k++) {
    const ids = await randomIds(1 + Math.floor(rand() * 20));
    const op = k % 8;
    if (op === 0) {
      await db.admin.query(
        `UPDATE transacoes SET status = CASE status WHEN 'aprovada' THEN 'estornada' ELSE 'aprovada' END
          WHERE id = ANY($1)`,
        [ids],
      );
    } else if (op === 1) {
      await db.admin.query('UPDATE transacoes SET merchant_id = $2 WHERE id = ANY($1)', [
        ids,
        1 + Math.floor(rand() * 3),
      ]);
    } else if (op === 2) {
      const m = pick(MODALIDADES);
      await db.admin.query(
        'UPDATE transacoes SET modalidade = $2, bandeira = $3 WHERE id = ANY($1)',
        [ids, m, m === 'pix' ? null : pick(BANDEIRAS)],
      );
    } else if (op === 3) {
      // Moves sales across local days, months and hours (and one row at a time too).
      for (const id of ids.slice(0, 3)) {
        await db.admin.query('UPDATE transacoes SET aprovada_em = $2 WHERE id = $1', [
          id,
          instant(),
        ]);
      }
      await db.admin.query(
        `UPDATE transacoes SET aprovada_em = aprovada_em + interval '3 hours' WHERE id = ANY($1)`,
        [ids],
      );
    } else if (op === 4) {
      await db.admin.query(
        `UPDATE transacoes SET valor_bruto_centavos = valor_bruto_centavos + 7,
                valor_liquido_centavos = valor_liquido_centavos + 3 WHERE id = ANY($1)`,
        [ids],
      );
      // A no-op update of every column must leave the rollups alone.
      await db.admin.query('UPDATE transacoes SET parcelas = parcelas WHERE id = ANY($1)', [ids]);
    } else if (op === 5) {
      await db.admin.query('DELETE FROM transacoes WHERE id = ANY($1)', [ids]);
    } else if (op === 6) {
      // MERGE: deletes, updates and inserts in one statement (three statement triggers).
      await db.admin.query(
        `MERGE INTO transacoes t
         USING (SELECT u.id, u.n FROM unnest($1::bigint[]) WITH ORDINALITY AS u(id, n)
                UNION ALL VALUES (-1::bigint, 0::bigint)) s ON t.id = s.id
         WHEN MATCHED AND s.n % 2 = 0 THEN DELETE
         WHEN MATCHED THEN UPDATE SET status = CASE t.status WHEN 'aprovada' THEN 'negada' ELSE 'aprovada' END,
                                      aprovada_em = t.aprovada_em - interval '20 hours'
         WHEN NOT MATCHED THEN INSERT (merchant_id, status, modalidade, bandeira,
                valor_bruto_centavos, valor_liquido_centavos, aprovada_em)
              VALUES (2, 'aprovada', 'pix', NULL, 4321, 4300, $2::timestamptz)`,
        [ids, instant()],
      );
    } else {
      // Upsert by id: the INSERT trigger sees new rows, the UPDATE trigger the changed ones.
      await db.admin.query(
        `INSERT INTO transacoes (id, merchant_id, status, modalidade, bandeira,
                valor_bruto_centavos, valor_liquido_centavos, aprovada_em)
         SELECT id, merchant_id, status, modalidade, bandeira, valor_bruto_centavos,
                valor_liquido_centavos, aprovada_em FROM transacoes WHERE id = ANY($1)
         ON CONFLICT (id) DO UPDATE SET merchant_id = 1 + excluded.merchant_id % 3,
                valor_bruto_centavos = transacoes.valor_bruto_centavos + 100`,
        [ids],
      );
    }
  }
  await insertRows(db.admin, 30);
}

function queries(): ConsultaVendas[] {
  const out: ConsultaVendas[] = [];
  for (const metrica of METRICAS)
    for (const agrupar_por of AGRUPAMENTOS)
      for (const modalidades of FILTROS)
        for (const [data_inicio, data_fim] of PERIODOS) {
          // "Best N" on some of them: the ordering wraps the rollup aggregate too.
          const top = agrupar_por !== 'nenhum' && modalidades.length === 1;
          out.push({
            metrica,
            agrupar_por,
            periodo: null,
            data_inicio,
            data_fim,
            modalidades,
            ordem: top ? 'decrescente' : null,
            limite: top ? 3 : null,
          });
        }
  return out;
}

/**
 * Queries for a merchant through the product executor (rollups: analytics role, tenant views) vs
 * the textbook query on transacoes (owner connection): every `stride`-th from `offset`.
 */
async function expectRollupsEqualBase(
  merchant: number,
  stride: number,
  offset = 0,
): Promise<number> {
  let compared = 0;
  const ctx = { merchantId: merchant, timeZone: ZONE, timeoutMs: 10_000 };
  for (const [i, q] of queries().entries()) {
    if (i % stride !== offset) continue;
    const viaRollups = await executeSalesQuery(db.analytics, q, ctx);
    const base = await executeSalesQueryBaseTable(db.admin, q, ctx);
    expect(viaRollups, `${merchant} ${JSON.stringify(q)}`).toEqual(base);
    // The product executor may read a small period from the base table (#40.8): the rollups
    // themselves are checked on every query too.
    expect(
      await executeSalesQueryRollups(db.analytics, q, ctx),
      `rollups ${merchant} ${JSON.stringify(q)}`,
    ).toEqual(base);
    compared++;
  }
  return compared;
}

/** Has the merchant sales above the watermark or unapplied changes (which path 0820 takes)? */
async function pending(merchant: number): Promise<boolean> {
  const r = await db.admin.query<{ p: boolean }>(
    'SELECT balcao_vendas_tem_pendentes($1, marca) AS p FROM vendas_consolidacao',
    [merchant],
  );
  return r.rows[0]!.p;
}

/**
 * After a complete fold (by the app role, as the app and the worker run it), the stored rollup
 * rows themselves equal a fresh aggregate of transacoes (zero rows aside) and nothing is pending.
 */
async function expectTablesEqualRebuild(): Promise<void> {
  await consolidarTudo(db.app);
  const p = await db.admin.query<{ pend: number; marca: string; max: string | null }>(
    `SELECT (SELECT count(*)::int FROM vendas_ajustes) AS pend,
            (SELECT marca::text FROM vendas_consolidacao) AS marca,
            (SELECT max(id)::text FROM transacoes) AS max`,
  );
  expect(p.rows[0]?.pend).toBe(0);
  expect(BigInt(p.rows[0]?.marca ?? '0')).toBeGreaterThanOrEqual(BigInt(p.rows[0]?.max ?? '0'));
  const r = await db.admin.query<{ diff: number }>(`
    WITH esperado AS (
      SELECT merchant_id, (aprovada_em AT TIME ZONE '${ZONE}')::date AS dia,
             extract(hour FROM aprovada_em AT TIME ZONE '${ZONE}')::smallint AS hora,
             modalidade, bandeira, valor_bruto_centavos AS b, valor_liquido_centavos AS l
        FROM transacoes WHERE status = 'aprovada'),
    d AS (SELECT merchant_id, dia, modalidade, bandeira, count(*) q, sum(b)::bigint b, sum(l)::bigint l
            FROM esperado GROUP BY 1, 2, 3, 4),
    h AS (SELECT merchant_id, dia, hora, modalidade, count(*) q, sum(b)::bigint b, sum(l)::bigint l
            FROM esperado GROUP BY 1, 2, 3, 4),
    mh AS (SELECT merchant_id, date_trunc('month', dia)::date mes, hora, modalidade, count(*) q,
                  sum(b)::bigint b, sum(l)::bigint l FROM esperado GROUP BY 1, 2, 3, 4),
    dm AS (SELECT merchant_id, dia, modalidade, count(*) q, sum(b)::bigint b, sum(l)::bigint l
             FROM esperado GROUP BY 1, 2, 3),
    mm AS (SELECT merchant_id, date_trunc('month', dia)::date mes, modalidade, bandeira, count(*) q,
                  sum(b)::bigint b, sum(l)::bigint l FROM esperado GROUP BY 1, 2, 3, 4),
    dt AS (SELECT merchant_id, dia, count(*) q, sum(b)::bigint b, sum(l)::bigint l
             FROM esperado GROUP BY 1, 2),
    rd AS (SELECT merchant_id, dia, modalidade, bandeira, quantidade q, bruto_centavos b, liquido_centavos l
             FROM vendas_diarias WHERE quantidade > 0),
    rh AS (SELECT merchant_id, dia, hora, modalidade, quantidade q, bruto_centavos b, liquido_centavos l
             FROM vendas_horarias WHERE quantidade > 0),
    rmh AS (SELECT merchant_id, mes, hora, modalidade, quantidade q, bruto_centavos b, liquido_centavos l
              FROM vendas_mes_hora WHERE quantidade > 0),
    rdm AS (SELECT merchant_id, dia, modalidade, quantidade q, bruto_centavos b, liquido_centavos l
              FROM vendas_dia_modalidade WHERE quantidade > 0),
    rmm AS (SELECT merchant_id, mes, modalidade, bandeira, quantidade q, bruto_centavos b, liquido_centavos l
              FROM vendas_mensais WHERE quantidade > 0),
    rdt AS (SELECT merchant_id, dia, quantidade q, bruto_centavos b, liquido_centavos l
              FROM vendas_dia_totais WHERE quantidade > 0)
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
  expect(r.rows[0]?.diff).toBe(0);
  // Zero rows (left by reversals) carry nothing.
  const z = await db.admin.query<{ n: number }>(
    `SELECT (SELECT count(*) FROM vendas_diarias WHERE quantidade = 0 AND (bruto_centavos <> 0 OR liquido_centavos <> 0))
          + (SELECT count(*) FROM vendas_horarias WHERE quantidade = 0 AND (bruto_centavos <> 0 OR liquido_centavos <> 0))
          + (SELECT count(*) FROM vendas_mes_hora WHERE quantidade = 0 AND (bruto_centavos <> 0 OR liquido_centavos <> 0))
          + (SELECT count(*) FROM vendas_dia_modalidade WHERE quantidade = 0 AND (bruto_centavos <> 0 OR liquido_centavos <> 0))
          + (SELECT count(*) FROM vendas_mensais WHERE quantidade = 0 AND (bruto_centavos <> 0 OR liquido_centavos <> 0))
          + (SELECT count(*) FROM vendas_dia_totais WHERE quantidade = 0 AND (bruto_centavos <> 0 OR liquido_centavos <> 0)) AS n`,
  );
  expect(Number(z.rows[0]?.n)).toBe(0);
}

describe('sales rollups stay exact under every kind of write', () => {
  it('uses the zone fixed by the migration', async () => {
    const r = await db.admin.query<{ z: string }>('SELECT balcao_rollup_zona() AS z');
    expect(r.rows[0]?.z).toBe(ROLLUP_TIME_ZONE);
  });

  it('the product executor reads the rollups, parameterized, and only in their zone', async () => {
    const q = (over: Partial<ConsultaVendas>): ConsultaVendas => ({
      metrica: 'ticket_medio',
      agrupar_por: 'nenhum',
      periodo: null,
      data_inicio: '2026-01-30',
      data_fim: '2026-04-02',
      modalidades: ['pix', 'debito'],
      ordem: null,
      limite: null,
      ...over,
    });
    for (const agrupar_por of AGRUPAMENTOS) {
      const c = compileSalesQuery(q({ agrupar_por }), {
        merchantId: 1,
        timeZone: ZONE,
        source: 'rollups',
      });
      expect(c.text).toMatch(/vendas_(diarias|horarias|mes_hora|dia_modalidade|mensais)_atuais\(/);
      expect(c.text).not.toMatch(/transacoes|vendas_aprovadas/);
      expect(c.text.replace(/\$\d+/g, '$n')).not.toMatch(/2026|pix|debito|Sao_Paulo/);
      // With a modality filter, never the day totals (they have no modality).
      expect(c.text).not.toMatch(/vendas_dia_totais_atuais/);
    }
    // Without one, the day-grain parts of these groupings read one row per day (0860); the
    // others keep the rollup that has their column.
    for (const agrupar_por of AGRUPAMENTOS) {
      const c = compileSalesQuery(q({ agrupar_por, modalidades: [] }), {
        merchantId: 1,
        timeZone: ZONE,
        source: 'rollups',
      });
      const totais = ['nenhum', 'mes', 'dia', 'dia_da_semana'].includes(agrupar_por);
      expect(/vendas_dia_totais_atuais\(/.test(c.text), agrupar_por).toBe(totais);
      if (totais) expect(c.text, agrupar_por).not.toMatch(/vendas_dia_modalidade_atuais\(/);
    }
    // A period longer than a validated one (built by hand) still gets every day and month.
    const ctx = { merchantId: 1, timeZone: ZONE, timeoutMs: 5000 };
    const longo = { data_inicio: '2025-01-15', data_fim: '2026-04-02', modalidades: [] };
    const dias = await executeSalesQuery(db.analytics, q({ ...longo, agrupar_por: 'dia' }), ctx);
    expect(dias.map((l) => l.grupo)).toHaveLength(443);
    expect([dias[0]?.grupo, dias.at(-1)?.grupo]).toEqual(['2025-01-15', '2026-04-02']);
    const meses = await executeSalesQuery(db.analytics, q({ ...longo, agrupar_por: 'mes' }), ctx);
    expect(meses.map((l) => l.grupo)).toHaveLength(16);
    expect([meses[0]?.grupo, meses.at(-1)?.grupo]).toEqual(['2025-01', '2026-04']);
    expect(() =>
      compileSalesQuery(q({}), { merchantId: 1, timeZone: 'America/Manaus', source: 'rollups' }),
    ).toThrow();
    // Another zone: the executor falls back to the tenant view over transacoes, still exact.
    await insertRows(db.admin, 200);
    const manaus = { merchantId: 1, timeZone: 'America/Manaus', timeoutMs: 5000 };
    for (const agrupar_por of ['dia', 'hora'] as const) {
      const one = q({ agrupar_por, metrica: 'total_bruto', modalidades: [] });
      expect(await executeSalesQuery(db.analytics, one, manaus)).toEqual(
        await executeSalesQueryBaseTable(db.admin, one, manaus),
      );
    }
  });

  it('splits periods into whole months and edge days', () => {
    expect(splitMonths('2026-01-30', '2026-04-03')).toEqual({
      meses: ['2026-02-01', '2026-04-01'],
      cabeca: ['2026-01-30', '2026-02-01'],
      cauda: ['2026-04-01', '2026-04-03'],
    });
    expect(splitMonths('2026-02-03', '2026-02-27')).toEqual({
      meses: ['2026-03-01', '2026-03-01'],
      cabeca: ['2026-02-03', '2026-02-27'],
      cauda: ['2026-02-27', '2026-02-27'],
    });
    expect(splitMonths('2026-01-01', '2026-04-01').meses).toEqual(['2026-01-01', '2026-04-01']);
  });

  it('reads an edge month mostly inside the period as the month minus the days outside', () => {
    // The year ending 2026-12-02: December 2025 whole minus its first two days; December 2026's
    // two days as they are.
    expect(planMonths('2025-12-03', '2026-12-03')).toEqual({
      meses: ['2025-12-01', '2026-12-01'],
      somar: [['2026-12-01', '2026-12-03']],
      subtrair: [['2025-12-01', '2025-12-03']],
    });
    expect(planMonths('2026-01-03', '2026-03-30')).toEqual({
      meses: ['2026-01-01', '2026-04-01'],
      somar: [],
      subtrair: [
        ['2026-01-01', '2026-01-03'],
        ['2026-03-30', '2026-04-01'],
      ],
    });
    // Inside one month: the month minus both edges, or the days when they are fewer.
    expect(planMonths('2026-02-03', '2026-02-27')).toEqual({
      meses: ['2026-02-01', '2026-03-01'],
      somar: [],
      subtrair: [
        ['2026-02-01', '2026-02-03'],
        ['2026-02-27', '2026-03-01'],
      ],
    });
    expect(planMonths('2026-03-01', '2026-03-02')).toEqual({
      meses: null,
      somar: [['2026-03-01', '2026-03-02']],
      subtrair: [],
    });
    // Whole months and edges closer to the period's side stay as splitMonths has them.
    expect(planMonths('2026-01-30', '2026-04-03')).toEqual({
      meses: ['2026-02-01', '2026-04-01'],
      somar: [
        ['2026-01-30', '2026-02-01'],
        ['2026-04-01', '2026-04-03'],
      ],
      subtrair: [],
    });
  });

  it('matches the base table after inserts, updates, deletes and a truncate', async () => {
    await insertRows(db.admin, 600);
    await insertRows(db.admin, 1); // a single-row statement
    await expectTablesEqualRebuild();
    // Nothing pending: the functions answer from the folded rows alone (0820's short path).
    expect(await pending(1)).toBe(false);
    expect(await expectRollupsEqualBase(1, 2)).toBe(queries().length / 2);

    await randomChanges();
    // Unfolded: new sales above the watermark and logged changes are read with the rollups.
    expect(await pending(3)).toBe(true);
    await expectRollupsEqualBase(3, 7);
    await consolidarVendas(db.app); // a partial state: a candidate recorded, some log applied
    await randomChanges();
    await consolidarVendas(db.app);
    await expectRollupsEqualBase(1, 7, 3);
    await expectTablesEqualRebuild();
    await expectRollupsEqualBase(2, 5);

    // A rolled-back write leaves no trace.
    const c = await db.admin.connect();
    try {
      await c.query('BEGIN');
      await c.query(`UPDATE transacoes SET status = 'estornada' WHERE merchant_id = 1`);
      await insertRows(c, 50);
      await c.query('ROLLBACK');
    } finally {
      c.release();
    }
    await expectTablesEqualRebuild();

    await db.admin.query('TRUNCATE transacoes');
    const left = await db.admin.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM vendas_diarias) + (SELECT count(*) FROM vendas_horarias) + (SELECT count(*) FROM vendas_mes_hora)
            + (SELECT count(*) FROM vendas_dia_modalidade) + (SELECT count(*) FROM vendas_mensais)
            + (SELECT count(*) FROM vendas_dia_totais) AS n`,
    );
    expect(Number(left.rows[0]?.n)).toBe(0);
    await insertRows(db.admin, 300);
    await randomChanges();
    await expectRollupsEqualBase(1, 9, 4);
    await expectTablesEqualRebuild();
    // With the first check, every query of the matrix has been compared once.
    await expectRollupsEqualBase(2, 2, 1);
  }, 180_000);

  it('reflects a status change made a moment before the question (no refresh)', async () => {
    const day = '2026-02-10';
    const ask = async () => {
      const linhas = await executeSalesQuery(
        db.analytics,
        {
          metrica: 'total_bruto',
          agrupar_por: 'nenhum',
          periodo: null,
          data_inicio: day,
          data_fim: day,
          modalidades: [],
          ordem: null,
          limite: null,
        },
        { merchantId: 3, timeZone: ZONE, timeoutMs: 5000 },
      );
      return linhas[0]?.valor;
    };
    const before = await ask();
    const ins = await db.admin.query<{ id: number }>(
      `INSERT INTO transacoes (merchant_id, status, modalidade, bandeira, valor_bruto_centavos,
         valor_liquido_centavos, aprovada_em)
       VALUES (3, 'aprovada', 'pix', NULL, 12345, 12000, '2026-02-11T02:59:59.999Z') RETURNING id`,
    );
    expect(await ask()).toBe((before ?? 0) + 12345);
    await db.admin.query(`UPDATE transacoes SET status = 'estornada' WHERE id = $1`, [
      ins.rows[0]?.id,
    ]);
    expect(await ask()).toBe(before);
  });

  it('is maintained for a writer role with no grant on the rollups', async () => {
    const role = `balcao_t_escritor_${randomBytes(4).toString('hex')}`;
    await db.admin.query(`CREATE ROLE ${role}`);
    try {
      await db.admin.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON transacoes TO ${role}`);
      await db.admin.query(`GRANT USAGE ON SEQUENCE transacoes_id_seq TO ${role}`);
      const c = await db.admin.connect();
      try {
        await c.query(`SET ROLE ${role}`);
        await expect(c.query('SELECT * FROM vendas_diarias')).rejects.toThrow(/permission denied/);
        await insertRows(c, 40);
        await c.query(
          `UPDATE transacoes SET status = 'negada' WHERE id IN (SELECT id FROM transacoes ORDER BY id DESC LIMIT 5)`,
        );
        await c.query(
          `DELETE FROM transacoes WHERE id IN (SELECT id FROM transacoes ORDER BY id DESC LIMIT 3)`,
        );
        await c.query('RESET ROLE');
      } finally {
        c.release();
      }
      await expectTablesEqualRebuild();
    } finally {
      await db.admin.query(`DROP OWNED BY ${role}`);
      await db.admin.query(`DROP ROLE ${role}`);
    }
  });
});

describe('tenant access to the rollups', () => {
  it('the analytics role reads only its tenant, only through the current-state functions', async () => {
    await insertRows(db.admin, 100);
    await consolidarTudo(db.app);
    for (const t of [
      'vendas_diarias',
      'vendas_horarias',
      'vendas_mes_hora',
      'vendas_dia_modalidade',
      'vendas_mensais',
      'vendas_dia_totais',
      'vendas_ajustes',
      'vendas_consolidacao',
    ]) {
      await expect(db.analytics.query(`SELECT 1 FROM ${t} LIMIT 1`)).rejects.toThrow(
        /permission denied/,
      );
    }
    // The analytics role cannot run the fold.
    await expect(db.analytics.query('SELECT balcao_vendas_consolidar(NULL, 1)')).rejects.toThrow(
      /permission denied/,
    );
    // Without a tenant the current rollups (folded and pending alike) are empty.
    const none = await db.analytics.query(
      "SELECT count(*)::int AS n FROM vendas_diarias_atuais('1900-01-01', '2999-01-01')",
    );
    expect(none.rows[0]).toEqual({ n: 0 });
    await insertRows(db.admin, 20);
    const nonePending = await db.analytics.query(
      "SELECT count(*)::int AS n FROM vendas_horarias_atuais('1900-01-01', '2999-01-01')",
    );
    expect(nonePending.rows[0]).toEqual({ n: 0 });
    await consolidarTudo(db.app);
    const seen = await withTenantReadOnly(
      db.analytics,
      { merchantId: 2, timeoutMs: 5000 },
      async (c) => {
        const r = await c.query<{ q: number }>(
          "SELECT coalesce(sum(quantidade), 0)::int AS q FROM vendas_diarias_atuais('1900-01-01', '2999-01-01')",
        );
        return r.rows[0]?.q;
      },
    );
    const expected = await db.admin.query<{ q: number }>(
      `SELECT count(*)::int AS q FROM transacoes WHERE merchant_id = 2 AND status = 'aprovada'`,
    );
    expect(seen).toBe(expected.rows[0]?.q);
    expect(seen).toBeGreaterThan(0);
  });
});

describe('concurrent writers', () => {
  it('two writers of the same merchant-day never wait on each other and lose no update', async () => {
    const a = new pg.Client({ connectionString: db.adminUrl });
    const b = new pg.Client({ connectionString: db.adminUrl });
    await a.connect();
    await b.connect();
    try {
      const at = '2026-03-15T15:00:00Z';
      const sql = `INSERT INTO transacoes (merchant_id, status, modalidade, bandeira,
                     valor_bruto_centavos, valor_liquido_centavos, aprovada_em)
                   VALUES (3, 'aprovada', 'debito', 'visa', $1, $1, $2)`;
      // Same merchant, day, modality and brand: B's insert does not wait for A's transaction.
      await a.query('BEGIN');
      await b.query('BEGIN');
      await a.query(sql, [100, at]);
      // Were B to wait for A's locks, it would wait until A commits — after B returns, so never:
      // the lock timeout turns such a wait into an error instead of a slow pass.
      await b.query(`SET LOCAL lock_timeout = '5s'`);
      await expect(b.query(sql, [1000, at])).resolves.toBeDefined();
      await b.query('COMMIT');
      await a.query('COMMIT');
      // Then many small writes on the same rollup rows from both connections at once.
      const work = (c: pg.Client, v: number) =>
        (async () => {
          for (let i = 0; i < 40; i++) {
            await c.query('BEGIN');
            await c.query(sql, [v, at]);
            await c.query(
              `UPDATE transacoes SET status = 'estornada'
                WHERE id = (SELECT id FROM transacoes WHERE merchant_id = 3 AND aprovada_em = $1
                              AND status = 'aprovada' AND valor_bruto_centavos = $2 LIMIT 1)`,
              [at, v],
            );
            await c.query(sql, [v, at]);
            await c.query('COMMIT');
          }
        })();
      // A fold running meanwhile, as in the app.
      let folding = true;
      const folder = (async () => {
        while (folding) {
          await consolidarVendas(db.app);
          await new Promise((r) => setTimeout(r, 5));
        }
      })();
      await Promise.all([work(a, 7), work(b, 11)]);
      folding = false;
      await folder;
      await consolidarTudo(db.app);
      const r = await db.admin.query<{ q: number; b: number }>(
        `SELECT quantidade AS q, bruto_centavos AS b FROM vendas_diarias
          WHERE merchant_id = 3 AND dia = '2026-03-15' AND modalidade = 'debito' AND bandeira = 'visa'`,
      );
      const base = await db.admin.query<{ q: number; b: number }>(
        `SELECT count(*)::int AS q, sum(valor_bruto_centavos)::bigint AS b FROM transacoes
          WHERE merchant_id = 3 AND status = 'aprovada' AND modalidade = 'debito' AND bandeira = 'visa'
            AND (aprovada_em AT TIME ZONE '${ZONE}')::date = '2026-03-15'`,
      );
      expect(Number(r.rows[0]?.q)).toBe(base.rows[0]?.q);
      expect(Number(r.rows[0]?.b)).toBe(base.rows[0]?.b);
      expect(Number(r.rows[0]?.b)).toBeGreaterThanOrEqual(1100 + 40 * 7 + 40 * 11);
      await expectTablesEqualRebuild();
    } finally {
      await a.end();
      await b.end();
    }
  });
});
