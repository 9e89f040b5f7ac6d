/**
 * #36: from a confirmed charge to money, against a local PSP over real HTTPS with mutual TLS
 * (test/support/fake-psp.ts) and real PostgreSQL. Invariants checked throughout: exactly one
 * charge at the PSP per Balcão charge, never `paga` without the PSP confirming it.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../src-main/clock';
import { startBoss } from '../../src-main/intake/jobs';
import { signBody, startIntakeServer, type IntakeServer } from '../../src-main/intake/serve';
import { cancel, markSentToMerchant, resend, setChavePix } from '../../src-main/psp/admin';
import { createPixClient, type PixClient } from '../../src-main/psp/client';
import { pspConfig } from '../../src-main/psp/config';
import { SEM_CHAVE, SEM_PSP, syncCharge, type DispatchDeps } from '../../src-main/psp/dispatch';
import { handlePixWebhook } from '../../src-main/psp/webhook';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { runCli, cliEnv } from '../support/cli';
import { startFakePsp, type FakePsp } from '../support/fake-psp';
import {
  QUEUE_TEST_NOW,
  dados,
  ensureMerchants,
  insertExtraction,
  queueFor,
} from '../support/queue-fixtures';

const ROOT = resolve(import.meta.dirname, '../..');
const TOKEN = 'webhook-token-de-teste-0123';
const CHAVE = 'financeiro@padaria.com.br';
let db: TestDatabase;
let psp: FakePsp;
let client: PixClient;
let boss: PgBoss;
let srv: IntakeServer;
let deps: DispatchDeps;

function pspEnv(): NodeJS.ProcessEnv {
  return {
    BALCAO_PSP_URL: psp.url,
    BALCAO_PSP_CLIENT_ID: psp.clientId,
    BALCAO_PSP_CLIENT_SECRET: psp.clientSecret,
    BALCAO_PSP_CERT: psp.files.cert,
    BALCAO_PSP_KEY: psp.files.key,
    BALCAO_PSP_CA: psp.files.ca,
    BALCAO_PSP_WEBHOOK_TOKEN: TOKEN,
  };
}

beforeAll(async () => {
  db = await createTestDatabase();
  await ensureMerchants(db.admin, { 1: 'Padaria Central', 2: 'Oficina Sem Chave' });
  await db.admin.query('UPDATE merchants SET chave_pix = $1 WHERE id = 1', [CHAVE]);
  psp = await startFakePsp();
  const cfg = pspConfig(pspEnv())!;
  client = createPixClient({ ...cfg, timeoutMs: 400 }, { clock: fixedClock(QUEUE_TEST_NOW) });
  boss = await startBoss(db.app);
  srv = await startIntakeServer({
    pool: db.app,
    boss,
    secret: 'segredo-de-teste-0123456789',
    clock: fixedClock(QUEUE_TEST_NOW),
    port: 0,
    pixWebhook: (req, res, path) =>
      handlePixWebhook({ pool: db.app, token: TOKEN }, req, res, path),
  });
  deps = {
    pool: db.app,
    client,
    clock: fixedClock(QUEUE_TEST_NOW),
    zone: 'America/Sao_Paulo',
    leaseMs: 30_000,
    backoffS: () => 0,
  };
}, 60_000);

afterAll(async () => {
  client?.close();
  await srv?.close();
  await boss?.stop({ graceful: false, close: false, wait: true });
  await psp?.close();
  await db?.drop();
});

beforeEach(() => {
  psp.calls.length = 0;
});

/** An agent confirms a Pix charge in the queue (the real confirm path); returns its id. */
async function confirmedPix(
  p: { merchantId?: number; valor?: number; vencimento?: string; descricao?: string | null } = {},
): Promise<number> {
  const d = dados({
    metodo: 'pix',
    parcelas: 1,
    valor_centavos: p.valor ?? 15000,
    vencimento: p.vencimento ?? '2026-12-02',
    descricao: p.descricao === undefined ? 'Bolo de aniversário' : p.descricao,
  });
  const id = await insertExtraction(db.admin, {
    merchantId: p.merchantId ?? 1,
    status: 'completo',
    dados: d,
  });
  const ana = queueFor(db.app, { operator: 'Ana' });
  const lease = await ana.claim(id);
  if (!lease.claimed) throw new Error(lease.mensagem);
  const r = await ana.confirm({ id, token: lease.token, dados: d });
  return r.cobranca.id;
}

async function envio(id: number) {
  const r = await db.admin.query<{
    estado: string;
    motivo: string | null;
    txid: string;
    copia_e_cola: string | null;
    location: string | null;
    tentativas: number;
    pago_centavos: string | null;
  }>('SELECT * FROM cobrancas_envios WHERE cobranca_id = $1', [id]);
  return r.rows[0]!;
}

async function eventos(id: number): Promise<string[]> {
  const r = await db.admin.query<{ evento: string }>(
    'SELECT evento FROM cobrancas_eventos WHERE cobranca_id = $1 ORDER BY id',
    [id],
  );
  return r.rows.map((x) => x.evento);
}

const puts = (txid: string) =>
  psp.calls.filter((c) => c.method === 'PUT' && c.path === `/cob/${txid}`);

async function postWebhook(body: unknown, token = TOKEN) {
  const r = await fetch(`${srv.url}/pix/webhook/${token}/pix`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

describe('creating a charge', () => {
  it('writes its dispatch row, first event and job in the same statement; parallel confirms give one of each', async () => {
    const d = dados({ metodo: 'pix', parcelas: 1, vencimento: '2026-12-02' });
    const id = await insertExtraction(db.admin, { status: 'completo', dados: d });
    const ana = queueFor(db.app, { operator: 'Ana' });
    const lease = await ana.claim(id);
    if (!lease.claimed) throw new Error(lease.mensagem);
    const rs = await Promise.all(
      Array.from({ length: 6 }, () => ana.confirm({ id, token: lease.token, dados: d })),
    );
    const cid = rs[0]!.cobranca.id;
    const e = await envio(cid);
    expect(e.estado).toBe('pendente');
    expect(e.txid).toMatch(/^[a-zA-Z0-9]{26,35}$/);
    expect(await eventos(cid)).toEqual(['criada']);
    const jobs = await db.admin.query(
      `SELECT 1 FROM pgboss.job WHERE name = 'cobrancas' AND (data->>'cobranca')::bigint = $1`,
      [cid],
    );
    expect(jobs.rowCount).toBe(1);
    const n = await db.admin.query(
      'SELECT count(*)::int AS n FROM cobrancas_envios WHERE cobranca_id = $1',
      [cid],
    );
    expect(n.rows[0].n).toBe(1);
  });
});

describe('dispatch to the PSP', () => {
  it('confirm → registrada with copia-e-cola (body as the spec wants) → webhook → paga after GET /cob confirms', async () => {
    const id = await confirmedPix({ valor: 15000 });
    expect(await syncCharge(deps, id)).toBe('registrada');
    const e = await envio(id);
    expect(e.estado).toBe('registrada');
    expect(e.copia_e_cola).toBe(psp.cobs.get(e.txid)!.pixCopiaECola);
    const [put] = puts(e.txid);
    expect(put!.status).toBe(201);
    // 23:59:59 of 2026-12-02 in São Paulo (-03:00) from 2026-11-30T15:00Z.
    expect(put!.body).toEqual({
      calendario: { expiracao: 2 * 86_400 + 11 * 3600 + 59 * 60 + 59 },
      valor: { original: '150.00' },
      chave: CHAVE,
      solicitacaoPagador: 'Bolo de aniversário',
    });
    // The payer pays; the PSP calls the webhook (twice: a duplicate changes nothing).
    const body = psp.pay(e.txid);
    expect(await postWebhook(body)).toEqual({ status: 200, body: { recebidos: 1, repetidos: 0 } });
    expect(await postWebhook(body)).toEqual({ status: 200, body: { recebidos: 0, repetidos: 1 } });
    const stored = await db.admin.query<{ cobranca_id: string }>(
      'SELECT cobranca_id FROM pix_recebidos WHERE txid = $1',
      [e.txid],
    );
    expect(stored.rows.map((r) => Number(r.cobranca_id))).toEqual([id]);
    // One job scheduled by the webhook (the duplicate scheduled none).
    const jobs = await db.admin.query(
      `SELECT 1 FROM pgboss.job WHERE name = 'cobrancas' AND (data->>'cobranca')::bigint = $1`,
      [id],
    );
    expect(jobs.rowCount).toBe(2);
    // The merchant got the copia-e-cola in between: still confirmed by the PSP alone.
    expect(await markSentToMerchant(db.app, id, 'sistema', { canal: 'teste' })).toBe(true);
    expect(await markSentToMerchant(db.app, id, 'sistema')).toBe(false);
    expect(await syncCharge(deps, id)).toBe('paga');
    const paid = await envio(id);
    expect(paid.estado).toBe('paga');
    expect(Number(paid.pago_centavos)).toBe(15000);
    expect(await eventos(id)).toEqual(['criada', 'registrada', 'enviada_ao_lojista', 'paga']);
    expect(psp.calls.filter((c) => c.method === 'GET').length).toBe(1);
  });

  it('without a PSP the charge stays pendente and says why; nothing is sent', async () => {
    const id = await confirmedPix();
    expect(await syncCharge({ ...deps, client: null }, id)).toBe('sem_psp');
    expect(await envio(id)).toMatchObject({ estado: 'pendente', motivo: SEM_PSP });
    expect(psp.calls).toHaveLength(0);
  });

  it('a merchant without a Pix key: falhou with that reason, nothing sent', async () => {
    const id = await confirmedPix({ merchantId: 2 });
    expect(await syncCharge(deps, id)).toBe('falhou');
    expect(await envio(id)).toMatchObject({ estado: 'falhou', motivo: SEM_CHAVE });
    expect(psp.calls).toHaveLength(0);
  });

  it('500, then 429 with Retry-After, then a timeout: retried with the same txid; one charge at the PSP', async () => {
    const id = await confirmedPix({ valor: 9990 });
    const { txid } = await envio(id);
    psp.fault('PUT', '/cob/', { status: 500 });
    psp.fault('PUT', '/cob/', { status: 429, retryAfter: 7 });
    psp.fault('PUT', '/cob/', 'timeout');
    expect(await syncCharge(deps, id)).toBe('adiada');
    expect(await syncCharge(deps, id, { force: true })).toBe('adiada');
    const ra = await db.admin.query<{ detalhes: { nova_tentativa_em_s: number; status: number } }>(
      `SELECT detalhes FROM cobrancas_eventos WHERE cobranca_id = $1 AND evento = 'tentativa_falhou' ORDER BY id`,
      [id],
    );
    expect(ra.rows.map((r) => r.detalhes.status)).toEqual([500, 429]);
    expect(ra.rows[1]!.detalhes.nova_tentativa_em_s).toBe(7);
    // Waiting for Retry-After: a step without force does nothing.
    expect(await syncCharge(deps, id)).toBe('nada');
    expect(await syncCharge(deps, id, { force: true })).toBe('adiada'); // the timeout
    expect((await envio(id)).estado).toBe('pendente');
    expect(await syncCharge(deps, id, { force: true })).toBe('registrada');
    // The timeout came before the PSP stored anything: the next PUT creates it.
    expect(puts(txid).map((c) => c.status)).toEqual([500, 429, 0, 201]);
    expect([...psp.cobs.keys()].filter((k) => k === txid)).toHaveLength(1);
    expect((await envio(id)).tentativas).toBe(4);
  });

  it('a connection dropped after the PSP stored the charge: the retry re-PUTs the same txid, gets 409, GETs it and accepts it', async () => {
    const id = await confirmedPix({ valor: 4200 });
    const { txid } = await envio(id);
    psp.fault('PUT', `/cob/${txid}`, 'drop_after_store');
    expect(await syncCharge(deps, id)).toBe('adiada');
    expect(psp.cobs.has(txid)).toBe(true);
    expect(await syncCharge(deps, id, { force: true })).toBe('registrada');
    expect(puts(txid).map((c) => c.status)).toEqual([0, 409]);
    expect((await envio(id)).copia_e_cola).toBe(psp.cobs.get(txid)!.pixCopiaECola);
  });

  it('409 for a different charge under the same txid is not accepted: falhou for a person', async () => {
    const id = await confirmedPix({ valor: 5000 });
    const { txid } = await envio(id);
    psp.cobs.set(txid, {
      txid,
      revisao: 0,
      tipo: 'cob',
      status: 'ATIVA',
      calendario: {},
      valor: { original: '999.00' },
      chave: CHAVE,
      location: 'x',
      pixCopiaECola: 'y',
    });
    expect(await syncCharge(deps, id)).toBe('falhou');
    expect((await envio(id)).motivo).toMatch(/txid e dados diferentes/);
  });

  it('an expired token (401) is renewed once and the call goes through', async () => {
    const id = await confirmedPix({ valor: 1234 });
    const before = psp.tokensIssued();
    psp.fault('PUT', '/cob/', 'expire_token');
    expect(await syncCharge(deps, id)).toBe('registrada');
    expect(psp.tokensIssued()).toBe(before + 1);
    const { txid } = await envio(id);
    expect(puts(txid).map((c) => c.status)).toEqual([401, 201]);
  });

  it('a refusal (4xx) is not retried: falhou with the PSP reason in pt-BR', async () => {
    const id = await confirmedPix({ valor: 7700 });
    psp.fault('PUT', '/cob/', {
      status: 400,
      body: {
        type: 'https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida',
        title: 'Cobrança inválida.',
        status: 400,
        detail: 'A chave não pertence ao usuário recebedor.',
        violacoes: [{ razao: 'Chave não cadastrada no PSP.', propriedade: 'cob.chave' }],
      },
    });
    expect(await syncCharge(deps, id)).toBe('falhou');
    const e = await envio(id);
    expect(e.motivo).toContain('O PSP recusou a cobrança (HTTP 400)');
    expect(e.motivo).toContain('cob.chave: Chave não cadastrada no PSP.');
    expect(psp.calls).toHaveLength(1);
    // Sent again by a person: back to pendente, the same txid, registered.
    expect(await resend(deps, id, 'Bia')).toBe('registrada');
    expect(await eventos(id)).toEqual(['criada', 'recusada', 'reenviada', 'registrada']);
  });

  it('a webhook before the PUT answer: the charge becomes paga once registered and confirmed', async () => {
    const id = await confirmedPix({ valor: 3300 });
    const { txid } = await envio(id);
    const held = psp.hold('PUT', `/cob/${txid}`);
    const step = syncCharge(deps, id);
    await held.arrived;
    expect(await postWebhook(psp.pay(txid))).toMatchObject({ status: 200 });
    held.release();
    expect(await step).toBe('paga');
    expect(await eventos(id)).toEqual(['criada', 'registrada', 'paga']);
  });
});

describe('bounded', () => {
  it('transient failures are not retried forever: after the last attempt, falhou for a person', async () => {
    const { MAX_TENTATIVAS } = await import('../../src-main/psp/dispatch');
    const id = await confirmedPix({ valor: 2222 });
    await db.admin.query('UPDATE cobrancas_envios SET tentativas = $2 WHERE cobranca_id = $1', [
      id,
      MAX_TENTATIVAS - 1,
    ]);
    psp.fault('PUT', '/cob/', { status: 503 });
    expect(await syncCharge(deps, id)).toBe('falhou');
    const e = await envio(id);
    expect(e.motivo).toMatch(/não aceitou a cobrança em 12 tentativas; a última: .*HTTP 503/);
    expect(await eventos(id)).toEqual(['criada', 'tentativas_esgotadas']);
  });

  it('a registered charge past its due day without payment becomes expirada', async () => {
    const id = await confirmedPix({ valor: 3100, vencimento: '2026-12-01' });
    expect(await syncCharge(deps, id)).toBe('registrada');
    const later = { ...deps, clock: fixedClock(new Date('2026-12-02T03:00:00Z')) };
    expect(await syncCharge(later, id)).toBe('expirada');
    expect((await envio(id)).estado).toBe('expirada');
  });
});

describe('reconciliation', () => {
  it('a lost webhook: the reconciliation finds the payment at the PSP', async () => {
    const { reconcile } = await import('../../src-main/psp/dispatch');
    const id = await confirmedPix({ valor: 4321 });
    await syncCharge(deps, id);
    psp.pay((await envio(id)).txid); // no webhook arrives
    const r = await reconcile(deps, { olderThanS: 0 });
    expect(r.paga).toBe(1);
    expect((await envio(id)).estado).toBe('paga');
  });
});

describe('the webhook is never trusted alone', () => {
  it('a webhook whose charge the PSP does not confirm leaves it registrada', async () => {
    const id = await confirmedPix({ valor: 2500 });
    await syncCharge(deps, id);
    const { txid } = await envio(id);
    const forged = {
      pix: [
        { endToEndId: 'E'.padEnd(32, '1'), txid, valor: '25.00', horario: '2026-11-30T15:00:00Z' },
      ],
    };
    expect((await postWebhook(forged)).status).toBe(200);
    expect(await syncCharge(deps, id)).toBe('aguarda_pagamento');
    expect((await envio(id)).estado).toBe('registrada');
  });

  it('a different amount received is recorded and left for a person', async () => {
    const id = await confirmedPix({ valor: 8000 });
    await syncCharge(deps, id);
    const { txid } = await envio(id);
    await postWebhook(psp.pay(txid, '79.99'));
    expect(await syncCharge(deps, id)).toBe('valor_divergente');
    const e = await envio(id);
    expect(e.estado).toBe('registrada');
    expect(e.motivo).toMatch(/R\$\s79,99.*difere do cobrado \(R\$\s80,00\)/);
    expect(await eventos(id)).toContain('valor_divergente');
  });

  it('unknown txid is stored without a charge; a wrong token is 404; a malformed body 400', async () => {
    const unknown = {
      pix: [
        {
          endToEndId: 'E'.padEnd(32, '9'),
          txid: 'naoexiste0000000000000000000',
          valor: '1.00',
          horario: '2026-11-30T15:00:00Z',
        },
      ],
    };
    expect(await postWebhook(unknown)).toEqual({
      status: 200,
      body: { recebidos: 1, repetidos: 0 },
    });
    const r = await db.admin.query('SELECT cobranca_id FROM pix_recebidos WHERE txid = $1', [
      unknown.pix[0]!.txid,
    ]);
    expect(r.rows).toEqual([{ cobranca_id: null }]);
    expect((await postWebhook(unknown, 'outro-token-qualquer-123456')).status).toBe(404);
    const bad = await postWebhook({ pix: [{ txid: 'x', valor: 10 }] });
    expect(bad.status).toBe(400);
    expect(bad.body.erro).toMatch(/Notificação Pix inválida/);
    // The intake route still answers as before.
    const m = await fetch(`${srv.url}/mensagens`, {
      method: 'POST',
      body: '{}',
      headers: {
        'content-type': 'application/json',
        'x-balcao-signature': signBody('x'.repeat(20), '{}'),
      },
    });
    expect(m.status).toBe(401);
  });
});

describe('cancel and the CLI', () => {
  it('cancelar removes it at the PSP (PATCH) and audits it', async () => {
    const id = await confirmedPix({ valor: 6100 });
    await syncCharge(deps, id);
    const { txid } = await envio(id);
    const after = await cancel(deps, id, 'Carla');
    expect(after.estado).toBe('cancelada');
    expect(psp.cobs.get(txid)!.status).toBe('REMOVIDA_PELO_USUARIO_RECEBEDOR');
    const a = await db.admin.query(
      `SELECT operador FROM auditoria WHERE acao = 'cobranca_cancelada' AND detalhes->>'cobranca_id' = $1`,
      [String(id)],
    );
    expect(a.rows).toEqual([{ operador: 'Carla' }]);
  });

  it('lojistas chave-pix validates the key; cobrancas listar --json gives id, estado, txid, copia_e_cola', async () => {
    const env = cliEnv(db, { ...pspEnv(), BALCAO_OPERATOR: 'cli' });
    const bad = await runCli(
      ['lojistas', 'chave-pix', '--merchant', '2', '--chave', '123.456.789-00'],
      env,
    );
    expect(bad.code, bad.err).toBe(2);
    expect(bad.err).toMatch(/CPF inválido/);
    const ok = await runCli(
      ['lojistas', 'chave-pix', '--merchant', '2', '--chave', '+55 (11) 98765-4321', '--json'],
      env,
    );
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.out)).toMatchObject({
      id: 2,
      chave_pix: '+5511987654321',
      tipo: 'telefone',
    });
    const id = await confirmedPix({ valor: 1500 });
    await syncCharge(deps, id);
    const list = await runCli(['cobrancas', 'listar', '--json'], env);
    expect(list.code).toBe(0);
    const items = (JSON.parse(list.out) as { cobrancas: Record<string, unknown>[] }).cobrancas;
    const mine = items.find((i) => i.id === id)!;
    expect(mine).toMatchObject({ estado: 'registrada', txid: (await envio(id)).txid });
    expect(mine.copia_e_cola).toBe((await envio(id)).copia_e_cola);
    const cancel1 = await runCli(['cobrancas', 'cancelar', String(id)], env);
    expect(cancel1.code).toBe(2);
    expect(cancel1.err).toMatch(/--sim/);
    const show = await runCli(['cobrancas', 'mostrar', String(id)], env);
    expect(show.out).toMatch(/registrada no PSP/);
    expect(show.out).toMatch(/copia e cola: 0002/);
  });

  it('cobrancas webhook registers the URL per key; reconciliar and cancelar --sim work from a terminal', async () => {
    const env = cliEnv(db, { ...pspEnv(), BALCAO_OPERATOR: 'cli' });
    const w = await runCli(
      ['cobrancas', 'webhook', '--url', 'https://balcao.exemplo.com.br/', '--json'],
      env,
    );
    expect(w.code, w.err).toBe(0);
    expect(psp.webhooks.get(CHAVE)).toBe(`https://balcao.exemplo.com.br/pix/webhook/${TOKEN}`);
    const id = await confirmedPix({ valor: 5555 });
    await syncCharge(deps, id);
    psp.pay((await envio(id)).txid);
    const r = await runCli(['cobrancas', 'reconciliar', '--json'], env);
    expect(r.code, r.err).toBe(0);
    expect((JSON.parse(r.out) as { resultados: Record<string, number> }).resultados.paga).toBe(1);
    expect((await envio(id)).estado).toBe('paga');
    const id2 = await confirmedPix({ valor: 5556 });
    await syncCharge(deps, id2);
    const c = await runCli(['cobrancas', 'cancelar', String(id2), '--sim'], env);
    expect(c.code, c.err).toBe(0);
    expect(c.out).toMatch(/cancelada \(removida no PSP\)/);
    const again = await runCli(['cobrancas', 'cancelar', String(id2), '--sim'], env);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/está cancelada/);
  });

  it('setChavePix stores the alphanumeric CNPJ normalized; refuses what is no key', async () => {
    await expect(setChavePix(db.app, 2, '12.ABC.345/01DE-35', 'x')).resolves.toMatchObject({
      tipo: 'cnpj',
      lojista: { chave_pix: '12ABC34501DE35' },
    });
    await expect(setChavePix(db.app, 2, 'nao e chave', 'x')).rejects.toThrow(/não reconhecida/);
  });
});

describe('kill -9 of a worker mid-dispatch', () => {
  it('a new worker finishes the dispatch with exactly one charge at the PSP', async () => {
    const id = await confirmedPix({ valor: 12345, vencimento: '2027-06-30' });
    const { txid } = await envio(id);
    // The PSP stores the charge and holds its answer: the worker is killed while waiting for it.
    const held = psp.hold('PUT', `/cob/${txid}`);
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...cliEnv(db, pspEnv()),
      ANTHROPIC_API_KEY: 'sk-ant-teste',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
      BALCAO_JOB_EXPIRA_S: '5',
      BALCAO_PSP_VARREDURA_S: '1',
      BALCAO_LOG_LEVEL: 'silent',
    };
    const start = () =>
      spawn(process.execPath, ['src-main/cli/bin.mjs', 'worker', '--concurrency', '1'], {
        cwd: ROOT,
        env,
      });
    const first = start();
    const firstExit = new Promise((r) => first.on('exit', r));
    await held.arrived;
    first.kill('SIGKILL');
    await firstExit;
    held.release();
    expect((await envio(id)).estado).toBe('pendente');
    const second = start();
    let err = '';
    second.stderr.on('data', (d: Buffer) => (err += d.toString()));
    try {
      const deadline = Date.now() + 60_000;
      while ((await envio(id)).estado === 'pendente' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
      }
      expect((await envio(id)).estado, err).toBe('registrada');
    } finally {
      second.kill('SIGTERM');
    }
    expect([...psp.cobs.keys()].filter((k) => k === txid)).toHaveLength(1);
    expect(puts(txid).map((c) => c.status)).toEqual([201, 409]);
  }, 90_000);
});
