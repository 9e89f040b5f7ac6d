/**
 * #36.3: `balcao serve` over HTTPS, and mutual TLS on the PSP's Pix webhook
 * (BALCAO_SERVE_TLS_CERT / BALCAO_SERVE_TLS_KEY / BALCAO_PSP_WEBHOOK_CA). Real HTTPS with
 * certificates made at test time, the fake PSP (test/support/fake-psp.ts) and real PostgreSQL.
 * The PSP's client certificate is the fake PSP's (signed by its CA); serve's own certificate and
 * "another CA"'s client certificate come from a second set.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import pino from 'pino';
import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../src-main/clock';
import { startBoss } from '../../src-main/intake/jobs';
import { startIntakeServer, type IntakeServer } from '../../src-main/intake/serve';
import { serveTls } from '../../src-main/intake/serve-tls';
import { createPixClient, type PixClient } from '../../src-main/psp/client';
import { pspConfig } from '../../src-main/psp/config';
import { syncCharge, type DispatchDeps } from '../../src-main/psp/dispatch';
import { handlePixWebhook } from '../../src-main/psp/webhook';
import { handleWhatsAppWebhook } from '../../src-main/whatsapp/webhook';
import { cliEnv, runCli } from '../support/cli';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { makeCertificates, startFakePsp, type FakePsp } from '../support/fake-psp';
import {
  QUEUE_TEST_NOW,
  dados,
  ensureMerchants,
  insertExtraction,
  queueFor,
} from '../support/queue-fixtures';

const TOKEN = 'webhook-token-mtls-0123456789';
const VERIFY = 'verificacao-whatsapp-mtls';
const CHAVE = 'financeiro@padaria.com.br';
let db: TestDatabase;
let psp: FakePsp;
let own: ReturnType<typeof makeCertificates>;
let client: PixClient;
let boss: PgBoss;
let srv: IntakeServer;
let deps: DispatchDeps;
const logged: string[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  await ensureMerchants(db.admin, { 1: 'Padaria Central' });
  await db.admin.query('UPDATE merchants SET chave_pix = $1 WHERE id = 1', [CHAVE]);
  psp = await startFakePsp();
  own = makeCertificates();
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
  const tls = serveTls({
    BALCAO_SERVE_TLS_CERT: own.files.serverCert,
    BALCAO_SERVE_TLS_KEY: own.files.serverKey,
    BALCAO_PSP_WEBHOOK_CA: psp.files.ca,
  });
  expect(tls?.webhookCa).toBeDefined();
  const logger = pino({ level: 'warn' }, { write: (line: string) => void logged.push(line) });
  const clock = fixedClock(QUEUE_TEST_NOW);
  srv = await startIntakeServer({
    pool: db.app,
    boss,
    secret: 'segredo-de-teste-0123456789',
    clock,
    logger,
    port: 0,
    tls: tls!,
    pixWebhook: (req, res, path) =>
      handlePixWebhook({ pool: db.app, token: TOKEN, logger }, req, res, path),
    whatsappWebhook: (req, res, path) =>
      handleWhatsAppWebhook(
        {
          pool: db.app,
          boss,
          config: { appSecret: 'segredo-app-whatsapp', verifyToken: VERIFY, phoneNumberId: '1' },
          clock,
        },
        req,
        res,
        path,
      ),
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
  if (own) rmSync(own.dir, { recursive: true, force: true });
});

/** One request on a new connection (no TLS session reused), trusting serve's CA. */
function call(
  method: string,
  path: string,
  opts: { body?: unknown; cert?: string; key?: string } = {},
): Promise<{ status: number; text: string }> {
  const url = new URL(path, srv.url);
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        agent: false,
        ca: readFileSync(own.files.ca),
        ...(opts.cert && opts.key
          ? { cert: readFileSync(opts.cert), key: readFileSync(opts.key) }
          : {}),
        headers: payload ? { 'content-type': 'application/json' } : {},
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const pspCert = () => ({ cert: psp.files.cert, key: psp.files.key });
const otherCaCert = () => ({ cert: own.files.cert, key: own.files.key });
const webhookPath = (token = TOKEN) => `/pix/webhook/${token}/pix`;

async function registeredPix(valor: number): Promise<{ id: number; txid: string }> {
  const d = dados({ metodo: 'pix', parcelas: 1, valor_centavos: valor, vencimento: '2026-12-02' });
  const extraction = await insertExtraction(db.admin, {
    merchantId: 1,
    status: 'completo',
    dados: d,
  });
  const ana = queueFor(db.app, { operator: 'Ana' });
  const lease = await ana.claim(extraction);
  if (!lease.claimed) throw new Error(lease.mensagem);
  const id = (await ana.confirm({ id: extraction, token: lease.token, dados: d })).cobranca.id;
  expect(await syncCharge(deps, id)).toBe('registrada');
  const r = await db.admin.query<{ txid: string }>(
    'SELECT txid FROM cobrancas_envios WHERE cobranca_id = $1',
    [id],
  );
  return { id, txid: r.rows[0]!.txid };
}

async function stored(txid: string): Promise<number> {
  const r = await db.admin.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM pix_recebidos WHERE txid = $1',
    [txid],
  );
  return r.rows[0]!.n;
}

async function jobsFor(id: number): Promise<number> {
  const r = await db.admin.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'cobrancas' AND (data->>'cobranca')::bigint = $1`,
    [id],
  );
  return r.rows[0]!.n;
}

async function estado(id: number): Promise<string> {
  const r = await db.admin.query<{ estado: string }>(
    'SELECT estado FROM cobrancas_envios WHERE cobranca_id = $1',
    [id],
  );
  return r.rows[0]!.estado;
}

describe('the Pix webhook over mutual TLS', () => {
  it("a callback with the PSP's client certificate is accepted, and the charge is paga only after GET /cob confirms", async () => {
    expect(srv.url).toMatch(/^https:\/\//);
    const { id, txid } = await registeredPix(15000);
    const jobsBefore = await jobsFor(id);
    const r = await call('POST', webhookPath(), { body: psp.pay(txid), ...pspCert() });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.text)).toEqual({ recebidos: 1, repetidos: 0 });
    expect(await stored(txid)).toBe(1);
    expect(await jobsFor(id)).toBe(jobsBefore + 1);
    // The callback alone changes nothing: the GET to the PSP does.
    expect(await estado(id)).toBe('registrada');
    expect(await syncCharge(deps, id)).toBe('paga');
    expect(await estado(id)).toBe('paga');
    // The secret path token is still checked, certificate or not.
    const wrongToken = await call('POST', webhookPath('outro-token-qualquer-123456'), {
      body: psp.pay(txid),
      ...pspCert(),
    });
    expect(wrongToken.status).toBe(404);
  });

  it('without a client certificate: 403, nothing stored, a warning without the token', async () => {
    const { id, txid } = await registeredPix(2500);
    const jobsBefore = await jobsFor(id);
    logged.length = 0;
    const r = await call('POST', webhookPath(), { body: psp.pay(txid) });
    expect(r.status).toBe(403);
    expect(JSON.parse(r.text)).toEqual({
      erro: 'Certificado de cliente ausente ou não reconhecido: esta rota exige TLS mútuo com o PSP.',
    });
    expect(await stored(txid)).toBe(0);
    expect(await jobsFor(id)).toBe(jobsBefore);
    expect(await estado(id)).toBe('registrada');
    expect(logged.join('')).toContain('notificação Pix recusada');
    expect(logged.join('')).not.toContain(TOKEN);
  });

  it('with a client certificate from another CA: 403, nothing stored', async () => {
    const { id, txid } = await registeredPix(3300);
    const jobsBefore = await jobsFor(id);
    logged.length = 0;
    const r = await call('POST', webhookPath(), { body: psp.pay(txid), ...otherCaCert() });
    expect(r.status).toBe(403);
    // The certificate was presented and refused (both test CAs share a name: its signature fails).
    expect(logged.join('')).toContain('"motivo":"CERT_SIGNATURE_FAILURE"');
    expect(await stored(txid)).toBe(0);
    expect(await jobsFor(id)).toBe(jobsBefore);
  });

  it("WhatsApp's GET verification works on the same HTTPS server without a client certificate", async () => {
    const r = await call(
      'GET',
      `/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=${VERIFY}&hub.challenge=1158201444`,
    );
    expect(r).toEqual({ status: 200, text: '1158201444' });
  });
});

describe('TLS configuration errors stop serve at start, in pt-BR', () => {
  it('the CA without the server certificate and key', async () => {
    expect(() => serveTls({ BALCAO_PSP_WEBHOOK_CA: psp.files.ca })).toThrow(
      'BALCAO_PSP_WEBHOOK_CA exige HTTPS: defina também BALCAO_SERVE_TLS_CERT e BALCAO_SERVE_TLS_KEY',
    );
    // The command itself refuses to start, before opening anything (port 1 is never bound).
    const missing = join(own.dir, 'nao-existe.pem');
    for (const [extra, message] of [
      [{ BALCAO_PSP_WEBHOOK_CA: psp.files.ca }, 'BALCAO_PSP_WEBHOOK_CA exige HTTPS'],
      [
        { BALCAO_SERVE_TLS_CERT: missing, BALCAO_SERVE_TLS_KEY: own.files.serverKey },
        `Não foi possível ler BALCAO_SERVE_TLS_CERT (${missing})`,
      ],
    ] as const) {
      const r = await runCli(
        ['serve', '--port', '1'],
        cliEnv(db, { BALCAO_INTAKE_SECRET: 'segredo-de-teste-0123456789', ...extra }),
      );
      expect(r.code).not.toBe(0);
      expect(r.err).toContain(message);
    }
  });

  it('unreadable, not PEM, invalid or mismatched files name their variable', () => {
    const base = {
      BALCAO_SERVE_TLS_CERT: own.files.serverCert,
      BALCAO_SERVE_TLS_KEY: own.files.serverKey,
      BALCAO_PSP_WEBHOOK_CA: psp.files.ca,
    };
    const missing = join(own.dir, 'nao-existe.pem');
    expect(() => serveTls({ ...base, BALCAO_PSP_WEBHOOK_CA: missing })).toThrow(
      `Não foi possível ler BALCAO_PSP_WEBHOOK_CA (${missing})`,
    );
    expect(() => serveTls({ ...base, BALCAO_SERVE_TLS_KEY: missing })).toThrow(
      'Não foi possível ler BALCAO_SERVE_TLS_KEY',
    );
    const notPem = join(own.dir, 'texto.pem');
    writeFileSync(notPem, 'isto não é um certificado\n');
    expect(() => serveTls({ ...base, BALCAO_SERVE_TLS_CERT: notPem })).toThrow(
      'BALCAO_SERVE_TLS_CERT não aponta para um arquivo PEM',
    );
    const broken = join(own.dir, 'quebrado.pem');
    writeFileSync(broken, '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
    expect(() => serveTls({ ...base, BALCAO_PSP_WEBHOOK_CA: broken })).toThrow(
      'BALCAO_PSP_WEBHOOK_CA',
    );
    expect(() => serveTls({ ...base, BALCAO_SERVE_TLS_KEY: broken })).toThrow(
      'BALCAO_SERVE_TLS_KEY',
    );
    // The key of another certificate.
    expect(() => serveTls({ ...base, BALCAO_SERVE_TLS_KEY: own.files.key })).toThrow(
      'BALCAO_SERVE_TLS_KEY não é a chave do certificado de BALCAO_SERVE_TLS_CERT',
    );
    expect(() =>
      serveTls({
        BALCAO_SERVE_TLS_CERT: own.files.serverCert,
        BALCAO_PSP_WEBHOOK_CA: psp.files.ca,
      }),
    ).toThrow('BALCAO_SERVE_TLS_CERT e BALCAO_SERVE_TLS_KEY vão juntos');
    expect(serveTls({})).toBeNull();
  });
});
