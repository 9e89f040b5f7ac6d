/**
 * #39.5 bulk actions and #39.4's last sentence (a wrong automatic charge cancelled from the quality
 * review), through the IPC wrapper with real logins on real PostgreSQL: supervisor-only, bounded
 * input, each item done or skipped with its pt-BR reason and its own audit entry, nothing
 * half-applied on an item another transaction holds, and the quality review's cancel going to the
 * fake PSP (PATCH /cob) and sending the item back to the queue, where a person redoes it.
 */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Channel, IpcResult } from '@shared/contract';
import type { QueuePage } from '@shared/contract/review';
import type { BulkResult } from '@shared/contract/review-bulk';
import { clockForLocalDate, fixedClock } from '../../src-main/clock';
import { createPool } from '../../src-main/db/pool';
import { urlForRole } from '../../src-main/db/urls';
import { invokeChannel } from '../../src-main/ipc/invoke';
import type { CallContext } from '../../src-main/ipc/types';
import { createPerson } from '../../src-main/people/admin';
import { createPixClient, type PixClient } from '../../src-main/psp/client';
import { pspConfig } from '../../src-main/psp/config';
import { syncCharge, type DispatchDeps } from '../../src-main/psp/dispatch';
import { MSG_ITEM_OCUPADO } from '../../src-main/queue/bulk';
import { claim } from '../../src-main/queue/lease';
import { createMemorySettings } from '../../src-main/settings/memory';
import { startServices, type Services } from '../../src-main/start-services';
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

const ZONE = 'America/Sao_Paulo';
const P = `b${randomBytes(3).toString('hex')}`;
const SENHA = 'senha-lote-789';
const SUE = `${P}_sue`;
const ANA = `${P}_ana`;
const SOFIA = `${P}_sofia`;
const CHAVE = 'financeiro@padaria.com.br';

let db: TestDatabase;
let app: Services;
let psp: FakePsp;
let client: PixClient;
let suePool: pg.Pool;
const ctx: CallContext = { sessionId: 'janela-lote', emit: () => undefined };
const call = <T>(ch: Channel, input: unknown) =>
  invokeChannel(app.handlers, ch, input as never, ctx, silentLogger, app.gate) as Promise<
    IpcResult<T>
  >;
const signIn = async (usuario: string) => {
  await call('session/signOut', {});
  const r = await call('session/signIn', { usuario, senha: SENHA, lembrar: false });
  expect(r.ok, JSON.stringify(r)).toBe(true);
};
const ok = <T>(r: IpcResult<T>): T => {
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.data;
};

beforeAll(async () => {
  db = await createTestDatabase();
  await ensureMerchants(db.admin, { 1: 'Padaria Central' });
  await db.admin.query('UPDATE merchants SET chave_pix = $1 WHERE id = 1', [CHAVE]);
  for (const [nome, papel] of [
    [SUE, 'suporte'],
    [ANA, 'suporte'],
    [SOFIA, 'supervisor'],
  ] as const) {
    await createPerson(db.admin, { nome, papel, senha: SENHA });
  }
  psp = await startFakePsp();
  const env = {
    BALCAO_PSP_URL: psp.url,
    BALCAO_PSP_CLIENT_ID: psp.clientId,
    BALCAO_PSP_CLIENT_SECRET: psp.clientSecret,
    BALCAO_PSP_CERT: psp.files.cert,
    BALCAO_PSP_KEY: psp.files.key,
    BALCAO_PSP_CA: psp.files.ca,
  };
  client = createPixClient(
    { ...pspConfig(env)!, timeoutMs: 2000 },
    { clock: fixedClock(QUEUE_TEST_NOW) },
  );
  app = await startServices({
    settings: createMemorySettings(
      {
        databaseUrl: urlForRole(db.adminUrl, `${P}_ninguem`),
        analyticsDatabaseUrl: db.analyticsUrl,
        timeZone: ZONE,
      },
      {},
    ),
    dataDir: '/nao-usado',
    logger: silentLogger,
    appVersion: 'teste',
    clock: clockForLocalDate('2026-11-30', ZONE),
    env,
  });
  suePool = createPool(urlForRole(db.adminUrl, SUE, SENHA), { max: 2 });
}, 60_000);
afterAll(async () => {
  await suePool?.end();
  await app?.close();
  client?.close();
  await psp?.close();
  for (const r of [SUE, ANA, SOFIA]) {
    await db.admin.query(`DROP ROLE IF EXISTS ${r}`).catch(() => 0);
  }
  await db.drop();
});

/** `n` open items, in id order. */
async function items(n: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) ids.push(await insertExtraction(db.admin, { status: 'incompleto' }));
  return ids;
}

async function state(ids: number[]) {
  const r = await db.admin.query<{
    id: string;
    fila_estado: string;
    descarte_motivo: string | null;
    atribuida_a: string | null;
    atribuida_por: string | null;
  }>(
    `SELECT id, fila_estado, descarte_motivo, atribuida_a, atribuida_por FROM extracoes
      WHERE id = ANY($1::bigint[]) ORDER BY id`,
    [ids],
  );
  return new Map(r.rows.map((x) => [Number(x.id), x]));
}

async function audits(acao: string, ids: number[]) {
  const r = await db.admin.query<{
    extracao_id: string;
    login: string;
    antes: unknown;
    depois: unknown;
    detalhes: Record<string, unknown>;
  }>(
    `SELECT extracao_id, login, antes, depois, detalhes FROM auditoria
      WHERE acao = $1 AND extracao_id = ANY($2::bigint[]) ORDER BY extracao_id, id`,
    [acao, ids],
  );
  return r.rows.map((x) => ({ ...x, extracao_id: Number(x.extracao_id) }));
}

describe('bulk actions (#39.5)', () => {
  it('are a supervisor’s: suporte is refused in pt-BR, and nothing changes', async () => {
    const [a] = await items(1);
    await signIn(SUE);
    for (const [ch, input] of [
      ['review/bulk', { acao: 'descartar', ids: [a], motivo: 'teste' }],
      ['review/assignees', {}],
    ] as const) {
      expect(await call(ch, input)).toEqual({
        ok: false,
        error: { code: 'acesso_negado', message: 'Só um supervisor pode fazer isso.' },
      });
    }
    expect((await state([a!])).get(a!)!.fila_estado).toBe('aberta');
    expect(await audits('descartada', [a!])).toEqual([]);
  });

  it('take a bounded, well-formed selection', async () => {
    await signIn(SOFIA);
    const ids = Array.from({ length: 201 }, (_, i) => i + 1);
    for (const [input, campo] of [
      [{ acao: 'descartar', ids, motivo: 'teste' }, 'ids'],
      [{ acao: 'descartar', ids: [], motivo: 'teste' }, 'ids'],
      [{ acao: 'descartar', ids: [5, 5], motivo: 'teste' }, 'ids'],
      [{ acao: 'descartar', ids: [5], motivo: 'outro' }, 'detalhe'],
      [{ acao: 'reabrir', ids: [5] }, 'motivo'],
      [{ acao: 'atribuir', ids: [5], para: 'Robert); DROP' }, 'para'],
      [{ acao: 'apagar', ids: [5] }, 'acao'],
    ] as const) {
      const r = await call('review/bulk', input);
      expect(r.ok, JSON.stringify(input)).toBe(false);
      if (!r.ok) {
        expect(r.error.code).toBe('entrada_invalida');
        expect(Object.keys(r.error.fields ?? {}), JSON.stringify(r.error)).toContain(campo);
      }
    }
    const r = await call('review/bulk', { acao: 'descartar', ids, motivo: 'teste' });
    expect(!r.ok && r.error.fields?.ids).toEqual(['Selecione no máximo 200 pedidos por vez.']);
  });

  it('discard: one reason for all, each audited; held and closed items are skipped with why', async () => {
    const [a, b, held, closed] = await items(4);
    const lease = await claim(suePool, { id: held!, operador: SUE });
    expect(lease.claimed).toBe(true);
    await signIn(SOFIA);
    ok(await call('review/bulk', { acao: 'descartar', ids: [closed], motivo: 'teste' }));
    const r = ok(
      await call<BulkResult>('review/bulk', {
        acao: 'descartar',
        ids: [a, held, b, closed],
        motivo: 'duplicada',
        detalhe: 'mesmo pedido de ontem',
      }),
    );
    expect(r).toEqual({
      acao: 'descartar',
      feitos: 2,
      ignorados: 2,
      itens: [
        { id: a, feito: true },
        {
          id: held,
          feito: false,
          motivo: `Este item está em análise por ${SUE}. Só quem está com o item pode agir.`,
        },
        { id: b, feito: true },
        { id: closed, feito: false, motivo: `Este item foi descartado por ${SOFIA}.` },
      ],
    });
    const s = await state([a!, b!, held!, closed!]);
    expect([a, b, held].map((id) => s.get(id!)!.fila_estado)).toEqual([
      'descartada',
      'descartada',
      'aberta',
    ]);
    expect(s.get(closed!)!.descarte_motivo).toBe('teste');
    const log = await audits('descartada', [a!, b!, held!]);
    expect(log.map((x) => [x.extracao_id, x.login, x.detalhes])).toEqual([
      [a, SOFIA, { em_lote: true }],
      [b, SOFIA, { em_lote: true }],
    ]);
    expect(log[0]!.depois).toEqual({
      fila_estado: 'descartada',
      motivo: 'duplicada',
      detalhe: 'mesmo pedido de ontem',
    });
    // No lease is left behind on the items it discarded; sue still holds hers.
    const leases = await db.admin.query<{ id: string; lease_login: string | null }>(
      'SELECT id, lease_login FROM extracoes WHERE id = ANY($1::bigint[]) ORDER BY id',
      [[a, b, held]],
    );
    expect(leases.rows.map((x) => x.lease_login)).toEqual([null, null, SUE]);
  });

  it('an item another transaction holds is skipped untouched; the others are done', async () => {
    const [a, locked, b] = await items(3);
    const locker = await db.admin.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('SELECT 1 FROM extracoes WHERE id = $1 FOR UPDATE', [locked]);
      await signIn(SOFIA);
      const r = ok(
        await call<BulkResult>('review/bulk', {
          acao: 'descartar',
          ids: [a, locked, b],
          motivo: 'teste',
        }),
      );
      expect(r.itens).toEqual([
        { id: a, feito: true },
        { id: locked, feito: false, motivo: MSG_ITEM_OCUPADO },
        { id: b, feito: true },
      ]);
    } finally {
      await locker.query('ROLLBACK');
      locker.release();
    }
    const s = await state([a!, locked!, b!]);
    expect(s.get(locked!)!.fila_estado).toBe('aberta');
    expect((await audits('descartada', [a!, locked!, b!])).map((x) => x.extracao_id)).toEqual([
      a,
      b,
    ]);
  });

  it('assign: to a person of the queue, audited per item; the list shows it; the database refuses it to suporte', async () => {
    const [a, b, held] = await items(3);
    const lease = await claim(suePool, { id: held!, operador: SUE });
    expect(lease.claimed).toBe(true);
    await signIn(SOFIA);
    const people = ok(await call<{ pessoas: { login: string }[] }>('review/assignees', {}));
    expect(people.pessoas.map((p) => p.login)).toEqual(expect.arrayContaining([ANA, SUE, SOFIA]));
    const nobody = await call('review/bulk', { acao: 'atribuir', ids: [a], para: `${P}_zeca` });
    expect(nobody).toMatchObject({ ok: false, error: { code: 'entrada_invalida' } });
    const r = ok(
      await call<BulkResult>('review/bulk', { acao: 'atribuir', ids: [a, held, b], para: ANA }),
    );
    expect(r.itens.map((i) => i.feito)).toEqual([true, false, true]);
    const again = ok(
      await call<BulkResult>('review/bulk', { acao: 'atribuir', ids: [a], para: ANA }),
    );
    expect(again.itens).toEqual([{ id: a, feito: false, motivo: `Já está atribuído a ${ANA}.` }]);
    const s = await state([a!, b!, held!]);
    expect([a, b, held].map((id) => s.get(id!)!.atribuida_a)).toEqual([ANA, ANA, null]);
    expect(s.get(a!)!.atribuida_por).toBe(SOFIA);
    const log = await audits('atribuida', [a!, b!, held!]);
    expect(log.map((x) => [x.extracao_id, x.login, x.antes, x.depois])).toEqual([
      [a, SOFIA, { atribuida_a: null }, { atribuida_a: ANA }],
      [b, SOFIA, { atribuida_a: null }, { atribuida_a: ANA }],
    ]);
    const page = ok(await call<QueuePage>('review/list', { view: 'aberta', limit: 200 }));
    expect(page.items.find((i) => i.id === a)?.atribuidaA).toBe(ANA);
    // A support login cannot assign, even with its own SQL.
    await expect(
      suePool.query('UPDATE extracoes SET atribuida_a = $2 WHERE id = $1', [b, SUE]),
    ).rejects.toThrow('Só um supervisor pode atribuir pedidos a uma pessoa.');
  });

  it('reopen: the discarded ones come back, each audited with the reason; an open one is skipped', async () => {
    const [a, b, open] = await items(3);
    await signIn(SOFIA);
    ok(await call('review/bulk', { acao: 'descartar', ids: [a, b], motivo: 'teste' }));
    const r = ok(
      await call<BulkResult>('review/bulk', {
        acao: 'reabrir',
        ids: [a, b, open],
        motivo: 'descartados por engano',
      }),
    );
    expect(r.itens).toEqual([
      { id: a, feito: true },
      { id: b, feito: true },
      { id: open, feito: false, motivo: 'Só um item descartado pode ser reaberto.' },
    ]);
    const s = await state([a!, b!]);
    expect([a, b].map((id) => s.get(id!)!.fila_estado)).toEqual(['aberta', 'aberta']);
    const log = await audits('reaberta', [a!, b!, open!]);
    expect(log.map((x) => [x.extracao_id, x.login, x.detalhes])).toEqual([
      [a, SOFIA, { descartada_por: SOFIA, motivo: 'descartados por engano', em_lote: true }],
      [b, SOFIA, { descartada_por: SOFIA, motivo: 'descartados por engano', em_lote: true }],
    ]);
  });
});

describe('a wrong automatic charge, from the quality review (#39.4)', () => {
  const dispatch = (): DispatchDeps => ({
    pool: db.app,
    client,
    clock: fixedClock(QUEUE_TEST_NOW),
    zone: ZONE,
    leaseMs: 30_000,
    backoffS: () => 0,
  });
  const wrong = {
    valor_centavos: false,
    parcelas: true,
    metodo: true,
    cliente_nome: true,
    vencimento: true,
    descricao: true,
  };

  /** An automatic Pix charge (operator "sistema", the intake's), registered at the fake PSP. */
  async function automatic(versao: string, operador = 'sistema') {
    const d = dados({
      metodo: 'pix',
      parcelas: 1,
      valor_centavos: 15000,
      vencimento: '2026-12-04',
    });
    const id = await insertExtraction(db.admin, { status: 'completo', dados: d });
    await db.admin.query(
      `UPDATE extracoes SET modelo = 'claude-teste', versao_prompt = $2 WHERE id = $1`,
      [id, versao],
    );
    const q = queueFor(db.app, { operator: operador });
    const l = await q.claim(id);
    if (!l.claimed) throw new Error(l.mensagem);
    const c = await q.confirm({ id, token: l.token, dados: d });
    expect(await syncCharge(dispatch(), c.cobranca.id)).toBe('registrada');
    const t = await db.admin.query<{ txid: string }>(
      'SELECT txid FROM cobrancas_envios WHERE cobranca_id = $1',
      [c.cobranca.id],
    );
    return { extracao: id, cobranca: c.cobranca.id, txid: t.rows[0]!.txid, dados: d };
  }

  it('cancels at the PSP, sends the item back, each step audited; a person then redoes it', async () => {
    const x = await automatic('p-refazer');
    await signIn(SOFIA);
    const r = await call('quality/cancelCharge', { cobrancaId: x.cobranca, campos: wrong });
    expect(r).toEqual({
      ok: true,
      data: { cobrancaId: x.cobranca, extracaoId: x.extracao, julgadaPor: SOFIA },
    });
    const patch = psp.calls.filter((c) => c.method === 'PATCH');
    expect(patch.map((c) => c.path)).toEqual([`/cob/${x.txid}`]);
    expect(psp.cobs.get(x.txid)?.status).toBe('REMOVIDA_PELO_USUARIO_RECEBEDOR');
    const row = await db.admin.query<{ estado: string; devolvida_por: string; fila: string }>(
      `SELECT e.estado, c.devolvida_por, x.fila_estado AS fila
         FROM cobrancas c JOIN cobrancas_envios e ON e.cobranca_id = c.id
         JOIN extracoes x ON x.id = c.extracao_id WHERE c.id = $1`,
      [x.cobranca],
    );
    expect(row.rows[0]).toEqual({ estado: 'cancelada', devolvida_por: SOFIA, fila: 'aberta' });
    // The copia-e-cola queued for the merchant when it was registered never goes out.
    const msg = await db.admin.query<{ estado: string; motivo: string | null }>(
      `SELECT estado, motivo FROM mensagens_saida WHERE cobranca_id = $1`,
      [x.cobranca],
    );
    expect(msg.rows).toEqual([
      { estado: 'falhou', motivo: 'Não enviada: a cobrança foi cancelada antes do envio.' },
    ]);
    const log = await db.admin.query<{ acao: string; login: string; detalhes: unknown }>(
      `SELECT acao, login, detalhes FROM auditoria WHERE extracao_id = $1
          AND acao IN ('qualidade_julgada', 'cobranca_cancelada', 'reaberta') ORDER BY id`,
      [x.extracao],
    );
    expect(log.rows).toEqual([
      { acao: 'cobranca_cancelada', login: SOFIA, detalhes: { cobranca_id: x.cobranca } },
      { acao: 'qualidade_julgada', login: SOFIA, detalhes: { cobranca_id: x.cobranca } },
      {
        acao: 'reaberta',
        login: SOFIA,
        detalhes: {
          resolvida_por: 'sistema',
          motivo: 'Cobrança automática errada, cancelada na revisão de qualidade.',
          origem: 'revisao_qualidade',
          cobranca_id: x.cobranca,
        },
      },
    ]);
    // Run again (a retry after a lost answer): nothing is done twice.
    expect(await call('quality/cancelCharge', { cobrancaId: x.cobranca, campos: wrong })).toEqual(
      r,
    );
    expect(psp.calls.filter((c) => c.method === 'PATCH')).toHaveLength(1);
    // A person redoes it: a new charge, the cancelled one kept apart.
    await signIn(ANA);
    const l = ok(await call<{ claimed: true; token: string }>('review/claim', { id: x.extracao }));
    const redo = ok(
      await call<{ criada: boolean; cobranca: { id: number; valorCentavos: number } }>(
        'review/confirm',
        { id: x.extracao, token: l.token, dados: { ...x.dados, valor_centavos: 12000 } },
      ),
    );
    expect(redo.criada).toBe(true);
    expect(redo.cobranca.id).not.toBe(x.cobranca);
    const charges = await db.admin.query<{ id: string; devolvida: boolean; valor: string }>(
      `SELECT id, devolvida_em IS NOT NULL AS devolvida, valor_centavos AS valor FROM cobrancas
        WHERE extracao_id = $1 ORDER BY id`,
      [x.extracao],
    );
    expect(charges.rows.map((c) => [Number(c.id), c.devolvida, Number(c.valor)])).toEqual([
      [x.cobranca, true, 15000],
      [redo.cobranca.id, false, 12000],
    ]);
  });

  it('the PSP refuses the cancel: nothing is saved, the sample waits; the next try does it all', async () => {
    const x = await automatic('p-psp-recusa');
    await signIn(SOFIA);
    psp.fault('PATCH', '/cob/', { status: 400 });
    const r = await call('quality/cancelCharge', { cobrancaId: x.cobranca, campos: wrong });
    expect(r).toMatchObject({ ok: false, error: { code: 'conflito' } });
    if (!r.ok) expect(r.error.message).toMatch(/^O PSP não cancelou a cobrança/);
    const before = await db.admin.query<{ julgada: boolean; fila: string; estado: string }>(
      `SELECT a.julgada_em IS NOT NULL AS julgada, x.fila_estado AS fila, e.estado
         FROM qualidade_amostras a JOIN extracoes x ON x.id = a.extracao_id
         JOIN cobrancas_envios e ON e.cobranca_id = a.cobranca_id WHERE a.cobranca_id = $1`,
      [x.cobranca],
    );
    expect(before.rows[0]).toEqual({ julgada: false, fila: 'resolvida', estado: 'registrada' });
    expect(psp.cobs.get(x.txid)?.status).toBe('ATIVA');
    expect(
      ok(await call('quality/cancelCharge', { cobrancaId: x.cobranca, campos: wrong })),
    ).toEqual({ cobrancaId: x.cobranca, extracaoId: x.extracao, julgadaPor: SOFIA });
    expect(psp.cobs.get(x.txid)?.status).toBe('REMOVIDA_PELO_USUARIO_RECEBEDOR');
  });

  it('refuses what it must not cancel: an agent’s charge, a charge with nothing wrong, suporte', async () => {
    const byAgent = await automatic('p-agente', 'Ana');
    await signIn(SOFIA);
    const r = await call('quality/cancelCharge', { cobrancaId: byAgent.cobranca, campos: wrong });
    expect(r).toMatchObject({ ok: false, error: { code: 'conflito' } });
    const right = Object.fromEntries(Object.keys(wrong).map((k) => [k, true]));
    const none = await call('quality/cancelCharge', {
      cobrancaId: byAgent.cobranca,
      campos: right,
    });
    expect(none).toMatchObject({ ok: false, error: { code: 'entrada_invalida' } });
    await signIn(SUE);
    expect(
      await call('quality/cancelCharge', { cobrancaId: byAgent.cobranca, campos: wrong }),
    ).toEqual({
      ok: false,
      error: { code: 'acesso_negado', message: 'Só um supervisor pode fazer isso.' },
    });
    expect(psp.cobs.get(byAgent.txid)?.status).toBe('ATIVA');
  });
});
