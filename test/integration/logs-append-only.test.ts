/** #11 part 6: both query logs are append-only for every role, the owner included. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { ensureMerchants } from '../support/queue-fixtures';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await ensureMerchants(db.admin, { 1: 'Padaria Central' });
  await db.app.query(
    `INSERT INTO consultas_vendas (merchant_id, operador, origem, pergunta, resultado, duracao_ms)
     VALUES (1, 'ana', 'pergunta', 'quanto vendi?', 'respondida', 5)`,
  );
  await db.app.query(
    `INSERT INTO consultas_livres (merchant_id, origem, sql, veredito, duracao_ms)
     VALUES (1, 'cli', 'SELECT 1', 'aceita', 5)`,
  );
});
afterAll(() => db.drop());

describe.each(['consultas_vendas', 'consultas_livres'])('%s', (table) => {
  it('the owner cannot UPDATE, DELETE or TRUNCATE it', async () => {
    await expect(db.admin.query(`UPDATE ${table} SET merchant_id = 1`)).rejects.toThrow(
      /somente inserção/,
    );
    await expect(db.admin.query(`DELETE FROM ${table}`)).rejects.toThrow(/somente inserção/);
    await expect(db.admin.query(`TRUNCATE ${table}`)).rejects.toThrow(/somente inserção/);
    const r = await db.admin.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
    expect(r.rows[0]!.n).toBe(1);
  });

  it('the app role cannot either', async () => {
    await expect(db.app.query(`UPDATE ${table} SET merchant_id = 1`)).rejects.toThrow();
    await expect(db.app.query(`DELETE FROM ${table}`)).rejects.toThrow();
    await expect(db.app.query(`TRUNCATE ${table}`)).rejects.toThrow();
  });
});

describe('role-level bounded waits (backstop for statements outside a transaction)', () => {
  it('balcao_app has statement, lock and idle-in-transaction timeouts', async () => {
    const r = await db.app.query<{ s: string; l: string; i: string }>(
      `SELECT current_setting('statement_timeout') AS s, current_setting('lock_timeout') AS l,
              current_setting('idle_in_transaction_session_timeout') AS i`,
    );
    expect(r.rows[0]).toEqual({ s: '15s', l: '3s', i: '30s' });
  });
});
