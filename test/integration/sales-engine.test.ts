/**
 * The sales engine against real PostgreSQL. Expected answers are computed here, in JS, from the
 * generated rows (local dates with luxon, our own filtering, grouping, zero-fill and ordering), not
 * by the SQL under test.
 */
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AGRUPAMENTOS,
  BANDEIRAS,
  DIAS_DA_SEMANA,
  METRICAS,
  MODALIDADES,
  type Agrupamento,
  type ConsultaVendas,
  type LinhaVenda,
  type Metrica,
  type Modalidade,
} from '@shared/sales-dsl';
import { clockForLocalDate, fixedClock } from '../../src-main/clock';
import { mulberry32 } from '../../src-main/db/prng';
import { withTenantReadOnly } from '../../src-main/db/tenant';
import { compileSalesQuery } from '../../src-main/sales/compile';
import { answerSalesDsl, type SalesDeps } from '../../src-main/sales';
import {
  executeSalesQuery,
  executeSalesQueryBaseTable,
  executeSalesQueryRollups,
  executeSalesQueryTenantView,
  type SalesExecutor,
} from '../../src-main/sales/execute';
import { createMemorySettings } from '../../src-main/settings/memory';
import { silentLogger } from '../../src-main/util/logger';
import { createTestDatabase, type TestDatabase } from '../support/db';

const ZONE = 'America/Sao_Paulo';
const M = 11;
const OTHER = 12;
type Status = 'aprovada' | 'negada' | 'estornada' | 'chargeback';

interface Tx {
  merchant: number;
  status: Status;
  modalidade: Modalidade;
  bandeira: string | null;
  bruto: number;
  liquido: number;
  /** UTC instant. */
  at: Date;
}

let db: TestDatabase;
const rows: Tx[] = [];

function tx(at: string | Date, over: Partial<Omit<Tx, 'at'>> = {}): Tx {
  const modalidade = over.modalidade ?? 'pix';
  return {
    merchant: M,
    status: 'aprovada',
    modalidade,
    bandeira: modalidade === 'pix' ? null : 'visa',
    bruto: 1000,
    liquido: 990,
    ...over,
    at: typeof at === 'string' ? new Date(at) : at,
  };
}

function generate(): Tx[] {
  const rand = mulberry32(4242);
  const out: Tx[] = [];
  const from = Date.parse('2025-11-25T00:00:00Z');
  const to = Date.parse('2026-03-18T00:00:00Z');
  for (let i = 0; i < 3000; i++) {
    const merchant = rand() < 0.8 ? M : OTHER;
    const r = rand();
    const status =
      r < 0.85 ? 'aprovada' : r < 0.92 ? 'negada' : r < 0.97 ? 'estornada' : 'chargeback';
    const modalidade = MODALIDADES[Math.floor(rand() * 4)]!;
    const bandeira = modalidade === 'pix' ? null : BANDEIRAS[Math.floor(rand() * 5)]!;
    const bruto = 100 + Math.floor(rand() * 60_000);
    const liquido = bruto - Math.round(bruto * 0.031);
    const at = new Date(from + Math.floor(rand() * (to - from)));
    out.push({ merchant, status, modalidade, bandeira, bruto, liquido, at });
  }
  return out;
}

async function insert(list: Tx[]): Promise<void> {
  await db.admin.query({
    text: `INSERT INTO transacoes (merchant_id, status, modalidade, bandeira, valor_bruto_centavos,
             valor_liquido_centavos, aprovada_em)
           SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::bigint[],
             $6::bigint[], $7::timestamptz[])`,
    values: [
      list.map((t) => t.merchant),
      list.map((t) => t.status),
      list.map((t) => t.modalidade),
      list.map((t) => t.bandeira),
      list.map((t) => t.bruto),
      list.map((t) => t.liquido),
      list.map((t) => t.at.toISOString()),
    ],
  });
  rows.push(...list);
}

// ---- the independent oracle -------------------------------------------------------------

const localCache = new Map<string, WeakMap<Tx, DateTime>>();
function local(t: Tx, zone: string): DateTime {
  let byTx = localCache.get(zone);
  if (!byTx) localCache.set(zone, (byTx = new WeakMap()));
  let d = byTx.get(t);
  if (!d) byTx.set(t, (d = DateTime.fromJSDate(t.at, { zone })));
  return d;
}

function groupKey(g: Agrupamento, t: Tx, zone: string): string | null {
  const d = local(t, zone);
  switch (g) {
    case 'nenhum':
      return null;
    case 'dia':
      return d.toFormat('yyyy-MM-dd');
    case 'mes':
      return d.toFormat('yyyy-MM');
    case 'dia_da_semana':
      return DIAS_DA_SEMANA[d.weekday - 1]!;
    case 'hora':
      return d.toFormat('HH');
    case 'modalidade':
      return t.modalidade;
    case 'bandeira':
      return t.bandeira;
  }
}

function metric(m: Metrica, list: Tx[]): number | null {
  switch (m) {
    case 'total_bruto':
      return list.reduce((s, t) => s + t.bruto, 0);
    case 'total_liquido':
      return list.reduce((s, t) => s + t.liquido, 0);
    case 'quantidade':
      return list.length;
    case 'ticket_medio':
      return list.length ? Math.round(list.reduce((s, t) => s + t.bruto, 0) / list.length) : null;
  }
}

function calendarDays(a: string, b: string): string[] {
  const out: string[] = [];
  for (let d = new Date(`${a}T00:00:00Z`); d.toISOString().slice(0, 10) <= b;) {
    out.push(d.toISOString().slice(0, 10));
    d.setUTCDate(d.getUTCDate() + 1);
  }
  return out;
}

/** Natural order of group keys for ties and chronological listing. */
function keyRank(g: Agrupamento, k: string | null): string {
  if (k === null) return '\uffff';
  if (g === 'dia_da_semana') return String(DIAS_DA_SEMANA.indexOf(k as never));
  return k;
}

function oracle(q: ConsultaVendas, merchant = M, zone = ZONE): LinhaVenda[] {
  const sel = rows.filter((t) => {
    if (t.merchant !== merchant || t.status !== 'aprovada') return false;
    const day = local(t, zone).toFormat('yyyy-MM-dd');
    if (day < q.data_inicio || day > q.data_fim) return false;
    return q.modalidades.length === 0 || q.modalidades.includes(t.modalidade);
  });
  if (q.agrupar_por === 'nenhum') return [{ grupo: null, valor: metric(q.metrica, sel) }];
  const groups = new Map<string | null, Tx[]>();
  if (q.agrupar_por === 'dia')
    for (const d of calendarDays(q.data_inicio, q.data_fim)) groups.set(d, []);
  if (q.agrupar_por === 'mes') {
    for (const d of calendarDays(q.data_inicio, q.data_fim)) groups.set(d.slice(0, 7), []);
  }
  for (const t of sel) {
    const k = groupKey(q.agrupar_por, t, zone);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k)!.push(t);
  }
  const g = q.agrupar_por;
  let out = [...groups.entries()].map(([grupo, list]) => ({
    grupo,
    valor: metric(q.metrica, list),
  }));
  const byKey = (a: LinhaVenda, b: LinhaVenda) =>
    keyRank(g, a.grupo) < keyRank(g, b.grupo)
      ? -1
      : keyRank(g, a.grupo) > keyRank(g, b.grupo)
        ? 1
        : 0;
  const byValue = (dir: 1 | -1) => (a: LinhaVenda, b: LinhaVenda) => {
    if (a.valor === null || b.valor === null) {
      return a.valor === b.valor ? byKey(a, b) : a.valor === null ? 1 : -1;
    }
    return a.valor !== b.valor ? dir * (a.valor - b.valor) : byKey(a, b);
  };
  if (q.ordem) out.sort(byValue(q.ordem === 'crescente' ? 1 : -1));
  else if (g === 'modalidade' || g === 'bandeira') out.sort(byValue(-1));
  else out.sort(byKey);
  if (q.limite !== null) out = out.slice(0, q.limite);
  return out;
}

// -------------------------------------------------------------------------------------------

function query(over: Partial<ConsultaVendas>): ConsultaVendas {
  return {
    metrica: 'total_bruto',
    agrupar_por: 'nenhum',
    periodo: null,
    data_inicio: '2026-01-01',
    data_fim: '2026-03-16',
    modalidades: [],
    ordem: null,
    limite: null,
    ...over,
  };
}

const ctx = { merchantId: M, timeZone: ZONE, timeoutMs: 5000 };

/** Runs the product executor and the tenant view; they must agree. */
const both: SalesExecutor = async (pool, q, c) => {
  const a = await executeSalesQuery(pool, q, c);
  expect(await executeSalesQueryTenantView(pool, q, c)).toEqual(a);
  return a;
};

function deps(hoje: string, operator = 'ana'): SalesDeps {
  return {
    dbs: db,
    settings: createMemorySettings({ timeZone: ZONE, operator }, {}),
    clock: clockForLocalDate(hoje, ZONE),
    logger: silentLogger,
  };
}

beforeAll(async () => {
  db = await createTestDatabase();
  await db.admin.query(
    `INSERT INTO merchants (id, nome) VALUES (${M}, 'Padaria Teste'), (${OTHER}, 'Loja do Lado')`,
  );
  await insert(generate());
  // Local-midnight boundaries in São Paulo (UTC-3): the last second of 15/03, the first of 16/03,
  // and 02:30 UTC on 10/03, which is still 09/03 locally.
  await insert([
    tx('2026-03-16T02:59:59Z', { bruto: 111, liquido: 110 }),
    tx('2026-03-16T03:00:00Z', { bruto: 222, liquido: 220 }),
    tx('2026-03-10T02:30:00Z', { bruto: 333, liquido: 330 }),
    // Non-approved and another merchant's sales on the same instants must never count.
    tx('2026-03-16T03:00:00Z', { status: 'negada', bruto: 50_000 }),
    tx('2026-03-16T03:00:00Z', { status: 'estornada', bruto: 50_000 }),
    tx('2026-03-16T03:00:00Z', { status: 'chargeback', bruto: 50_000 }),
    tx('2026-03-16T03:00:00Z', { merchant: OTHER, bruto: 70_000 }),
  ]);
});
afterAll(() => db.drop());

describe('compiled SQL', () => {
  it('is parameterized: no value of the query ever appears in the SQL text', () => {
    for (const g of AGRUPAMENTOS) {
      const q = query({
        agrupar_por: g,
        modalidades: ['pix', 'debito'],
        ...(g === 'nenhum' ? {} : { ordem: 'crescente', limite: 7 }),
      });
      const c = compileSalesQuery(q, { merchantId: M, timeZone: ZONE });
      expect(c.text.replace(/\$\d+/g, '$n')).not.toMatch(
        /2026|2025|pix|debito|Sao_Paulo|\b7\b|\b11\b/,
      );
      expect(c.text).toContain('vendas_aprovadas');
      expect(c.text).not.toContain('transacoes');
      const base = compileSalesQuery(q, { merchantId: M, timeZone: ZONE, source: 'base' });
      expect(base.text).toContain("v.status = 'aprovada'");
      expect(base.values).toContain(M);
    }
  });
});

describe('every metric × grouping × modality filter matches the independent computation', () => {
  const filters: Modalidade[][] = [
    [],
    ['pix'],
    ['credito_avista', 'credito_parcelado'],
    [...MODALIDADES],
  ];
  // The product executor (rollups for this zone) and the tenant view over transacoes.
  const executors: [string, SalesExecutor][] = [
    ['produto', executeSalesQuery],
    ['visão vendas_aprovadas', executeSalesQueryTenantView],
    // The product may answer a small period from the base table (#40.8): the rollups alone too.
    ['rollups', executeSalesQueryRollups],
  ];
  for (const [nome, exec] of executors) {
    for (const metrica of METRICAS) {
      it(`${nome}: ${metrica}`, async () => {
        for (const agrupar_por of AGRUPAMENTOS) {
          for (const modalidades of filters) {
            const q = query({ metrica, agrupar_por, modalidades });
            const got = await exec(db.analytics, q, ctx);
            expect(got, `${metrica}/${agrupar_por}/${modalidades.join(',')}`).toEqual(oracle(q));
          }
        }
      });
    }

    it(`${nome}: ordering by value with a top-N, both directions, every grouping`, async () => {
      for (const agrupar_por of AGRUPAMENTOS.filter((g) => g !== 'nenhum')) {
        // Ties (counts), nulls (empty ticket groups) and plain totals.
        for (const metrica of ['quantidade', 'ticket_medio', 'total_liquido'] as const) {
          for (const ordem of ['decrescente', 'crescente'] as const) {
            for (const limite of [1, null]) {
              const q = query({ metrica, agrupar_por, ordem, limite, data_inicio: '2026-02-01' });
              const got = await exec(db.analytics, q, ctx);
              expect(got, `${metrica}/${agrupar_por}/${ordem}/${limite}`).toEqual(oracle(q));
            }
          }
        }
      }
    });
  }

  it('the textbook path on the base table returns exactly the same rows', async () => {
    for (const metrica of METRICAS) {
      for (const agrupar_por of AGRUPAMENTOS) {
        const q = query({ metrica, agrupar_por, modalidades: ['debito', 'pix'] });
        expect(await executeSalesQueryBaseTable(db.admin, q, ctx)).toEqual(
          await executeSalesQuery(db.analytics, q, ctx),
        );
      }
    }
  });

  it('buckets by local day in another zone too (DST change in New York, 08/03/2026)', async () => {
    const ny = { ...ctx, timeZone: 'America/New_York' };
    for (const agrupar_por of ['dia', 'hora', 'dia_da_semana'] as const) {
      const q = query({
        metrica: 'quantidade',
        agrupar_por,
        data_inicio: '2026-03-01',
        data_fim: '2026-03-15',
      });
      expect(await executeSalesQuery(db.analytics, q, ny)).toEqual(
        oracle(q, M, 'America/New_York'),
      );
    }
  });
});

describe('what counts', () => {
  it('splits days at local midnight ([start, next day start))', async () => {
    const day = (d: string) =>
      both(db.analytics, query({ data_inicio: d, data_fim: d, modalidades: ['pix'] }), ctx);
    const pix = (d: string) =>
      rows
        .filter(
          (t) =>
            t.merchant === M &&
            t.status === 'aprovada' &&
            t.modalidade === 'pix' &&
            local(t, ZONE).toISODate() === d,
        )
        .reduce((s, t) => s + t.bruto, 0);
    const d15 = await day('2026-03-15');
    const d16 = await day('2026-03-16');
    const d09 = await day('2026-03-09');
    // The oracle's own day split agrees with the expected local days of the boundary rows.
    expect(local(tx('2026-03-16T02:59:59Z'), ZONE).toISODate()).toBe('2026-03-15');
    expect(local(tx('2026-03-10T02:30:00Z'), ZONE).toISODate()).toBe('2026-03-09');
    expect(d15[0]?.valor).toBe(pix('2026-03-15'));
    expect(d16[0]?.valor).toBe(pix('2026-03-16'));
    expect(d09[0]?.valor).toBe(pix('2026-03-09'));
    // The boundary sales are exactly where they belong: removing them changes only their day.
    const byDay = await both(
      db.analytics,
      query({
        agrupar_por: 'dia',
        data_inicio: '2026-03-09',
        data_fim: '2026-03-16',
        modalidades: ['pix'],
      }),
      ctx,
    );
    expect(byDay.find((l) => l.grupo === '2026-03-15')?.valor).toBe(pix('2026-03-15'));
  });

  it('a one-day question sees the 23:59:59 sale but not the 00:00:00 one of the next day', async () => {
    // A merchant with only the boundary rows, so totals are exact numbers.
    await db.admin.query(`INSERT INTO merchants (id, nome) VALUES (13, 'Só Bordas')`);
    await insert([
      tx('2026-03-16T02:59:59Z', { merchant: 13, bruto: 111 }),
      tx('2026-03-16T03:00:00Z', { merchant: 13, bruto: 222 }),
      tx('2026-03-10T02:30:00Z', { merchant: 13, bruto: 333 }),
      tx('2026-03-16T03:00:00Z', { merchant: 13, bruto: 9999, status: 'negada' }),
    ]);
    const c13 = { ...ctx, merchantId: 13 };
    const total = async (a: string, b: string) =>
      (await both(db.analytics, query({ data_inicio: a, data_fim: b }), c13))[0]?.valor;
    expect(await total('2026-03-15', '2026-03-15')).toBe(111);
    expect(await total('2026-03-16', '2026-03-16')).toBe(222);
    expect(await total('2026-03-09', '2026-03-09')).toBe(333);
    expect(await total('2026-03-10', '2026-03-10')).toBe(0);
    const hours = await both(
      db.analytics,
      query({
        agrupar_por: 'hora',
        metrica: 'quantidade',
        data_inicio: '2026-03-09',
        data_fim: '2026-03-16',
      }),
      c13,
    );
    expect(hours).toEqual([
      { grupo: '00', valor: 1 },
      { grupo: '23', valor: 2 },
    ]);
  });

  it('excludes statuses other than aprovada and never counts another merchant', async () => {
    const q = query({ metrica: 'quantidade', data_inicio: '2026-03-16', data_fim: '2026-03-16' });
    const mine = await both(db.analytics, q, ctx);
    const all = rows.filter((t) => local(t, ZONE).toISODate() === '2026-03-16');
    expect(mine[0]?.valor).toBe(
      all.filter((t) => t.merchant === M && t.status === 'aprovada').length,
    );
    expect(all.some((t) => t.merchant === M && t.status !== 'aprovada')).toBe(true);
    expect(all.some((t) => t.merchant === OTHER)).toBe(true);
    const other = await both(db.analytics, q, { ...ctx, merchantId: OTHER });
    expect(other).toEqual(oracle(q, OTHER));
    expect(other[0]?.valor).not.toBe(mine[0]?.valor);
  });

  it('rounds the average ticket to the nearest centavo and leaves empty groups null', async () => {
    await db.admin.query(`INSERT INTO merchants (id, nome) VALUES (14, 'Arredonda')`);
    await insert([
      tx('2026-02-10T15:00:00Z', { merchant: 14, bruto: 100 }),
      tx('2026-02-10T16:00:00Z', { merchant: 14, bruto: 101 }),
      tx('2026-02-11T15:00:00Z', { merchant: 14, bruto: 100 }),
      tx('2026-02-11T15:00:00Z', { merchant: 14, bruto: 100 }),
      tx('2026-02-11T15:00:00Z', { merchant: 14, bruto: 101 }),
    ]);
    const got = await both(
      db.analytics,
      query({
        metrica: 'ticket_medio',
        agrupar_por: 'dia',
        data_inicio: '2026-02-10',
        data_fim: '2026-02-12',
      }),
      { ...ctx, merchantId: 14 },
    );
    expect(got).toEqual([
      { grupo: '2026-02-10', valor: 101 }, // 100.5 → 101
      { grupo: '2026-02-11', valor: 100 }, // 100.33 → 100
      { grupo: '2026-02-12', valor: null },
    ]);
    const months = await both(
      db.analytics,
      query({
        metrica: 'total_bruto',
        agrupar_por: 'mes',
        data_inicio: '2026-01-15',
        data_fim: '2026-03-01',
      }),
      { ...ctx, merchantId: 14 },
    );
    expect(months).toEqual([
      { grupo: '2026-01', valor: 0 },
      { grupo: '2026-02', valor: 502 },
      { grupo: '2026-03', valor: 0 },
    ]);
  });

  it('reflects rows written by any writer in the next answer', async () => {
    const q = query({ data_inicio: '2026-03-17', data_fim: '2026-03-17' });
    const before = (await both(db.analytics, q, ctx))[0]?.valor ?? 0;
    await insert([tx('2026-03-17T18:00:00Z', { bruto: 4321 })]);
    expect((await both(db.analytics, q, ctx))[0]?.valor).toBe(before + 4321);
  });
});

describe('database permissions', () => {
  it('the analytics role reads only the tenant view; without a tenant it is empty', async () => {
    await expect(db.analytics.query('SELECT count(*) FROM transacoes')).rejects.toThrow(
      /permission denied/,
    );
    const r = await db.analytics.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM vendas_aprovadas',
    );
    expect(r.rows[0]?.n).toBe(0);
    await expect(db.analytics.query('SELECT 1 FROM consultas_vendas')).rejects.toThrow(
      /permission denied/,
    );
    const cols = await db.admin.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'vendas_aprovadas' ORDER BY 1`,
    );
    expect(cols.rows.map((c) => c.column_name)).toEqual([
      'aprovada_em',
      'bandeira',
      'modalidade',
      'valor_bruto_centavos',
      'valor_liquido_centavos',
    ]);
    const opts = await db.admin.query<{ reloptions: string[] }>(
      `SELECT reloptions FROM pg_class WHERE relname = 'vendas_aprovadas'`,
    );
    expect(opts.rows[0]?.reloptions).toContain('security_barrier=true');
  });

  it("a leaky predicate cannot see another merchant's rows through the view", async () => {
    // A function with a side channel (RAISE NOTICE) in the caller's WHERE: with security_barrier
    // it only ever sees rows that already passed the tenant filter.
    await db.admin
      .query(`CREATE FUNCTION espia(bigint) RETURNS boolean LANGUAGE plpgsql COST 0.0001 AS
      $$ BEGIN RAISE NOTICE 'viu %', $1; RETURN true; END $$`);
    await db.admin.query('GRANT EXECUTE ON FUNCTION espia(bigint) TO balcao_analytics');
    const seen: string[] = [];
    const c = await db.analytics.connect();
    const onNotice = (n: { message?: string }) => seen.push(n.message ?? '');
    c.on('notice', onNotice);
    try {
      await c.query('BEGIN READ ONLY');
      await c.query('SELECT balcao_definir_lojista($1)', [M]);
      await c.query('SELECT count(*) FROM vendas_aprovadas WHERE espia(valor_bruto_centavos)');
      await c.query('ROLLBACK');
    } finally {
      c.off('notice', onNotice);
      c.release();
    }
    const allowed = new Set(
      rows.filter((t) => t.merchant === M && t.status === 'aprovada').map((t) => `viu ${t.bruto}`),
    );
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((s) => allowed.has(s))).toBe(true);
    expect(seen).not.toContain('viu 70000');
    expect(seen).not.toContain('viu 50000');
  });

  it('the app role can append to the query log but not read or change it', async () => {
    await expect(db.app.query('SELECT * FROM consultas_vendas')).rejects.toThrow(
      /permission denied/,
    );
    await expect(db.app.query('DELETE FROM consultas_vendas')).rejects.toThrow(/permission denied/);
    await expect(db.app.query(`UPDATE consultas_vendas SET operador = 'x'`)).rejects.toThrow(
      /permission denied/,
    );
  });
});

describe('engine with a DSL (no model)', () => {
  it('resolves presets from the clock date, answers, interprets and logs the query', async () => {
    // 16/03/2026 is a Monday: "semana passada" is 09/03–15/03.
    const r = await answerSalesDsl(deps('2026-03-16'), {
      merchantId: M,
      pergunta: 'quanto vendi no crédito semana passada?',
      dsl: {
        metrica: 'total_bruto',
        periodo: 'semana_passada',
        modalidades: ['credito_avista', 'credito_parcelado'],
      },
    });
    if (r.tipo !== 'resposta') throw new Error('esperava resposta');
    expect(r.consulta).toMatchObject({ data_inicio: '2026-03-09', data_fim: '2026-03-15' });
    expect(r.linhas).toEqual(oracle(r.consulta));
    expect(r.interpretacao).toMatch(
      /^Considerei vendas aprovadas de 09\/03\/2026 a 15\/03\/2026 \(semana passada\), modalidades: crédito à vista, crédito parcelado\./,
    );
    expect(r.resposta.replace(/\u00a0/g, ' ')).toContain(
      `R$ ${(r.linhas[0]!.valor! / 100).toLocaleString('pt-BR', { minimumFractionDigits: 2 })}`,
    );
    const log = await db.admin.query(
      `SELECT merchant_id, operador, origem, pergunta, dsl, consulta, resultado, linhas, duracao_ms, duracao_sql_ms
         FROM consultas_vendas ORDER BY id DESC LIMIT 1`,
    );
    expect(log.rows[0]).toMatchObject({
      merchant_id: M,
      operador: 'ana',
      origem: 'dsl',
      pergunta: 'quanto vendi no crédito semana passada?',
      dsl: { periodo: 'semana_passada' },
      consulta: { data_inicio: '2026-03-09', data_fim: '2026-03-15' },
      resultado: 'respondida',
      linhas: 1,
    });
    expect(log.rows[0].duracao_ms).toBeGreaterThanOrEqual(log.rows[0].duracao_sql_ms);
  });

  it('presets follow the clock across a year end', async () => {
    const r = await answerSalesDsl(
      { ...deps('2026-01-01'), clock: fixedClock(new Date('2026-01-01T02:59:00Z')) },
      { merchantId: M, dsl: { metrica: 'quantidade', periodo: 'hoje' } },
    );
    // 02:59 UTC on 01/01 is still 31/12/2025 in São Paulo.
    expect(r).toMatchObject({ consulta: { data_inicio: '2025-12-31', data_fim: '2025-12-31' } });
  });

  it('returns clarifications without running anything, and refuses bad input in pt-BR', async () => {
    expect(
      await answerSalesDsl(deps('2026-03-16'), {
        merchantId: M,
        dsl: { pergunta_esclarecimento: 'Você quer o total bruto ou o líquido?' },
      }),
    ).toEqual({ tipo: 'esclarecimento', esclarecimento: 'Você quer o total bruto ou o líquido?' });
    await expect(
      answerSalesDsl(deps('2026-03-16'), {
        merchantId: 999,
        dsl: { metrica: 'quantidade', periodo: 'hoje' },
      }),
    ).rejects.toMatchObject({ code: 'nao_encontrado', message: 'Lojista 999 não encontrado.' });
    await expect(
      answerSalesDsl(deps('2026-03-16'), {
        merchantId: M,
        dsl: { metrica: 'quantidade', data_inicio: '2024-01-01', data_fim: '2026-01-01' },
      }),
    ).rejects.toMatchObject({
      code: 'entrada_invalida',
      message: expect.stringMatching(/máximo é 366 dias/),
    });
    const log = await db.admin.query<{ resultado: string }>(
      `SELECT resultado FROM consultas_vendas ORDER BY id DESC LIMIT 2`,
    );
    expect(log.rows.map((x) => x.resultado)).toEqual(['invalida', 'esclarecimento']);
  });

  it('runs with the configured statement timeout, maps it to pt-BR and logs the failure', async () => {
    const d = deps('2026-03-16');
    d.settings.update({});
    const s = createMemorySettings({ timeZone: ZONE, operator: 'ana', queryTimeoutMs: 100 }, {});
    await expect(
      answerSalesDsl(
        {
          ...d,
          settings: s,
          // Same transaction wrapper and timeout as the real executor, with a slow statement.
          executor: (pool, _q, c) =>
            withTenantReadOnly(
              pool,
              { merchantId: c.merchantId, timeoutMs: c.timeoutMs },
              async (cl) => {
                await cl.query(
                  'SELECT count(*) FROM generate_series(1, 10000) a, generate_series(1, 10000) b',
                );
                return [];
              },
            ),
        },
        { merchantId: M, dsl: { metrica: 'quantidade', periodo: 'este_ano' } },
      ),
    ).rejects.toMatchObject({ code: 'tempo_esgotado' });
    const log = await db.admin.query<{ resultado: string; erro: string }>(
      `SELECT resultado, erro FROM consultas_vendas ORDER BY id DESC LIMIT 1`,
    );
    expect(log.rows[0]).toMatchObject({
      resultado: 'erro',
      erro: expect.stringMatching(/demorou demais/),
    });
  });
});
