/**
 * The review queue's maintained counters (migration 0740, issue #15) on real PostgreSQL:
 * - exact in every snapshot while 8 agents claim, confirm, discard, re-run, insert and delete
 *   at once and a folder folds every few ms (checked against count(*) in the same snapshot);
 * - no lock waits between agents working on different items (no shared counter row), even with
 *   transactions that stay open 40 ms;
 * - a fold killed midway leaves the counts exact; after the last fold no delta is left;
 * - the queue's first page reads its counts from them and agrees with the filtered count path;
 * - the per-day report counters (0741) too, and the 30-day report from them equals the report
 *   counted from the rows.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filterOptions, listQueue } from '../../src-main/queue/list';
import { failureReport } from '../../src-main/queue/report';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { ensureMerchants, insertExtraction } from '../support/queue-fixtures';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await ensureMerchants(db.admin, { 1: 'Padaria Central', 2: 'Oficina do Zé', 3: 'Loja 3' });
});
afterAll(() => db.drop());

const KEYS_SQL = `
  WITH base AS (
    SELECT fila_estado, merchant_id, situacao, count(*)::int AS n FROM extracoes GROUP BY 1, 2, 3
    UNION ALL SELECT fila_estado, 0, situacao, count(*)::int FROM extracoes GROUP BY 1, 3),
  cont AS (
    SELECT fila_estado, merchant_id, status, sum(n)::int AS n FROM (
      SELECT fila_estado, merchant_id, status, n FROM fila_contagens
      UNION ALL SELECT fila_estado, merchant_id, status, n FROM fila_contagens_delta) x
    GROUP BY 1, 2, 3 HAVING sum(n) <> 0),
  rbase AS (
    SELECT m, dia, status, tentativas, sum(n) AS n, sum(alertas) AS alertas,
           sum(input_tokens) AS i, sum(output_tokens) AS o, sum(custo) AS custo
      FROM (SELECT (balcao_relatorio_linha(x, 1)).* FROM extracoes x) r,
           LATERAL (VALUES (r.merchant_id), (0)) AS k(m)
     GROUP BY 1, 2, 3, 4),
  rcont AS (
    SELECT merchant_id AS m, dia, status, tentativas, sum(n) AS n, sum(alertas) AS alertas,
           sum(input_tokens) AS i, sum(output_tokens) AS o, sum(custo) AS custo
      FROM (SELECT * FROM relatorio_dias UNION ALL SELECT * FROM relatorio_dias_delta) x
     GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0),
  mbase AS (
    SELECT fila_estado, motivo_codigo, count(*) AS n FROM extracoes
     WHERE motivo_codigo IS NOT NULL GROUP BY 1, 2),
  mcont AS (
    SELECT fila_estado, motivo_codigo, sum(n) AS n FROM (
      SELECT fila_estado, motivo_codigo, n FROM fila_motivos
      UNION ALL SELECT fila_estado, motivo_codigo, n FROM fila_motivos_delta) x
    GROUP BY 1, 2 HAVING sum(n) <> 0)
  SELECT (SELECT count(*)::int FROM (
            (SELECT * FROM mbase EXCEPT SELECT * FROM mcont)
            UNION ALL (SELECT * FROM mcont EXCEPT SELECT * FROM mbase)) d)
       + (SELECT count(*)::int FROM (
            (SELECT * FROM base EXCEPT SELECT * FROM cont)
            UNION ALL (SELECT * FROM cont EXCEPT SELECT * FROM base)) d)
       + (SELECT count(*)::int FROM (
            (SELECT * FROM rbase EXCEPT SELECT * FROM rcont)
            UNION ALL (SELECT * FROM rcont EXCEPT SELECT * FROM rbase)) d) AS diferentes,
         (SELECT count(*)::int FROM base) AS chaves`;

/** Counters vs the table, every key, in ONE snapshot (the statement's). */
async function mismatches(
  c: pg.Pool | pg.PoolClient | pg.Client,
): Promise<{ diferentes: number; chaves: number }> {
  const r = await c.query<{ diferentes: number; chaves: number }>(KEYS_SQL);
  return r.rows[0]!;
}

describe('review-queue counters (0740)', () => {
  it('stay exact in every snapshot under 8 concurrent agents and a folder; no lock waits between agents', async () => {
    // 8 agents × 30 items each, their own items (as leases make it).
    const owned: number[][] = [];
    for (let a = 0; a < 8; a++) {
      const ids: number[] = [];
      for (let i = 0; i < 30; i++) {
        ids.push(
          await insertExtraction(db.admin, {
            merchantId: 1 + ((a + i) % 3),
            status: (['completo', 'incompleto', 'falhou'] as const)[i % 3],
            criadaEm: new Date(Date.now() - ((a * 7 + i) % 40) * 86_400_000).toISOString(),
            ...(i % 4 === 0
              ? {
                  alertas: [
                    { codigo: 'valor_divergente', mensagem: 'diverge', valores_no_texto: [100] },
                  ],
                }
              : {}),
          }),
        );
      }
      owned.push(ids);
    }
    expect(await mismatches(db.admin)).toMatchObject({ diferentes: 0 });

    // The run is counted, not timed: every agent does its share of transactions and the reader
    // and the folder keep going until the agents are done and they did theirs, however long a
    // loaded machine takes.
    const PER_AGENT = 25;
    let agentsLeft = owned.length;
    const agentsRunning = () => agentsLeft > 0;
    let lockErrors = 0;
    let writes = 0;
    const agent = async (a: number) => {
      const c = new pg.Client({ connectionString: db.adminUrl });
      await c.connect();
      let seed = a + 1;
      const rnd = (n: number) => {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        return seed % n;
      };
      try {
        // Any wait for another agent's lock longer than this fails the transaction.
        await c.query("SET lock_timeout = '200ms'");
        for (let n = 0; n < PER_AGENT; n++) {
          const ids = owned[a]!;
          const id = ids[rnd(ids.length)]!;
          try {
            await c.query('BEGIN');
            switch (rnd(6)) {
              case 0: // claim (no key change)
                await c.query(
                  `UPDATE extracoes SET lease_token = gen_random_uuid(), lease_operador = 'ag${a}',
                          lease_expira_em = now() + interval '1 minute' WHERE id = $1`,
                  [id],
                );
                break;
              case 1: // confirm
                await c.query(
                  `UPDATE extracoes SET fila_estado = 'resolvida', lease_token = NULL,
                          lease_operador = NULL, lease_expira_em = NULL WHERE id = $1`,
                  [id],
                );
                break;
              case 2: // discard
                await c.query(
                  `UPDATE extracoes SET fila_estado = 'descartada', descarte_motivo = 'teste',
                          lease_token = NULL, lease_operador = NULL, lease_expira_em = NULL
                    WHERE id = $1`,
                  [id],
                );
                break;
              case 3: // reopen + re-run result
                await c.query(
                  `UPDATE extracoes SET fila_estado = 'aberta', descarte_motivo = NULL,
                          status = (ARRAY['completo','incompleto','falhou'])[1 + $2::int],
                          lease_token = NULL, lease_operador = NULL, lease_expira_em = NULL
                    WHERE id = $1`,
                  [id, rnd(3)],
                );
                break;
              case 4: {
                // a new item arrives (another merchant, maybe)
                const r = await c.query<{ id: number }>(
                  `INSERT INTO extracoes (merchant_id, texto, status, dados, erros, alertas, tentativas,
                          modelo, uso, custo_estimado_usd, duracao_ms, hoje, fila_estado)
                   SELECT merchant_id, texto, status, dados, erros, alertas, tentativas, modelo, uso,
                          custo_estimado_usd, duracao_ms, hoje, 'aberta'
                     FROM extracoes WHERE id = $1 RETURNING id`,
                  [id],
                );
                ids.push(r.rows[0]!.id);
                break;
              }
              default: {
                // a fresh item removed (no attempts, no charge refer to it)
                const fresh = ids.length > 30 ? ids.pop()! : null;
                if (fresh !== null) await c.query('DELETE FROM extracoes WHERE id = $1', [fresh]);
              }
            }
            // An agent's transaction that stays open (as a confirm with its audit does).
            await c.query('SELECT pg_sleep(0.04)');
            // COMMIT is not an agent-vs-agent wait: every write here fires the live queue's
            // NOTIFY, and PostgreSQL serializes notifying commits on one database-wide lock
            // (held through the WAL flush). On a loaded machine that queue alone passes 200 ms,
            // so the limit applies to the statements above, where a shared counter row would
            // make agents wait, and not to the commit.
            await c.query('SET LOCAL lock_timeout = 0');
            await c.query('COMMIT');
            writes++;
          } catch (e) {
            await c.query('ROLLBACK').catch(() => undefined);
            if (/lock timeout/i.test(String((e as Error).message))) lockErrors++;
            else throw e;
          }
        }
      } finally {
        agentsLeft--;
        await c.end();
      }
    };
    let checks = 0;
    let folds = 0;
    const reader = async () => {
      const c = new pg.Client({ connectionString: db.adminUrl });
      await c.connect();
      try {
        while (agentsRunning() || checks < 4) {
          expect(await mismatches(c)).toMatchObject({ diferentes: 0 });
          checks++;
        }
      } finally {
        await c.end();
      }
    };
    const folder = async () => {
      while (agentsRunning() || folds < 4) {
        await db.app.query('SELECT balcao_fila_consolidar()');
        folds++;
        await new Promise((r) => setTimeout(r, 15));
      }
    };
    await Promise.all([...owned.map((_, a) => agent(a)), reader(), folder()]);
    expect(lockErrors).toBe(0);
    expect(writes).toBeGreaterThan(50);
    expect(checks).toBeGreaterThan(3);
    expect(folds).toBeGreaterThan(3);

    // A fold killed midway (its backend terminated before COMMIT) leaves nothing half-done.
    const victim = await db.admin.connect();
    try {
      await victim.query('BEGIN');
      await victim.query('SELECT balcao_fila_consolidar()');
      const pid = (await victim.query<{ p: number }>('SELECT pg_backend_pid() AS p')).rows[0]!.p;
      victim.on('error', () => undefined);
      await db.admin.query('SELECT pg_terminate_backend($1)', [pid]);
    } finally {
      victim.release(true);
    }
    expect(await mismatches(db.admin)).toMatchObject({ diferentes: 0 });

    await db.app.query('SELECT balcao_fila_consolidar()');
    const left = await db.admin.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM fila_contagens_delta',
    );
    expect(left.rows[0]!.n).toBe(0);
    expect(await mismatches(db.admin)).toMatchObject({ diferentes: 0 });
  }, 60_000);

  it("the queue's first page takes its counts from the counters, equal to counting the rows", async () => {
    for (const view of ['aberta', 'resolvida', 'descartada'] as const) {
      for (const merchantId of [undefined, 1, 2]) {
        const fast = await listQueue(db.app, {
          view,
          limit: 5,
          ...(merchantId ? { merchantId } : {}),
        });
        const base = await db.admin.query<{ status: string; n: number }>(
          `SELECT situacao AS status, count(*)::int AS n FROM extracoes
            WHERE fila_estado = $1 AND ($2::bigint IS NULL OR merchant_id = $2) GROUP BY 1`,
          [view, merchantId ?? null],
        );
        const want = {
          falhou: 0,
          incompleto: 0,
          com_alerta: 0,
          completo: 0,
          aguardando_lojista: 0,
        } as Record<string, number>;
        for (const r of base.rows) want[r.status] = r.n;
        expect(fast.counts).toEqual(want);
      }
    }
    // The filter menus: per merchant and per reason, from the counters, equal to counting.
    for (const view of ['aberta', 'resolvida', 'descartada'] as const) {
      const menus = await filterOptions(db.app, view);
      const pm = await db.admin.query<{ id: number; n: number }>(
        `SELECT m.id, count(e.id)::int AS n FROM merchants m
           LEFT JOIN extracoes e ON e.merchant_id = m.id AND e.fila_estado = $1 GROUP BY 1`,
        [view],
      );
      expect(Object.fromEntries(menus.merchants.map((m) => [m.id, m.abertas]))).toEqual(
        Object.fromEntries(pm.rows.map((r) => [r.id, r.n])),
      );
      const pr = await db.admin.query<{ codigo: string; n: number }>(
        `SELECT motivo_codigo AS codigo, count(*)::int AS n FROM extracoes
          WHERE fila_estado = $1 AND motivo_codigo IS NOT NULL GROUP BY 1`,
        [view],
      );
      expect(Object.fromEntries(menus.motivos.map((m) => [m.codigo, m.abertas]))).toEqual(
        Object.fromEntries(pr.rows.map((r) => [r.codigo, r.n])),
      );
    }
    // A search filter is not kept in the counters: it counts the rows (same answer shape).
    const filtered = await listQueue(db.app, { limit: 5, search: 'João' });
    expect(Object.values(filtered.counts!).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });

  it('the 30-day report from the per-day counters equals the report counted from the rows', async () => {
    // America/Bahia has had São Paulo's offsets since 2019 (no DST): same local days, but it is
    // not the rollups' zone, so the report counts the rows there.
    const today = new Date().toISOString().slice(0, 10);
    const de = new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10);
    for (const merchantId of [undefined, 2]) {
      const args = { de, ate: today, ...(merchantId ? { merchantId } : {}) };
      const fast = await failureReport(db.app, args, 'America/Sao_Paulo');
      const rows = await failureReport(db.app, args, 'America/Bahia');
      expect(fast.total).toBeGreaterThan(0);
      expect({ ...fast, timeZone: '' }).toEqual({ ...rows, timeZone: '' });
    }
  });

  it('counters that drifted (e.g. a bulk load with triggers off) are rebuilt by balcao_fila_recontar()', async () => {
    await db.admin.query('DELETE FROM fila_contagens'); // drift on purpose
    expect((await mismatches(db.admin)).diferentes).toBeGreaterThan(0);
    await db.admin.query('SELECT balcao_fila_recontar()');
    expect(await mismatches(db.admin)).toMatchObject({ diferentes: 0 });
  });
});
