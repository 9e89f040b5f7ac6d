import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src-main/cli/main';
import type { CliIO } from '../../src-main/cli/io';
import { fixedClock } from '../../src-main/clock';
import { startBoss } from '../../src-main/intake/jobs';
import { signBody, startIntakeServer, type IntakeServer } from '../../src-main/intake/serve';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { ensureMerchants } from '../support/queue-fixtures';

const SECRET = 'segredo-de-teste-0123456789';
let db: TestDatabase;
let boss: PgBoss;
let srv: IntakeServer;
let tmp: string;
beforeAll(async () => {
  db = await createTestDatabase();
  await ensureMerchants(db.admin, { 1: 'Padaria Central' });
  boss = await startBoss(db.app);
  srv = await startIntakeServer({
    pool: db.app,
    boss,
    secret: SECRET,
    clock: fixedClock(new Date('2026-11-30T15:00:00Z')),
    port: 0,
    maxBody: 4096,
  });
  tmp = mkdtempSync(join(tmpdir(), 'balcao-intake-'));
});
afterAll(async () => {
  rmSync(tmp, { recursive: true, force: true });
  await srv.close();
  await boss.stop({ graceful: false, close: false, wait: true });
  await db.drop();
});

const MSG = {
  canal: 'whatsapp',
  mensagem_id: 'wamid.1',
  merchant: 1,
  texto: 'cobra 80 do Zé no pix',
};

async function post(body: string, signature: string | null = signBody(SECRET, body)) {
  const r = await fetch(`${srv.url}/mensagens`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(signature !== null ? { 'x-balcao-signature': signature } : {}),
    },
    body,
  });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

describe('POST /mensagens', () => {
  it('202 on accept and on duplicate; one row, one job', async () => {
    const body = JSON.stringify(MSG);
    const a = await post(body);
    expect(a).toMatchObject({ status: 202, body: { status: 'aceita' } });
    const b = await post(body);
    expect(b).toMatchObject({ status: 202, body: { status: 'duplicada', id: a.body.id } });
    const n = await db.admin.query(
      `SELECT (SELECT count(*)::int FROM mensagens) AS m,
              (SELECT count(*)::int FROM pgboss.job WHERE name = 'intake') AS j`,
    );
    expect(n.rows[0]).toEqual({ m: 1, j: 1 });
  });

  it('401 on a missing, malformed or wrong signature (nothing stored)', async () => {
    const body = JSON.stringify({ ...MSG, mensagem_id: 'wamid.401' });
    expect((await post(body, null)).status).toBe(401);
    expect((await post(body, 'sha256=zz')).status).toBe(401);
    expect((await post(body, signBody('outro-segredo-0123456789', body))).status).toBe(401);
    // Signed for another body (a replay with the text changed).
    const other = await post(body.replace('80', '8000'), signBody(SECRET, body));
    expect(other).toMatchObject({
      status: 401,
      body: { erro: expect.stringContaining('Assinatura') },
    });
    const n = await db.admin.query(
      `SELECT count(*)::int AS n FROM mensagens WHERE mensagem_id = 'wamid.401'`,
    );
    expect(n.rows[0]).toEqual({ n: 0 });
  });

  it('400 with a pt-BR reason on bad input; 413 past the size bound', async () => {
    expect(await post('{"canal":')).toMatchObject({
      status: 400,
      body: { erro: 'Corpo não é JSON válido.' },
    });
    const nul = await post(JSON.stringify({ ...MSG, mensagem_id: 'x2', texto: 'a\u0000b' }));
    expect(nul).toMatchObject({
      status: 400,
      body: { erro: expect.stringContaining('caractere nulo') },
    });
    const unknown = await post(JSON.stringify({ ...MSG, mensagem_id: 'x3', merchant: 404 }));
    expect(unknown).toMatchObject({
      status: 400,
      body: { erro: expect.stringContaining('lojista 404 não encontrado') },
    });
    const big = await post(JSON.stringify({ ...MSG, mensagem_id: 'x4', texto: 'x'.repeat(5000) }));
    expect(big.status).toBe(413);
    expect(big.body.erro).toContain('Corpo grande demais');
    const wrongRoute = await fetch(`${srv.url}/outra`, { method: 'POST', body: '{}' });
    expect(wrongRoute.status).toBe(404);
  });
});

describe('balcao enqueue --file', () => {
  it('prints accepted/duplicate/refused counts (and --json with reasons per line)', async () => {
    const file = join(tmp, 'msgs.jsonl');
    const lines = [
      JSON.stringify({ ...MSG, mensagem_id: 'f1' }),
      JSON.stringify({ ...MSG, mensagem_id: 'f2', recebida_em: '2026-11-30T14:00:00-03:00' }),
      JSON.stringify({ ...MSG, mensagem_id: 'f1' }),
      'não é json',
      JSON.stringify({ ...MSG, mensagem_id: 'f3', merchant: 77 }),
      '',
    ];
    writeFileSync(file, lines.join('\n'));
    const env = {
      DATABASE_URL: db.adminUrl,
      APP_DATABASE_URL: db.appUrl,
      ANALYTICS_DATABASE_URL: db.analyticsUrl,
      BALCAO_LOG_LEVEL: 'silent',
      BALCAO_DATA_DIR: tmp,
    };
    const out: string[] = [];
    const io: CliIO = { out: (t) => out.push(t), err: () => undefined, isTTY: false };
    const code = await main(['enqueue', '--file', file, '--json'], io, env);
    expect(code).toBe(1);
    expect(JSON.parse(out.join(''))).toEqual({
      aceitas: 2,
      duplicadas: 1,
      recusadas: 2,
      motivos: [
        { linha: 4, motivo: 'Linha não é JSON válido.' },
        { linha: 5, motivo: 'Mensagem recusada — lojista 77 não encontrado.' },
      ],
    });
    out.length = 0;
    expect(await main(['enqueue', '--file', file], io, env)).toBe(1);
    expect(out.join('')).toContain('0 aceitas, 3 duplicadas, 2 recusadas.');
    const st: string[] = [];
    const code2 = await main(['fila', 'status', '--json'], { ...io, out: (t) => st.push(t) }, env);
    expect(code2).toBe(0);
    const s = JSON.parse(st.join('')) as { backlog: { pendentes: number } };
    expect(s.backlog.pendentes).toBe(3);
  });
});
