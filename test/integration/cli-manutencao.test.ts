/**
 * `balcao worker --so-manutencao` (issue #15: "any background step runs on its own"): a team
 * installation without intake workers still folds the sales rollups. The real CLI in a
 * subprocess, without an API key: it folds what is pending, keeps answering exactly, and stops
 * cleanly on SIGTERM.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db';

const ROOT = resolve(__dirname, '../..');
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await db.admin.query(`INSERT INTO merchants (id, nome) VALUES (1, 'Loja Um'), (2, 'Loja Dois')
                        ON CONFLICT DO NOTHING`);
});
afterAll(() => db.drop());

async function sales(n: number): Promise<void> {
  await db.admin.query(
    `INSERT INTO transacoes (merchant_id, status, modalidade, bandeira, valor_bruto_centavos,
       valor_liquido_centavos, aprovada_em)
     SELECT 1 + (g % 2), 'aprovada', 'debito', 'visa', 1000 + g, 990 + g,
            timestamptz '2026-03-01 15:00Z' + g * interval '1 minute'
       FROM generate_series(1, $1) g`,
    [n],
  );
}

const state = async () =>
  (
    await db.admin.query<{ marca: string; ultimo: string }>(
      `SELECT marca, (SELECT coalesce(max(id), 0) FROM transacoes) AS ultimo
         FROM vendas_consolidacao`,
    )
  ).rows[0]!;

async function until(ok: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await ok()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return ok();
}

describe('balcao worker --so-manutencao', () => {
  it('folds the sales rollups without an API key, and stops on SIGTERM', async () => {
    await sales(500);
    const before = await state();
    expect(Number(before.marca)).toBeLessThan(Number(before.ultimo));

    const child = spawn(process.execPath, ['src-main/cli/bin.mjs', 'worker', '--so-manutencao'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATABASE_URL: db.adminUrl,
        APP_DATABASE_URL: db.appUrl,
        ANALYTICS_DATABASE_URL: db.analyticsUrl,
        BALCAO_LOG_LEVEL: 'silent',
      },
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    try {
      const folded = await until(async () => {
        const s = await state();
        return s.marca === s.ultimo;
      }, 60_000);
      expect(folded, stderr).toBe(true);
      // It keeps folding: a sale written now is folded too.
      await sales(3);
      expect(
        await until(async () => (await state()).marca === (await state()).ultimo, 20_000),
      ).toBe(true);
      // Folded rollups equal the base table.
      const r = await db.admin.query<{ rollup: string; base: string }>(
        `SELECT (SELECT sum(bruto_centavos) FROM vendas_diarias) AS rollup,
                (SELECT sum(valor_bruto_centavos) FROM transacoes WHERE status = 'aprovada') AS base`,
      );
      expect(r.rows[0]!.rollup).toBe(r.rows[0]!.base);
      expect(stderr).toContain('Manutenção ativa');
      expect(stderr).not.toMatch(/chave|ANTHROPIC/i);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 90_000);
});
