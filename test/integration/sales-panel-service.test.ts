/**
 * The sales panel's IPC channels through the one invoke wrapper, against real PostgreSQL:
 * the merchant comes from the window's session (never from the input), windows are isolated,
 * the totals row is the whole period's value, and errors are pt-BR.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IpcResult } from '@shared/contract';
import type { SalesAnswer, SalesSessionView } from '@shared/contract/sales';
import { invokeChannel } from '../../src-main/ipc/invoke';
import type { CallContext, Handlers } from '../../src-main/ipc/types';
import { createPool } from '../../src-main/db/pool';
import { createMemorySettings } from '../../src-main/settings/memory';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { fakeApiSettings, testHandlers } from '../support/handlers';
import {
  startFakeAnthropic,
  statusReply,
  toolUseReply,
  type FakeAnthropic,
} from '../support/fake-anthropic';
import type { ProgressEvent, SalesAskResult } from '@shared/contract/sales';

const ZONE = 'America/Sao_Paulo';
let db: TestDatabase;
let handlers: Handlers;
/** Handlers with an API key, talking to the fake Messages API. */
let withKey: Handlers;
let fake: FakeAnthropic;

function ctx(sessionId: string, signal?: AbortSignal): CallContext {
  return { sessionId, emit: () => undefined, ...(signal ? { signal } : {}) };
}

async function ok<T>(p: Promise<IpcResult<unknown>>): Promise<T> {
  const r = await p;
  if (!r.ok) throw new Error(`esperava sucesso: ${r.error.code} ${r.error.message}`);
  return r.data as T;
}

/** Approved sales of merchant 1 and 2 on known local days (hoje = 2026-03-16, a Monday). */
const SALES: { m: number; at: string; mod: string; bruto: number; status?: string }[] = [
  { m: 1, at: '2026-03-09T10:00:00-03:00', mod: 'pix', bruto: 10_000 },
  { m: 1, at: '2026-03-10T23:30:00-03:00', mod: 'debito', bruto: 25_050 },
  { m: 1, at: '2026-03-10T09:00:00-03:00', mod: 'pix', bruto: 4_950 },
  { m: 1, at: '2026-03-15T12:00:00-03:00', mod: 'credito_parcelado', bruto: 60_000 },
  { m: 1, at: '2026-03-15T13:00:00-03:00', mod: 'pix', bruto: 999_999, status: 'negada' },
  { m: 2, at: '2026-03-10T12:00:00-03:00', mod: 'pix', bruto: 777_700 },
];

beforeAll(async () => {
  db = await createTestDatabase();
  await db.admin.query(
    `INSERT INTO merchants (id, nome) VALUES (1, 'Padaria São Jorge'), (2, 'Farmácia Central')`,
  );
  for (const s of SALES) {
    await db.admin.query(
      `INSERT INTO transacoes (merchant_id, status, modalidade, bandeira, valor_bruto_centavos,
         valor_liquido_centavos, aprovada_em) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        s.m,
        s.status ?? 'aprovada',
        s.mod,
        s.mod === 'pix' ? null : 'visa',
        s.bruto,
        s.bruto - 100,
        s.at,
      ],
    );
  }
  handlers = testHandlers(db);
  fake = await startFakeAnthropic();
  withKey = testHandlers(db, fakeApiSettings(fake.url));
});
afterAll(async () => {
  await fake.close();
  await db.drop();
});

const semanaPassada = { metrica: 'total_bruto', periodo: 'semana_passada' } as const;

describe('sales panel channels', () => {
  it('refuses to run before a merchant is chosen', async () => {
    const r = await invokeChannel(handlers, 'sales/run', { consulta: semanaPassada }, ctx('w0'));
    expect(r).toEqual({
      ok: false,
      error: { code: 'entrada_invalida', message: expect.stringMatching(/Escolha um lojista/) },
    });
  });

  it('reports the session: no merchant, no key, today from the clock', async () => {
    const v = await ok<SalesSessionView>(invokeChannel(handlers, 'sales/session', {}, ctx('w0')));
    expect(v).toEqual({
      merchant: null,
      history: [],
      apiKeyConfigured: false,
      freeSqlEnabled: false,
      hoje: '2026-03-16',
      timeZone: ZONE,
    });
  });

  it('rejects an unknown merchant and keeps the previous one', async () => {
    await ok(invokeChannel(handlers, 'sales/selectMerchant', { merchantId: 1 }, ctx('w1')));
    const r = await invokeChannel(handlers, 'sales/selectMerchant', { merchantId: 99 }, ctx('w1'));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject({ code: 'nao_encontrado' });
    const v = await ok<SalesSessionView>(invokeChannel(handlers, 'sales/session', {}, ctx('w1')));
    expect(v.merchant).toEqual({ id: 1, nome: 'Padaria São Jorge' });
  });

  it("answers for the window's merchant; another window sees its own merchant", async () => {
    await ok(invokeChannel(handlers, 'sales/selectMerchant', { merchantId: 1 }, ctx('wa')));
    await ok(invokeChannel(handlers, 'sales/selectMerchant', { merchantId: 2 }, ctx('wb')));
    const a = await ok<SalesAnswer>(
      invokeChannel(handlers, 'sales/run', { consulta: semanaPassada }, ctx('wa')),
    );
    const b = await ok<SalesAnswer>(
      invokeChannel(handlers, 'sales/run', { consulta: semanaPassada }, ctx('wb')),
    );
    // Week of 09–15/03: merchant 1 approved = 10000 + 25050 + 4950 + 60000 (the denied one excluded).
    expect(a.linhas).toEqual([{ grupo: null, valor: 100_000 }]);
    expect(a.merchant.id).toBe(1);
    expect(a.origem).toBe('consulta');
    expect(a.total).toBeNull();
    expect(a.consulta).toMatchObject({ data_inicio: '2026-03-09', data_fim: '2026-03-15' });
    expect(a.interpretacao).toMatch(/09\/03\/2026 a 15\/03\/2026/);
    expect(a.resposta).toMatch(/R\$\s1\.000,00/);
    expect(b.linhas).toEqual([{ grupo: null, valor: 777_700 }]);
    // Each query is logged with the merchant of its window.
    const log = await db.admin.query<{ merchant_id: number; origem: string; resultado: string }>(
      `SELECT merchant_id, origem, resultado FROM consultas_vendas ORDER BY id DESC LIMIT 2`,
    );
    expect(log.rows).toEqual([
      { merchant_id: 2, origem: 'dsl', resultado: 'respondida' },
      { merchant_id: 1, origem: 'dsl', resultado: 'respondida' },
    ]);
  });

  it('a query cannot name a merchant: unknown properties are rejected', async () => {
    await ok(invokeChannel(handlers, 'sales/selectMerchant', { merchantId: 1 }, ctx('wc')));
    const r = await invokeChannel(
      handlers,
      'sales/run',
      { consulta: { ...semanaPassada, merchant_id: 2 } },
      ctx('wc'),
    );
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('entrada_invalida');
    const r2 = await invokeChannel(
      handlers,
      'sales/run',
      { consulta: semanaPassada, merchantId: 2 },
      ctx('wc'),
    );
    expect(r2.ok).toBe(false);
    // Chips never carry a clarification question.
    const r3 = await invokeChannel(
      handlers,
      'sales/run',
      { consulta: { pergunta_esclarecimento: 'qual loja?' } },
      ctx('wc'),
    );
    expect(r3.ok).toBe(false);
  });

  it('grouped answer: zero-filled days, totals row = whole period', async () => {
    await ok(invokeChannel(handlers, 'sales/selectMerchant', { merchantId: 1 }, ctx('wd')));
    const a = await ok<SalesAnswer>(
      invokeChannel(
        handlers,
        'sales/run',
        { consulta: { ...semanaPassada, agrupar_por: 'dia' } },
        ctx('wd'),
      ),
    );
    expect(a.linhas).toHaveLength(7);
    expect(a.linhas.find((l) => l.grupo === '2026-03-10')?.valor).toBe(30_000);
    expect(a.linhas.find((l) => l.grupo === '2026-03-11')?.valor).toBe(0);
    expect(a.total).toBe(100_000);

    // Top-1 day: the totals row is still the whole week, not the shown row.
    const top = await ok<SalesAnswer>(
      invokeChannel(
        handlers,
        'sales/run',
        { consulta: { ...semanaPassada, agrupar_por: 'dia', ordem: 'decrescente', limite: 1 } },
        ctx('wd'),
      ),
    );
    expect(top.linhas).toEqual([{ grupo: '2026-03-15', valor: 60_000 }]);
    expect(top.total).toBe(100_000);

    // Average: the total is the period's average (4 sales), not a sum of group averages.
    const avg = await ok<SalesAnswer>(
      invokeChannel(
        handlers,
        'sales/run',
        {
          consulta: {
            metrica: 'ticket_medio',
            periodo: 'semana_passada',
            agrupar_por: 'modalidade',
          },
        },
        ctx('wd'),
      ),
    );
    expect(avg.total).toBe(25_000);
  });

  it('a period longer than 366 days is a clear pt-BR error', async () => {
    await ok(invokeChannel(handlers, 'sales/selectMerchant', { merchantId: 1 }, ctx('we')));
    const r = await invokeChannel(
      handlers,
      'sales/run',
      { consulta: { metrica: 'total_bruto', data_inicio: '2024-01-01', data_fim: '2026-03-01' } },
      ctx('we'),
    );
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('entrada_invalida');
      expect(r.error.message).toMatch(/máximo é 366 dias/);
    }
  });

  it('forgets a window when its signal aborts (window closed)', async () => {
    const closed = new AbortController();
    await ok(
      invokeChannel(handlers, 'sales/selectMerchant', { merchantId: 2 }, ctx('wf', closed.signal)),
    );
    closed.abort();
    const v = await ok<SalesSessionView>(invokeChannel(handlers, 'sales/session', {}, ctx('wf')));
    expect(v.merchant).toBeNull();
  });

  it("listens to a window's closing once, however many calls it makes", async () => {
    const win = new AbortController();
    let listeners = 0;
    const add = win.signal.addEventListener.bind(win.signal);
    win.signal.addEventListener = ((...args: Parameters<typeof add>) => {
      listeners++;
      add(...args);
    }) as typeof add;
    for (let i = 0; i < 5; i++) {
      await ok(invokeChannel(handlers, 'sales/session', {}, ctx('wh', win.signal)));
    }
    await ok(
      invokeChannel(handlers, 'sales/selectMerchant', { merchantId: 1 }, ctx('wh', win.signal)),
    );
    expect(listeners).toBe(1);
  });

  it('cancel answers false for an unknown request', async () => {
    const r = await ok<{ cancelado: boolean }>(
      invokeChannel(handlers, 'sales/cancel', { requestId: 'naoexiste123' }, ctx('wg')),
    );
    expect(r).toEqual({ cancelado: false });
  });
});

describe('sales/ask (model through the fake Messages API)', () => {
  function recorder(sessionId: string) {
    const events: ProgressEvent[] = [];
    const c: CallContext = {
      sessionId,
      emit: (event, payload) => {
        if (event === 'sales/progress') events.push(payload as ProgressEvent);
      },
    };
    return { c, events };
  }

  it('without a key: a pt-BR error saying how to configure one, no request sent', async () => {
    await ok(invokeChannel(handlers, 'sales/selectMerchant', { merchantId: 1 }, ctx('k0')));
    const r = await invokeChannel(
      handlers,
      'sales/ask',
      { pergunta: 'quanto vendi ontem?', requestId: 'req00000001' },
      ctx('k0'),
    );
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('sem_chave_api');
      // #42.6: the window says who can fix it, not which variable to set.
      expect(r.error.message).toBe(
        'Nenhuma chave da API da Anthropic configurada. Um supervisor pode cadastrá-la em Configurações.',
      );
    }
  });

  it("answers with the window's merchant, reports progress and records the history", async () => {
    fake.reset();
    fake.enqueue(
      toolUseReply('consultar_vendas', { metrica: 'total_bruto', periodo: 'semana_passada' }),
    );
    const { c, events } = recorder('k1');
    await ok(invokeChannel(withKey, 'sales/selectMerchant', { merchantId: 1 }, c));
    const a = await ok<SalesAskResult>(
      invokeChannel(
        withKey,
        'sales/ask',
        { pergunta: 'quanto vendi semana passada?', requestId: 'req00000002' },
        c,
      ),
    );
    expect(a).toMatchObject({
      tipo: 'resposta',
      origem: 'pergunta',
      pergunta: 'quanto vendi semana passada?',
      merchant: { id: 1 },
      linhas: [{ grupo: null, valor: 100_000 }],
    });
    expect(fake.requests).toHaveLength(1);
    // The merchant is never in what the model sees.
    expect(JSON.stringify(fake.requests[0]!.body)).not.toMatch(/Padaria|merchant/i);
    expect(events.map((e) => e.etapa)).toEqual([
      'interpretando a pergunta…',
      'interpretando a pergunta…',
      'consultando as vendas…',
    ]);
    expect(events.every((e) => e.requestId === 'req00000002')).toBe(true);
    const v = await ok<SalesSessionView>(invokeChannel(withKey, 'sales/session', {}, c));
    expect(v.history).toEqual(['quanto vendi semana passada?']);
    expect(v.apiKeyConfigured).toBe(true);
  });

  it('a correction round shows "corrigindo a consulta — tentativa 2 de 3"', async () => {
    fake.reset();
    fake.enqueue(
      toolUseReply('consultar_vendas', { metrica: 'total_bruto' }),
      toolUseReply('consultar_vendas', { metrica: 'quantidade', periodo: 'semana_passada' }),
    );
    const { c, events } = recorder('k2');
    await ok(invokeChannel(withKey, 'sales/selectMerchant', { merchantId: 1 }, c));
    const a = await ok<SalesAskResult>(
      invokeChannel(
        withKey,
        'sales/ask',
        { pergunta: 'quantas vendas?', requestId: 'req00000003' },
        c,
      ),
    );
    expect(a).toMatchObject({ tipo: 'resposta', linhas: [{ grupo: null, valor: 4 }] });
    expect(events.map((e) => e.etapa)).toContain('corrigindo a consulta — tentativa 2 de 3');
    expect(events.find((e) => e.tentativa === 2)).toMatchObject({ maxTentativas: 3 });
  });

  it('a clarification comes back as a question, with the original text', async () => {
    fake.reset();
    fake.enqueue(toolUseReply('consultar_vendas', { pergunta_esclarecimento: 'De qual período?' }));
    const { c } = recorder('k3');
    await ok(invokeChannel(withKey, 'sales/selectMerchant', { merchantId: 1 }, c));
    const a = await ok<SalesAskResult>(
      invokeChannel(
        withKey,
        'sales/ask',
        { pergunta: 'quanto vendi?', requestId: 'req00000004' },
        c,
      ),
    );
    expect(a).toEqual({
      tipo: 'esclarecimento',
      pergunta: 'quanto vendi?',
      esclarecimento: 'De qual período?',
      merchant: { id: 1, nome: 'Padaria São Jorge' },
    });
  });

  it('cancel stops a question while the model works', async () => {
    fake.reset();
    fake.enqueue(
      toolUseReply(
        'consultar_vendas',
        { metrica: 'total_bruto', periodo: 'ontem' },
        // Never answers within the test: only the cancel can end the question.
        { delayMs: 600_000 },
      ),
    );
    const { c } = recorder('k4');
    await ok(invokeChannel(withKey, 'sales/selectMerchant', { merchantId: 1 }, c));
    const pending = invokeChannel(
      withKey,
      'sales/ask',
      { pergunta: 'quanto vendi ontem?', requestId: 'req00000005' },
      c,
    );
    await expect.poll(() => fake.requests.length).toBe(1);
    // Another window cannot cancel it.
    expect(
      await ok(invokeChannel(withKey, 'sales/cancel', { requestId: 'req00000005' }, ctx('k5'))),
    ).toEqual({ cancelado: false });
    expect(
      await ok(invokeChannel(withKey, 'sales/cancel', { requestId: 'req00000005' }, c)),
    ).toEqual({ cancelado: true });
    const r = await pending;
    expect(r).toMatchObject({ ok: false, error: { code: 'cancelado' } });
  });

  it('model unavailable: a pt-BR error, never the API text', async () => {
    fake.reset();
    fake.enqueue(statusReply(529, { message: 'Overloaded SECRET-DETAIL' }));
    const { c } = recorder('k6');
    await ok(invokeChannel(withKey, 'sales/selectMerchant', { merchantId: 1 }, c));
    const r = await invokeChannel(
      withKey,
      'sales/ask',
      { pergunta: 'quanto vendi ontem?', requestId: 'req00000006' },
      c,
    );
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('modelo_indisponivel');
      expect(r.error.message).not.toMatch(/SECRET|Overloaded/);
    }
  });
});

describe('database down', () => {
  it('a query answers with a pt-BR "banco indisponível" error, not a driver message', async () => {
    // A port nobody listens on: connection refused, as when PostgreSQL is stopped.
    const dead = createPool('postgres://balcao_analytics@127.0.0.1:1/balcao', { max: 1 });
    const h = testHandlers(
      { admin: db.admin, app: db.app, analytics: dead },
      createMemorySettings({ timeZone: ZONE }, {}),
    );
    try {
      await ok(invokeChannel(h, 'sales/selectMerchant', { merchantId: 1 }, ctx('d1')));
      const r = await invokeChannel(h, 'sales/run', { consulta: semanaPassada }, ctx('d1'));
      expect(r).toEqual({
        ok: false,
        error: {
          code: 'banco_indisponivel',
          // #42.6: what the person can do, not a server to check.
          message:
            'Não foi possível falar com o banco de dados agora. Tente de novo em instantes; se continuar, avise o administrador.',
        },
      });
    } finally {
      await dead.end();
    }
  });
});
