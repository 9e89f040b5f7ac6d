/**
 * #12, last gap (migration 0790), layer 2 alone: a RAW analytics login, tenant set as our
 * executor sets it, then one statement. Merchant 1 had sales folded into the rollups and then
 * reversed, declined, deleted or re-priced (hidden states), and a sale above the watermark;
 * merchant 2 the same with other amounts. Before 0790 `vendas_pendentes_lojista()` returned
 * `quantidade = -1, bruto_centavos = -<amount>` for each reversed sale, and the folded views
 * minus vendas_ia told the same per day. Now every rollup relation or function the role can reach
 * returns only sums of the tenant's approved sales — equal to what vendas_ia adds up to — and no
 * amount of a hidden state or of merchant 2 appears anywhere.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consolidarTudo } from '../../src-main/sales/consolidate';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { errorText } from '../support/sqlguard';

// Amounts only hidden states carry (merchant 1) and only merchant 2 has: none may come out.
const ESTORNADA = 777_001;
const NEGADA_DEPOIS = 777_002;
const APAGADA = 777_003;
const PRECO_ANTIGO = 777_004;
const M2_VALORES = [888_001, 888_002, 888_003, 888_004];
const OCULTOS = [ESTORNADA, NEGADA_DEPOIS, APAGADA, PRECO_ANTIGO, ...M2_VALORES];

let db: TestDatabase;
let raw: pg.Client;

beforeAll(async () => {
  db = await createTestDatabase();
  await db.admin.query(`INSERT INTO merchants (id, nome) VALUES (1, 'Loja Um'), (2, 'Loja Dois')`);
  const venda = (m: number, valor: number, quando: string, mod = 'pix') =>
    db.admin.query(
      `INSERT INTO transacoes (merchant_id, status, modalidade, bandeira, parcelas,
         valor_bruto_centavos, valor_liquido_centavos, aprovada_em)
       VALUES ($1, 'aprovada', $2, $5, 1, $3::bigint, $3::bigint - 10, $4) RETURNING id`,
      [m, mod, valor, quando, mod === 'pix' ? null : 'visa'],
    );
  // Folded first: ordinary sales and the ones that will change.
  await venda(1, 1000, '2026-03-02 10:00-03');
  await venda(1, 2000, '2026-03-02 10:30-03');
  const est = await venda(1, ESTORNADA, '2026-03-02 11:00-03');
  const neg = await venda(1, NEGADA_DEPOIS, '2026-03-03 09:00-03', 'debito');
  const apa = await venda(1, APAGADA, '2026-03-03 09:30-03', 'debito');
  const pre = await venda(1, PRECO_ANTIGO, '2026-03-04 15:00-03');
  for (const [i, v] of M2_VALORES.entries()) await venda(2, v, `2026-03-0${2 + i} 10:00-03`);
  await consolidarTudo(db.app);
  // After the fold: hidden states and a re-price (logged in vendas_ajustes), a sale above the
  // watermark, and merchant 2's changes too.
  const id = (r: pg.QueryResult) => (r.rows[0] as { id: string }).id;
  await db.admin.query(`UPDATE transacoes SET status = 'estornada' WHERE id = $1`, [id(est)]);
  await db.admin.query(`UPDATE transacoes SET status = 'negada' WHERE id = $1`, [id(neg)]);
  await db.admin.query(`DELETE FROM transacoes WHERE id = $1`, [id(apa)]);
  await db.admin.query(
    `UPDATE transacoes SET valor_bruto_centavos = 4000, valor_liquido_centavos = 3990
      WHERE id = $1`,
    [id(pre)],
  );
  await venda(1, 5000, '2026-03-05 16:00-03');
  await db.admin.query(
    `UPDATE transacoes SET status = 'chargeback' WHERE merchant_id = 2 AND valor_bruto_centavos = $1`,
    [M2_VALORES[0]],
  );
  const pend = await db.admin.query<{ n: number }>('SELECT count(*)::int AS n FROM vendas_ajustes');
  expect(pend.rows[0]?.n).toBeGreaterThanOrEqual(5); // the attack needs unfolded changes
  raw = new pg.Client({ connectionString: db.analyticsUrl });
  raw.on('error', () => undefined);
  await raw.connect();
});
afterAll(async () => {
  await raw?.end().catch(() => undefined);
  await db?.drop();
});

/** One statement as merchant 1 on the raw login: rows (or the raw error text) as JSON. */
async function asMerchant1(sql: string): Promise<{ ok: boolean; text: string; rows: unknown[] }> {
  await raw.query('BEGIN READ ONLY');
  try {
    await raw.query({ text: 'SELECT balcao_definir_lojista($1)', values: [1] });
    const r = await raw.query({ text: sql, queryMode: 'extended' } as pg.QueryConfig);
    return { ok: true, text: JSON.stringify(r.rows), rows: r.rows };
  } catch (e) {
    return { ok: false, text: errorText(e), rows: [] };
  } finally {
    await raw.query('ROLLBACK');
  }
}

function expectNoHidden(text: string, label: string) {
  for (const n of OCULTOS) {
    expect(new RegExp(`(?<![0-9])-?${n}(?![0-9])`).test(text), `${label}: ${n} vazou`).toBe(false);
  }
}

const ATTACKS = [
  'SELECT * FROM vendas_pendentes_lojista()',
  'SELECT * FROM vendas_pendentes_lojista() WHERE quantidade < 0',
  'SELECT * FROM vendas_diarias_lojista',
  'SELECT * FROM vendas_horarias_lojista',
  'SELECT * FROM vendas_mes_hora_lojista',
  `SELECT d.dia, d.quantidade - coalesce((SELECT count(*) FROM vendas_ia v
      WHERE (v.aprovada_em AT TIME ZONE 'America/Sao_Paulo')::date = d.dia), 0) AS diferenca,
      d.bruto_centavos FROM vendas_diarias_lojista d`,
  "SELECT * FROM vendas_diarias_atuais('1900-01-01', '2999-01-01')",
  "SELECT * FROM vendas_diarias_atuais('1900-01-01', '2999-01-01') WHERE quantidade <= 0",
  "SELECT * FROM vendas_horarias_atuais('2026-03-01', '2026-04-01')",
  "SELECT * FROM vendas_mes_hora_atuais('2026-01-01', '2027-01-01')",
  "SELECT sum(bruto_centavos) FROM vendas_horarias_atuais('-infinity', 'infinity')",
  "SELECT * FROM vendas_dia_modalidade_atuais('1900-01-01', '2999-01-01')",
  "SELECT * FROM vendas_dia_modalidade_atuais('1900-01-01', '2999-01-01') WHERE quantidade <= 0",
  "SELECT * FROM vendas_mensais_atuais('1900-01-01', '2999-01-01')",
  "SELECT sum(bruto_centavos) FROM vendas_mensais_atuais('-infinity', 'infinity')",
  'SELECT * FROM vendas_dia_modalidade',
  'SELECT * FROM vendas_mensais',
  "SELECT * FROM vendas_dia_totais_atuais('1900-01-01', '2999-01-01')",
  "SELECT * FROM vendas_dia_totais_atuais('1900-01-01', '2999-01-01') WHERE quantidade <= 0",
  "SELECT sum(bruto_centavos) FROM vendas_dia_totais_atuais('-infinity', 'infinity')",
  'SELECT * FROM vendas_dia_totais',
];

describe('layer 2 alone: the sales rollups tell nothing the tenant view hides (#12)', () => {
  it.each(ATTACKS)('%s', async (sql) => {
    const r = await asMerchant1(sql);
    expectNoHidden(r.text, sql);
    if (r.ok) {
      for (const row of r.rows as Record<string, unknown>[]) {
        if ('quantidade' in row) expect(Number(row.quantidade), sql).toBeGreaterThan(0);
      }
    } else {
      expect(r.text, sql).toMatch(/permission denied/);
    }
  });

  it('the parts apart are refused; the pending function and folded views are not reachable', async () => {
    for (const sql of ATTACKS.slice(0, 6)) {
      const r = await asMerchant1(sql);
      expect(r.ok, sql).toBe(false);
      expect(r.text).toMatch(/permission denied/);
    }
  });

  it('the current rollups equal the sums of vendas_ia, bucket by bucket', async () => {
    const dia = await asMerchant1(
      `SELECT dia::text, modalidade, quantidade::int AS q, bruto_centavos::int AS b,
              liquido_centavos::int AS l
         FROM vendas_diarias_atuais('1900-01-01', '2999-01-01') ORDER BY 1, 2`,
    );
    const ia = await asMerchant1(
      `SELECT (aprovada_em AT TIME ZONE 'America/Sao_Paulo')::date::text AS dia, modalidade,
              count(*)::int AS q, sum(valor_bruto_centavos)::int AS b,
              sum(valor_liquido_centavos)::int AS l
         FROM vendas_ia GROUP BY 1, 2 ORDER BY 1, 2`,
    );
    expect(dia.ok && ia.ok).toBe(true);
    expect(dia.rows).toEqual(ia.rows);
    expect(dia.rows).toEqual([
      { dia: '2026-03-02', modalidade: 'pix', q: 2, b: 3000, l: 2980 },
      { dia: '2026-03-04', modalidade: 'pix', q: 1, b: 4000, l: 3990 },
      { dia: '2026-03-05', modalidade: 'pix', q: 1, b: 5000, l: 4990 },
    ]);
    const hora = await asMerchant1(
      `SELECT dia::text, hora, quantidade::int AS q, bruto_centavos::int AS b
         FROM vendas_horarias_atuais('2026-03-01', '2026-04-01') ORDER BY 1, 2`,
    );
    expect(hora.rows).toEqual([
      { dia: '2026-03-02', hora: 10, q: 2, b: 3000 },
      { dia: '2026-03-04', hora: 15, q: 1, b: 4000 },
      { dia: '2026-03-05', hora: 16, q: 1, b: 5000 },
    ]);
    const mes = await asMerchant1(
      `SELECT mes::text, sum(quantidade)::int AS q, sum(bruto_centavos)::int AS b
         FROM vendas_mes_hora_atuais('2026-01-01', '2027-01-01') GROUP BY 1`,
    );
    expect(mes.rows).toEqual([{ mes: '2026-03-01', q: 4, b: 12000 }]);
    const diaMod = await asMerchant1(
      `SELECT dia::text, modalidade, quantidade::int AS q, bruto_centavos::int AS b,
              liquido_centavos::int AS l
         FROM vendas_dia_modalidade_atuais('1900-01-01', '2999-01-01') ORDER BY 1, 2`,
    );
    expect(diaMod.rows).toEqual(ia.rows);
    const mensal = await asMerchant1(
      `SELECT mes::text, modalidade, bandeira, quantidade::int AS q, bruto_centavos::int AS b
         FROM vendas_mensais_atuais('1900-01-01', '2999-01-01')`,
    );
    expect(mensal.rows).toEqual([
      { mes: '2026-03-01', modalidade: 'pix', bandeira: null, q: 4, b: 12000 },
    ]);
    const totais = await asMerchant1(
      `SELECT dia::text, quantidade::int AS q, bruto_centavos::int AS b, liquido_centavos::int AS l
         FROM vendas_dia_totais_atuais('1900-01-01', '2999-01-01') ORDER BY 1`,
    );
    expect(totais.rows).toEqual(
      (ia.rows as { modalidade: string }[]).map(({ modalidade: _, ...r }) => r),
    );
  });

  it('without a tenant they are empty', async () => {
    for (const fn of [
      'vendas_diarias_atuais',
      'vendas_dia_modalidade_atuais',
      'vendas_mensais_atuais',
      'vendas_dia_totais_atuais',
    ]) {
      const r = await raw.query(`SELECT count(*)::int AS n FROM ${fn}('1900-01-01', '2999-01-01')`);
      expect(r.rows[0], fn).toEqual({ n: 0 });
    }
  });
});
