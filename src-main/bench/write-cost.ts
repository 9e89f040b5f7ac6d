/**
 * What Balcão's triggers cost single writes: the same writes with the triggers disabled and
 * enabled, each inside a transaction that is rolled back (the benchmark data is left as it was).
 * Since migration 0580 INSERT has no trigger at all; UPDATE and DELETE append to vendas_ajustes.
 * Run on the owner connection; DISABLE TRIGGER locks transacoes for the transaction's length.
 */
import type pg from 'pg';

const TRIGGERS = ['transacoes_ajustes_atualizar', 'transacoes_ajustes_excluir'] as const;

export interface WriteCost {
  /** Single-row INSERT statements, mean ms per statement. */
  insercao_unitaria_ms: { sem_rollups: number; com_rollups: number };
  /** Single-row status change aprovada → estornada, mean ms per statement. */
  estorno_unitario_ms: { sem_rollups: number; com_rollups: number };
  /** One INSERT … SELECT of `lote` rows, ms. */
  lote_ms: { sem_rollups: number; com_rollups: number };
  lote: number;
}

async function once(
  c: pg.PoolClient,
  triggers: boolean,
  n: { single: number; lote: number; merchants: number },
) {
  await c.query('BEGIN');
  try {
    if (!triggers) {
      for (const t of TRIGGERS) await c.query(`ALTER TABLE transacoes DISABLE TRIGGER ${t}`);
    }
    let t0 = performance.now();
    for (let i = 0; i < n.single; i++) {
      await c.query(
        `INSERT INTO transacoes (merchant_id, status, modalidade, bandeira, valor_bruto_centavos,
           valor_liquido_centavos, aprovada_em)
         VALUES ($1, 'aprovada', 'debito', 'visa', 1000, 985, now() - $2 * interval '1 minute')`,
        [1 + (i % n.merchants), i % 600],
      );
    }
    const insert = (performance.now() - t0) / n.single;
    const ids = await c.query<{ id: number }>(
      `SELECT id FROM transacoes WHERE status = 'aprovada' ORDER BY id DESC LIMIT $1`,
      [n.single],
    );
    t0 = performance.now();
    for (const r of ids.rows) {
      await c.query(`UPDATE transacoes SET status = 'estornada' WHERE id = $1`, [r.id]);
    }
    const estorno = (performance.now() - t0) / Math.max(1, ids.rows.length);
    t0 = performance.now();
    await c.query(
      `INSERT INTO transacoes (merchant_id, status, modalidade, bandeira, valor_bruto_centavos,
         valor_liquido_centavos, aprovada_em)
       SELECT 1 + g % $2::int, 'aprovada', 'pix', NULL, 1000, 990, now() - g * interval '1 minute'
         FROM generate_series(1, $1::int) g`,
      [n.lote, n.merchants],
    );
    const lote = performance.now() - t0;
    return { insert, estorno, lote };
  } finally {
    await c.query('ROLLBACK');
  }
}

const r2 = (n: number) => Math.round(n * 100) / 100;

export async function measureWriteCost(
  admin: pg.Pool,
  opts: { rows: number; merchants: number },
): Promise<WriteCost> {
  const n = {
    single: opts.rows >= 1_000_000 ? 500 : 50,
    lote: Math.max(1_000, Math.min(100_000, Math.round(opts.rows / 10))),
    merchants: opts.merchants,
  };
  const c = await admin.connect();
  try {
    await once(c, true, { ...n, single: 50, lote: 1_000 }); // warm
    // Alternate, twice each, keep the better run of each (less noise from other processes).
    const off = [await once(c, false, n)];
    const on = [await once(c, true, n)];
    off.push(await once(c, false, n));
    on.push(await once(c, true, n));
    const best = (xs: { insert: number; estorno: number; lote: number }[]) => ({
      insert: Math.min(...xs.map((x) => x.insert)),
      estorno: Math.min(...xs.map((x) => x.estorno)),
      lote: Math.min(...xs.map((x) => x.lote)),
    });
    const a = best(off);
    const b = best(on);
    return {
      insercao_unitaria_ms: { sem_rollups: r2(a.insert), com_rollups: r2(b.insert) },
      estorno_unitario_ms: { sem_rollups: r2(a.estorno), com_rollups: r2(b.estorno) },
      lote_ms: { sem_rollups: Math.round(a.lote), com_rollups: Math.round(b.lote) },
      lote: n.lote,
    };
  } finally {
    c.release();
  }
}
