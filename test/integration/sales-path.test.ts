/**
 * The path chooser on real PostgreSQL (#40.8): the product executor reads a small merchant's day
 * from the base table (tenant view, textbook index) and a big merchant's year from the rollups;
 * and whichever it reads, the answer is the same — both paths, and the textbook query on
 * transacoes, give identical rows for every metric × grouping × filter (with top-N) over days,
 * weeks, partial months and a year, also with sales the fold has not moved into the rollups yet
 * and changes logged after it (reversals, deletes, moved dates, re-priced sales).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGRUPAMENTOS, METRICAS, type ConsultaVendas, type Modalidade } from '@shared/sales-dsl';
import { withTenantReadOnly } from '../../src-main/db/tenant';
import { compileSalesQuery } from '../../src-main/sales/compile';
import { consolidarTudo } from '../../src-main/sales/consolidate';
import {
  executeSalesQuery,
  executeSalesQueryBaseTable,
  executeSalesQueryRollups,
  executeSalesQueryTenantView,
  type ExecuteContext,
} from '../../src-main/sales/execute';
import { VOLUME_REFRESH_ANSWERS, type SalesPath } from '../../src-main/sales/path';
import { ROLLUP_TIME_ZONE } from '../../src-main/sales/rollup-sql';
import { createTestDatabase, type TestDatabase } from '../support/db';

const GRANDE = 1;
const PEQUENO = 2;
const OUTRO = 3;

let db: TestDatabase;
/** An analytics pool whose clients record the SQL they send. */
let analytics: pg.Pool;
/** SQL texts the analytics pool's clients ran, in order. */
const sent: string[] = [];

/**
 * `n` sales of a merchant spread over [desde, desde + dias), every modality and brand, some
 * declined or reversed; deterministic (no random()).
 */
function vendas(merchant: number, n: number, desde: string, dias: number) {
  return db.admin.query(
    `INSERT INTO transacoes (merchant_id, status, modalidade, bandeira, valor_bruto_centavos,
       valor_liquido_centavos, aprovada_em)
     SELECT $1, CASE WHEN g % 11 = 0 THEN 'negada' WHEN g % 13 = 0 THEN 'estornada' ELSE 'aprovada' END,
            m, CASE WHEN m = 'pix' THEN NULL ELSE (ARRAY['visa','mastercard','elo','amex'])[1 + g % 4] END,
            b, b - b / 40,
            ($3::date::timestamp AT TIME ZONE 'America/Sao_Paulo')
              + ((g * 7919) % ($4::int * 86400)) * interval '1 second'
       FROM (SELECT g, (ARRAY['debito','credito_avista','credito_parcelado','pix'])[1 + (g / 3) % 4] AS m,
                    500 + (g * 104729) % 90000 AS b
               FROM generate_series(1, $2::int) g) s`,
    [merchant, n, desde, dias],
  );
}

beforeAll(async () => {
  db = await createTestDatabase();
  await db.admin.query(
    `INSERT INTO merchants (id, nome) VALUES (${GRANDE}, 'Atacado Grande'),
       (${PEQUENO}, 'Banca Pequena'), (${OUTRO}, 'Vizinho')`,
  );
  // The big one: ~1,500 sales a month for 13 months; the small one: ~30 in the year.
  await vendas(GRANDE, 20_000, '2025-03-01', 396);
  await vendas(PEQUENO, 30, '2025-03-01', 396);
  await vendas(OUTRO, 500, '2025-03-01', 396);
  await consolidarTudo(db.app);
  // After the fold: sales above the watermark, and logged changes of folded ones.
  await vendas(GRANDE, 300, '2026-03-20', 12);
  await vendas(PEQUENO, 4, '2026-03-28', 4);
  await db.admin.query(
    `UPDATE transacoes SET status = 'estornada'
      WHERE id IN (SELECT id FROM transacoes WHERE merchant_id = ANY($1) AND status = 'aprovada'
                    ORDER BY id LIMIT 40)`,
    [[GRANDE, PEQUENO]],
  );
  await db.admin.query(
    `UPDATE transacoes SET aprovada_em = aprovada_em + interval '20 hours',
            valor_bruto_centavos = valor_bruto_centavos + 3
      WHERE id IN (SELECT id FROM transacoes WHERE merchant_id = ANY($1) ORDER BY id DESC LIMIT 60)`,
    [[GRANDE, PEQUENO]],
  );
  await db.admin.query(
    `DELETE FROM transacoes WHERE id IN (SELECT id FROM transacoes WHERE merchant_id = $1
                                           ORDER BY id LIMIT 5 OFFSET 100)`,
    [PEQUENO],
  );
  const p = await db.admin.query<{ n: number }>('SELECT count(*)::int AS n FROM vendas_ajustes');
  expect(p.rows[0]?.n).toBeGreaterThan(0); // the check needs unfolded changes

  analytics = new pg.Pool({ connectionString: db.analyticsUrl, max: 2 });
  analytics.on('error', () => undefined);
  analytics.on('acquire', (client) => {
    const c = client as unknown as { query: (...a: unknown[]) => unknown; balcaoRecorded?: true };
    if (c.balcaoRecorded) return;
    c.balcaoRecorded = true;
    const query = c.query.bind(client);
    c.query = (...args: unknown[]) => {
      const a = args[0];
      sent.push(typeof a === 'string' ? a : String((a as { text?: unknown }).text ?? ''));
      return query(...args);
    };
  });
});
afterAll(async () => {
  await analytics?.end();
  await db?.drop();
});

function consulta(over: Partial<ConsultaVendas>): ConsultaVendas {
  return {
    metrica: 'total_bruto',
    agrupar_por: 'nenhum',
    periodo: null,
    data_inicio: '2026-03-31',
    data_fim: '2026-03-31',
    modalidades: [],
    ordem: null,
    limite: null,
    ...over,
  };
}

const DIA = { data_inicio: '2026-03-30', data_fim: '2026-03-30' };
const ANO = { data_inicio: '2025-04-01', data_fim: '2026-03-31' };

/** The product executor's answer, the path it took and the SQL it sent. */
async function produto(merchantId: number, q: ConsultaVendas) {
  const paths: SalesPath[] = [];
  const ctx: ExecuteContext = {
    merchantId,
    timeZone: ROLLUP_TIME_ZONE,
    timeoutMs: 10_000,
    onPath: (p) => paths.push(p),
  };
  const from = sent.length;
  const linhas = await executeSalesQuery(analytics, q, ctx);
  const sql = sent.slice(from).filter((t) => /\bvalor\b/.test(t));
  expect(paths).toHaveLength(1);
  expect(sql).toHaveLength(1);
  return { linhas, path: paths[0], sql: sql[0] ?? '' };
}

const ctxOf = (merchantId: number) => ({
  merchantId,
  timeZone: ROLLUP_TIME_ZONE,
  timeoutMs: 10_000,
});

describe('the product executor chooses the path per question', () => {
  it("a small merchant's day on the base table, a big merchant's year on the rollups", async () => {
    // Nothing known of a merchant yet: the rollups, which read its volume in the same statement.
    for (const m of [PEQUENO, GRANDE]) {
      const first = await produto(m, consulta({ ...ANO, metrica: 'quantidade' }));
      expect(first.path).toBe('rollups');
      expect(first.sql).toMatch(/AS maior_mes/);
    }
    for (const agrupar_por of AGRUPAMENTOS) {
      const dia = await produto(PEQUENO, consulta({ ...DIA, agrupar_por }));
      expect(dia.path, agrupar_por).toBe('base');
      expect(dia.sql, agrupar_por).toMatch(/FROM vendas_aprovadas v/);
      expect(dia.sql, agrupar_por).not.toMatch(/_atuais\(|maior_mes/);

      const ano = await produto(GRANDE, consulta({ ...ANO, agrupar_por }));
      expect(ano.path, agrupar_por).toBe('rollups');
      expect(ano.sql, agrupar_por).toMatch(/vendas_\w+_atuais\(/);
      expect(ano.sql, agrupar_por).not.toMatch(/vendas_aprovadas|maior_mes/);

      // The big merchant's day holds ~50 sales: rollups too; the small one's year by day: rollups.
      expect((await produto(GRANDE, consulta({ ...DIA, agrupar_por }))).path).toBe('rollups');
      expect((await produto(PEQUENO, consulta({ ...ANO, agrupar_por: 'dia' }))).path).toBe(
        'rollups',
      );
    }
    // Same answers as the textbook query, whichever path was taken.
    for (const [m, periodo] of [
      [PEQUENO, DIA],
      [GRANDE, ANO],
    ] as const) {
      const q = consulta({ ...periodo, agrupar_por: 'modalidade', metrica: 'ticket_medio' });
      expect((await produto(m, q)).linhas).toEqual(
        await executeSalesQueryBaseTable(db.admin, q, ctxOf(m)),
      );
    }
  });
});

describe('a choice is kept only as long as the volume it was made from', () => {
  it("a merchant that grows: after the volume is read again, the same day's question moves to the rollups", async () => {
    const CRESCE = 4;
    await db.admin.query(`INSERT INTO merchants (id, nome) VALUES (${CRESCE}, 'Feira que cresce')`);
    await vendas(CRESCE, 200, '2025-03-01', 396);
    await consolidarTudo(db.app);
    const q = consulta(DIA);
    expect((await produto(CRESCE, q)).path).toBe('rollups'); // nothing known: reads the volume
    expect((await produto(CRESCE, q)).path).toBe('base'); // ~15 sales a month: a day is tiny
    // March becomes its busiest month by far (~650 sales a day).
    await vendas(CRESCE, 20_000, '2026-03-01', 31);
    await consolidarTudo(db.app);
    // The known volume is still the old one: the same (remembered) choice until it is read again.
    let path: SalesPath | undefined;
    let reread = 0;
    for (let i = 0; i < VOLUME_REFRESH_ANSWERS + 2; i++) {
      const r = await produto(CRESCE, q);
      if (/AS maior_mes/.test(r.sql)) reread = i;
      path = r.path;
      if (!reread) expect(r.path, String(i)).toBe('base');
    }
    expect(reread).toBeGreaterThan(0);
    expect(path).toBe('rollups');
    expect((await produto(CRESCE, q)).linhas).toEqual(
      await executeSalesQueryBaseTable(db.admin, q, ctxOf(CRESCE)),
    );
  });
});

describe("the merchant's volume, read in the answer's own statement", () => {
  it('is the busiest month of the horizon on either path, every grouping, rows unchanged', async () => {
    const r = await db.admin.query<{ n: number }>(
      `SELECT max(n)::int AS n FROM (
         SELECT count(*) AS n FROM transacoes WHERE merchant_id = $1 AND status = 'aprovada'
            AND aprovada_em >= '2025-04-01 00:00-03' AND aprovada_em < '2026-05-01 00:00-03'
          GROUP BY date_trunc('month', aprovada_em AT TIME ZONE 'America/Sao_Paulo')) m`,
      [GRANDE],
    );
    const busiest = r.rows[0]?.n ?? 0;
    expect(busiest).toBeGreaterThan(1_000);
    for (const source of ['rollups', 'view'] as const) {
      for (const agrupar_por of AGRUPAMENTOS) {
        const q = consulta({ data_inicio: '2026-03-01', data_fim: '2026-03-31', agrupar_por });
        const ctx = { merchantId: GRANDE, timeZone: ROLLUP_TIME_ZONE };
        const volume: [string, string] = ['2025-04-01', '2026-05-01'];
        const withVolume = compileSalesQuery(q, { ...ctx, source, volume });
        const plain = compileSalesQuery(q, { ...ctx, source });
        const [a, b] = await withTenantReadOnly(
          analytics,
          { merchantId: GRANDE, timeoutMs: 10_000 },
          async (c) =>
            Promise.all([
              c.query<{ grupo: string | null; valor: string; maior_mes: string }>(withVolume),
              c.query<{ grupo: string | null; valor: string }>(plain),
            ]),
        );
        const label = `${source} ${agrupar_por}`;
        expect(a.rows.length, label).toBeGreaterThan(0);
        for (const row of a.rows) expect(Number(row.maior_mes), label).toBe(busiest);
        expect(
          a.rows.map(({ grupo, valor }) => ({ grupo, valor })),
          label,
        ).toEqual(b.rows);
      }
    }
  });
});

describe('both paths give the same answer for every shape', () => {
  const FILTROS: Modalidade[][] = [[], ['pix', 'debito']];
  const PERIODOS: [string, string][] = [
    ['2026-03-30', '2026-03-30'], // a day
    ['2026-03-23', '2026-03-29'], // a week
    ['2026-03-01', '2026-03-31'], // a month (with unfolded sales)
    ['2026-01-30', '2026-03-02'], // partial months at both ends
    ['2025-04-01', '2026-03-31'], // a year
  ];

  for (const metrica of METRICAS) {
    it(`${metrica}: rollups = base table (tenant view) = textbook, every grouping, filter and period`, async () => {
      let compared = 0;
      for (const m of [PEQUENO, GRANDE]) {
        for (const agrupar_por of AGRUPAMENTOS) {
          for (const modalidades of FILTROS) {
            for (const [data_inicio, data_fim] of PERIODOS) {
              const top = agrupar_por !== 'nenhum' && modalidades.length > 0;
              const q = consulta({
                metrica,
                agrupar_por,
                modalidades,
                data_inicio,
                data_fim,
                ordem: top ? 'decrescente' : null,
                limite: top ? 2 : null,
              });
              const label = `${m} ${JSON.stringify(q)}`;
              const rollups = await executeSalesQueryRollups(analytics, q, ctxOf(m));
              const base = await executeSalesQueryTenantView(analytics, q, ctxOf(m));
              const textbook = await executeSalesQueryBaseTable(db.admin, q, ctxOf(m));
              expect(rollups, label).toEqual(textbook);
              expect(base, label).toEqual(textbook);
              expect((await produto(m, q)).linhas, label).toEqual(textbook);
              compared++;
            }
          }
        }
      }
      expect(compared).toBe(2 * AGRUPAMENTOS.length * FILTROS.length * PERIODOS.length);
    });
  }
});
