/**
 * #36 (dispatch under burst): the PSP worker fetches charges in batches and runs their steps in
 * parallel, never more than its concurrency at the PSP at once; every charge ends `registrada`
 * with exactly one charge at the PSP. Real PostgreSQL, pg-boss and the fake PSP over HTTPS + mTLS.
 */
import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../src-main/clock';
import { startBoss } from '../../src-main/intake/jobs';
import { createPixClient, type PixClient } from '../../src-main/psp/client';
import { pspConfig } from '../../src-main/psp/config';
import { COBRANCAS_QUEUE, pspConcurrency, startPspWorker } from '../../src-main/psp/worker';
import { silentLogger } from '../../src-main/util/logger';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { startFakePsp, type FakePsp } from '../support/fake-psp';
import {
  QUEUE_TEST_NOW,
  dados,
  ensureMerchants,
  insertExtraction,
  queueFor,
} from '../support/queue-fixtures';

/** How long a poll may wait on a loaded machine (an upper bound, not a measurement). */
const WAIT = { timeout: 30_000 };

let db: TestDatabase;
let psp: FakePsp;
let client: PixClient;
let boss: PgBoss;

beforeAll(async () => {
  db = await createTestDatabase();
  await ensureMerchants(db.admin, { 1: 'Padaria Central' });
  await db.admin.query(`UPDATE merchants SET chave_pix = 'financeiro@padaria.com.br' WHERE id = 1`);
  psp = await startFakePsp();
  const cfg = pspConfig({
    BALCAO_PSP_URL: psp.url,
    BALCAO_PSP_CLIENT_ID: psp.clientId,
    BALCAO_PSP_CLIENT_SECRET: psp.clientSecret,
    BALCAO_PSP_CERT: psp.files.cert,
    BALCAO_PSP_KEY: psp.files.key,
    BALCAO_PSP_CA: psp.files.ca,
  })!;
  client = createPixClient(cfg, { clock: fixedClock(QUEUE_TEST_NOW) });
  boss = await startBoss(db.app);
}, 60_000);

afterAll(async () => {
  await boss?.stop({ graceful: false, close: false, wait: true });
  client?.close();
  await psp?.close();
  await db?.drop();
});

async function confirmedPix(i: number): Promise<number> {
  const d = dados({
    metodo: 'pix',
    parcelas: 1,
    valor_centavos: 1000 + i,
    vencimento: '2026-12-20',
    descricao: `Pedido ${i}`,
  });
  const id = await insertExtraction(db.admin, { merchantId: 1, status: 'completo', dados: d });
  const q = queueFor(db.app, { operator: 'Ana' });
  const lease = await q.claim(id);
  if (!lease.claimed) throw new Error(lease.mensagem);
  return (await q.confirm({ id, token: lease.token, dados: d })).cobranca.id;
}

async function jobStates(): Promise<Record<string, number>> {
  const r = await db.admin.query<{ state: string; n: number }>(
    `SELECT state, count(*)::int AS n FROM pgboss.job WHERE name = $1 GROUP BY state`,
    [COBRANCAS_QUEUE],
  );
  return Object.fromEntries(r.rows.map((x) => [x.state, x.n]));
}

describe('BALCAO_PSP_CONCORRENCIA', () => {
  it('defaults to 16; takes 1–64; ignores anything else', () => {
    expect(pspConcurrency({})).toBe(16);
    expect(pspConcurrency({ BALCAO_PSP_CONCORRENCIA: '4' })).toBe(4);
    expect(pspConcurrency({ BALCAO_PSP_CONCORRENCIA: '64' })).toBe(64);
    expect(pspConcurrency({ BALCAO_PSP_CONCORRENCIA: '0' })).toBe(16);
    expect(pspConcurrency({ BALCAO_PSP_CONCORRENCIA: '65' })).toBe(16);
    expect(pspConcurrency({ BALCAO_PSP_CONCORRENCIA: '2.5' })).toBe(16);
  });
});

describe('the PSP worker under a burst', () => {
  it('fetches a batch, sends at most its concurrency at once, and registers each charge once', async () => {
    const N = 9;
    const ids: number[] = [];
    for (let i = 0; i < N; i++) ids.push(await confirmedPix(i + 1));
    expect(await jobStates()).toEqual({ created: N });
    // Every PUT is stored and held until released: the steps stay in flight at the PSP.
    const holds = ids.map(() => psp.hold('PUT', '/cob/'));
    let arrived = 0;
    for (const h of holds) void h.arrived.then(() => arrived++);
    const worker = await startPspWorker({
      pool: db.app,
      boss,
      client,
      clock: fixedClock(QUEUE_TEST_NOW),
      zone: 'America/Sao_Paulo',
      logger: silentLogger,
      leaseMs: 30_000,
      concurrency: 3,
      sweepS: 3600,
    });
    try {
      await Promise.all(holds.slice(0, 3).map((h) => h.arrived));
      // Two loops of pg-boss fetched a batch of 3 each (6 jobs active, 3 still waiting in the
      // queue), yet only 3 steps reached the PSP: the other 3 wait for a free slot.
      await expect.poll(jobStates, WAIT).toEqual({ created: N - 6, active: 6 });
      expect(arrived).toBe(3);
      for (const h of holds) h.release();
      await expect
        .poll(async () => {
          const r = await db.admin.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM cobrancas_envios
              WHERE cobranca_id = ANY($1::bigint[]) AND estado = 'registrada'`,
            [ids],
          );
          return r.rows[0]!.n;
        }, WAIT)
        .toBe(N);
      await expect.poll(jobStates, WAIT).toEqual({ completed: N });
    } finally {
      await worker.stop();
    }
    const r = await db.admin.query<{ txid: string }>(
      'SELECT txid FROM cobrancas_envios WHERE cobranca_id = ANY($1::bigint[])',
      [ids],
    );
    for (const { txid } of r.rows) {
      expect(psp.calls.filter((c) => c.method === 'PUT' && c.path === `/cob/${txid}`)).toHaveLength(
        1,
      );
      expect(psp.cobs.has(txid)).toBe(true);
    }
    expect(arrived).toBe(N);
  });

  it('a step that throws fails its own job only; the rest of the batch completes', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) ids.push(await confirmedPix(100 + i));
    const bad = ids[1]!;
    const r = await db.admin.query<{ txid: string }>(
      'SELECT txid FROM cobrancas_envios WHERE cobranca_id = $1',
      [bad],
    );
    const badTxid = r.rows[0]!.txid;
    // An unexpected error (not the PSP's answer) in one charge's step. The four jobs are queued
    // before the worker starts: its first poll fetches them in one batch.
    const flaky: PixClient = {
      putCob: (txid, body) =>
        txid === badTxid
          ? Promise.reject(new Error('falha inesperada'))
          : client.putCob(txid, body),
      putCobv: (txid, body) => client.putCobv(txid, body),
      getCob: (txid) => client.getCob(txid),
      getCobv: (txid) => client.getCobv(txid),
      patchCob: (txid, body) => client.patchCob(txid, body),
      patchCobv: (txid, body) => client.patchCobv(txid, body),
      putWebhook: (chave, url) => client.putWebhook(chave, url),
      close: () => undefined,
    };
    const jobs = async () =>
      (
        await db.admin.query<{ cobranca: number; state: string; retry_count: number }>(
          `SELECT (data->>'cobranca')::int AS cobranca, state, retry_count FROM pgboss.job
            WHERE name = $1 AND (data->>'cobranca')::bigint = ANY($2::bigint[])
            ORDER BY 1`,
          [COBRANCAS_QUEUE, ids],
        )
      ).rows;
    const worker = await startPspWorker({
      pool: db.app,
      boss,
      client: flaky,
      clock: fixedClock(QUEUE_TEST_NOW),
      zone: 'America/Sao_Paulo',
      logger: silentLogger,
      leaseMs: 30_000,
      concurrency: 4,
      sweepS: 3600,
    });
    try {
      await expect
        .poll(
          async () =>
            (await jobs()).map((j) =>
              j.cobranca === bad
                ? j.state === 'retry' || j.state === 'failed' || j.retry_count > 0
                : j.state === 'completed' && j.retry_count === 0,
            ),
          WAIT,
        )
        .toEqual([true, true, true, true]);
    } finally {
      await worker.stop();
    }
    const st = await db.admin.query<{ cobranca_id: number; estado: string }>(
      `SELECT cobranca_id::int, estado FROM cobrancas_envios
        WHERE cobranca_id = ANY($1::bigint[]) ORDER BY 1`,
      [ids],
    );
    expect(st.rows.map((x) => x.estado)).toEqual([
      'registrada',
      'pendente',
      'registrada',
      'registrada',
    ]);
    expect(psp.cobs.has(badTxid)).toBe(false);
  });
});
