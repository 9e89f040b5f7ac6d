/**
 * Work per sales question through the panel's channels, against real PostgreSQL (#14 part 4):
 * once a window has chosen its merchant, a question or a chip re-run costs ONE analytics
 * transaction, ONE log row and NO merchant lookup — also for averages and top-N, whose totals
 * row needs a second statement (it runs in the same transaction). Counted on the pools: tenant
 * transactions are the analytics pool's checkouts, merchant lookups and log rows are the app
 * pool's queries (and the log table's rows).
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IpcResult } from '@shared/contract';
import type { SalesAnswer } from '@shared/contract/sales';
import { invokeChannel } from '../../src-main/ipc/invoke';
import type { CallContext, Handlers } from '../../src-main/ipc/types';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { fakeApiSettings, testHandlers } from '../support/handlers';
import { startFakeAnthropic, toolUseReply, type FakeAnthropic } from '../support/fake-anthropic';

let db: TestDatabase;
let fake: FakeAnthropic;
let handlers: Handlers;

/** What one call cost on the pools. */
interface Work {
  analyticsTransactions: number;
  merchantLookups: number;
  logRows: number;
}

let analyticsCheckouts = 0;
const appQueries: string[] = [];

function countAppQueries(pool: pg.Pool): void {
  const query = pool.query.bind(pool) as (...a: unknown[]) => unknown;
  (pool as unknown as { query: (...a: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const q = args[0];
    appQueries.push(typeof q === 'string' ? q : String((q as { text?: unknown }).text ?? ''));
    return query(...args);
  };
}

async function logRowCount(): Promise<number> {
  const r = await db.admin.query<{ n: number }>('SELECT count(*)::int AS n FROM consultas_vendas');
  return r.rows[0]?.n ?? 0;
}

async function measure(call: () => Promise<IpcResult<unknown>>): Promise<Work> {
  const rows0 = await logRowCount();
  const tx0 = analyticsCheckouts;
  const q0 = appQueries.length;
  const r = await call();
  if (!r.ok) throw new Error(`esperava sucesso: ${r.error.code} ${r.error.message}`);
  return {
    analyticsTransactions: analyticsCheckouts - tx0,
    merchantLookups: appQueries.slice(q0).filter((t) => /FROM merchants/.test(t)).length,
    logRows: (await logRowCount()) - rows0,
  };
}

const ctx: CallContext = { sessionId: 'w-trabalho', emit: () => undefined };
const ONE: Work = { analyticsTransactions: 1, merchantLookups: 0, logRows: 1 };

beforeAll(async () => {
  db = await createTestDatabase();
  await db.admin.query(`INSERT INTO merchants (id, nome) VALUES (1, 'Padaria São Jorge')`);
  await db.admin.query(
    `INSERT INTO transacoes (merchant_id, status, modalidade, bandeira, valor_bruto_centavos,
       valor_liquido_centavos, aprovada_em)
     VALUES (1, 'aprovada', 'pix', NULL, 10000, 9900, '2026-03-09T10:00:00-03:00'),
            (1, 'aprovada', 'debito', 'visa', 30000, 29900, '2026-03-10T12:00:00-03:00'),
            (1, 'aprovada', 'pix', NULL, 20000, 19900, '2026-03-15T12:00:00-03:00')`,
  );
  db.analytics.on('acquire', () => {
    analyticsCheckouts++;
  });
  countAppQueries(db.app);
  fake = await startFakeAnthropic();
  handlers = testHandlers(db, fakeApiSettings(fake.url));
});
afterAll(async () => {
  await fake.close();
  await db.drop();
});

describe('work per question once the merchant is chosen', () => {
  it('choosing the merchant is the one lookup', async () => {
    const w = await measure(() =>
      invokeChannel(handlers, 'sales/selectMerchant', { merchantId: 1 }, ctx),
    );
    expect(w).toEqual({ analyticsTransactions: 0, merchantLookups: 1, logRows: 0 });
  });

  const semana = { periodo: 'semana_passada' } as const;
  const cases: [string, Record<string, unknown>, number][] = [
    ['a total', { ...semana, metrica: 'total_bruto' }, 60_000],
    ['grouped sums', { ...semana, metrica: 'total_bruto', agrupar_por: 'dia' }, 60_000],
    [
      'an average by group',
      { ...semana, metrica: 'ticket_medio', agrupar_por: 'modalidade' },
      20_000,
    ],
    [
      'a top-1',
      { ...semana, metrica: 'total_bruto', agrupar_por: 'dia', ordem: 'decrescente', limite: 1 },
      60_000,
    ],
  ];

  for (const [name, consulta, total] of cases) {
    it(`chips (sales/run), ${name}: one transaction, one log row, no lookup`, async () => {
      let a: SalesAnswer | undefined;
      const w = await measure(async () => {
        const r = await invokeChannel(handlers, 'sales/run', { consulta }, ctx);
        if (r.ok) a = r.data as SalesAnswer;
        return r;
      });
      expect(w).toEqual(ONE);
      if ('agrupar_por' in consulta) expect(a?.total).toBe(total);
      else expect(a?.linhas).toEqual([{ grupo: null, valor: total }]);
    });

    it(`a question (sales/ask), ${name}: one transaction, one log row, no lookup`, async () => {
      fake.reset();
      fake.enqueue(toolUseReply('consultar_vendas', consulta));
      let a: SalesAnswer | undefined;
      const w = await measure(async () => {
        const r = await invokeChannel(
          handlers,
          'sales/ask',
          { pergunta: `quanto vendi? (${name})`, requestId: `req${name.length}abcdefgh` },
          ctx,
        );
        if (r.ok) a = r.data as SalesAnswer;
        return r;
      });
      expect(w).toEqual(ONE);
      expect(a?.tipo).toBe('resposta');
      if ('agrupar_por' in consulta) expect(a?.total).toBe(total);
    });
  }
});
