/**
 * #40.7: one bad job or request never takes `balcao serve` or `balcao worker` down. The real CLI
 * in two child processes, the fake Messages API over HTTP: 50 valid signed messages flow while
 * malformed requests arrive (bad JSON, a huge body, a wrong content type, a truncated body, a
 * socket closed mid-request, bytes that are not HTTP) and one job's database connection is
 * terminated in the middle of its outcome's statement (pg_terminate_backend). At the end both
 * processes are still running (0 exits), every message was processed exactly once, the failed
 * job was retried (without paying the model again) and every malformed request got a 4xx answer
 * with its reason in pt-BR.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { connect, createServer } from 'node:net';
import { resolve } from 'node:path';
import { DateTime } from 'luxon';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signBody } from '../../src-main/intake/serve';
import { createTestDatabase, type TestDatabase } from '../support/db';
import {
  heldReply,
  startFakeAnthropic,
  toolUseReply,
  type FakeAnthropic,
} from '../support/fake-anthropic';
import { dados, ensureMerchants } from '../support/queue-fixtures';

const ROOT = resolve(__dirname, '../..');
const SECRET = 'segredo-de-falhas-0123456789';
const MARK = 'CONEXAO-CORTADA';
const VALID = 50;

let db: TestDatabase;
let fake: FakeAnthropic;
beforeAll(async () => {
  [db, fake] = await Promise.all([createTestDatabase(), startFakeAnthropic()]);
  await ensureMerchants(db.admin, { 1: 'Loja Um', 2: 'Loja Dois', 3: 'Loja Três', 9: 'Loja Nove' });
  // The worker's statement waits on the test's row lock until the test cuts its connection,
  // however slow this machine is (the role's default lock and statement timeouts would end it
  // first). Only this test's database: the settings go with it.
  for (const setting of ['lock_timeout', 'statement_timeout']) {
    await db.admin.query(`ALTER ROLE balcao_app IN DATABASE ${db.name} SET ${setting} = 0`);
  }
});
afterAll(() => Promise.all([db.drop(), fake.close()]));

/** Waits until `ok()` holds, polling; false after `ms` (the assertion then names what is missing). */
async function until(ok: () => Promise<boolean> | boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await ok()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return ok();
}

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => res(port));
    });
  });
}

interface Proc {
  child: ChildProcess;
  stderr: () => string;
  exits: () => number;
}

function spawnCli(args: string[], env: NodeJS.ProcessEnv): Proc {
  const child = spawn(process.execPath, ['src-main/cli/bin.mjs', ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  let exits = 0;
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  child.on('exit', () => exits++);
  return { child, stderr: () => stderr, exits: () => exits };
}

/** A due date the validators accept whatever today is. */
const VENCIMENTO = DateTime.now().setZone('America/Sao_Paulo').plus({ days: 10 }).toISODate()!;

interface Answer {
  status: number;
  body: string;
}

/** One raw HTTP exchange: the answer, or null when the server closed without one. */
function raw(port: number, bytes: string, opts: { end?: boolean } = {}): Promise<Answer | null> {
  return new Promise((res) => {
    const s = connect(port, '127.0.0.1', () => {
      s.write(bytes);
      if (opts.end) s.end();
    });
    let got = '';
    s.on('data', (d: Buffer) => (got += d.toString()));
    s.on('error', () => undefined);
    s.on('close', () => {
      const m = /^HTTP\/1\.1 (\d{3})/.exec(got);
      res(m ? { status: Number(m[1]), body: got.slice(got.indexOf('\r\n\r\n') + 4) } : null);
    });
  });
}

function post(
  port: number,
  body: string | Buffer,
  headers: Record<string, string | number> = {},
): Promise<Answer> {
  return new Promise((res, rej) => {
    let answered = false;
    const req = request(
      { host: '127.0.0.1', port, method: 'POST', path: '/mensagens', headers },
      (r) => {
        let text = '';
        r.on('data', (d: Buffer) => (text += d.toString()));
        r.on('end', () => {
          answered = true;
          res({ status: r.statusCode ?? 0, body: text });
        });
      },
    );
    // A server that answers before the whole body went (413) may cut the rest: not our error.
    req.on('error', (e) => {
      if (!answered) setImmediate(() => (answered ? undefined : rej(e)));
    });
    req.end(body);
  });
}

const signed = (body: string, type = 'application/json') => ({
  'content-type': type,
  'x-balcao-signature': signBody(SECRET, body),
});

const message = (i: number, merchant: number, texto: string) =>
  JSON.stringify({ canal: 'whatsapp', mensagem_id: `falhas-${i}`, merchant, texto });

/** A transaction of the test holding the row lock `sql` takes; its backend's pid. */
async function locked(sql: string, id: number): Promise<{ client: pg.Client; pid: number }> {
  const client = new pg.Client({ connectionString: db.adminUrl });
  locks.push(client);
  await client.connect();
  await client.query('BEGIN');
  const r = await client.query(sql, [id]);
  expect(r.rowCount).toBe(1);
  const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
  return { client, pid };
}
const locks: pg.Client[] = [];

/** Terminates the worker's backend that waits on the lock of `lockPid` running `which`. */
async function cut(lockPid: number, which: string): Promise<void> {
  let victim: number | undefined;
  const found = await until(async () => {
    const r = await db.admin.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity
        WHERE application_name = 'balcao-worker' AND $1 = ANY (pg_blocking_pids(pid))
          AND ${which}`,
      [lockPid],
    );
    victim = r.rows[0]?.pid;
    return victim !== undefined;
  }, 30_000);
  expect(found, `nenhuma conexão do worker esperando (${which})`).toBe(true);
  const killed = await db.admin.query<{ ok: boolean }>('SELECT pg_terminate_backend($1) AS ok', [
    victim,
  ]);
  expect(killed.rows[0]!.ok).toBe(true);
}

describe('balcao serve + balcao worker under faults', () => {
  it('50 messages flow through a killed job connection and malformed requests: 0 exits', async () => {
    const answers = new Map<string, number>();
    const held = heldReply(
      toolUseReply('registrar_cobranca', dados({ vencimento: VENCIMENTO, valor_centavos: 9900 })),
    );
    let markSeen = 0;
    fake.handle((req) => {
      const text = JSON.stringify(req.body);
      if (text.includes(MARK) && ++markSeen === 1) return held.reply;
      const key = /link de \d+ reais/.exec(text)?.[0] ?? text;
      answers.set(key, (answers.get(key) ?? 0) + 1);
      return toolUseReply('registrar_cobranca', dados({ vencimento: VENCIMENTO }));
    });

    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: db.adminUrl,
      APP_DATABASE_URL: db.appUrl,
      ANALYTICS_DATABASE_URL: db.analyticsUrl,
      ANTHROPIC_API_KEY: 'sk-ant-teste-falhas-000000000',
      ANTHROPIC_BASE_URL: fake.url,
      BALCAO_INTAKE_SECRET: SECRET,
      BALCAO_TIME_ZONE: 'America/Sao_Paulo',
      BALCAO_LOG_LEVEL: 'warn',
      // A job whose completion was lost stays active until it expires; then it is retried.
      BALCAO_JOB_EXPIRA_S: '10',
    };
    const serve = spawnCli(['serve', '--port', String(port)], env);
    const worker = spawnCli(['worker', '--concurrency', '4'], env);
    const stop = async (p: Proc) => {
      if (p.child.exitCode !== null || p.child.signalCode !== null) return;
      const gone = new Promise((r) => p.child.once('exit', r));
      p.child.kill('SIGTERM');
      await gone;
    };
    try {
      const ready = await until(
        () =>
          serve.stderr().includes('Recebendo mensagens') &&
          worker.stderr().includes('Worker ativo'),
        60_000,
      );
      expect(ready, `serve: ${serve.stderr()}\nworker: ${worker.stderr()}`).toBe(true);

      // The job whose connection is cut: its model answer is held while the test locks its row.
      const k = await post(
        port,
        message(0, 9, `${MARK}: cobra 99 reais da Maria no cartão`),
        signed(message(0, 9, `${MARK}: cobra 99 reais da Maria no cartão`)),
      );
      expect(k.status).toBe(202);
      const kId = (JSON.parse(k.body) as { id: number }).id;
      expect(await until(() => markSeen === 1, 30_000)).toBe(true);
      // Two locks of the test: the message's row (its outcome statement waits there) and its
      // job's row (pg-boss's 'fail' of the job waits there).
      const rowLock = await locked(`SELECT 1 FROM mensagens WHERE id = $1 FOR NO KEY UPDATE`, kId);
      const jobLock = await locked(
        `SELECT 1 FROM pgboss.job WHERE name = 'intake' AND (data->>'mensagem')::bigint = $1
            FOR NO KEY UPDATE`,
        kId,
      );

      // 50 valid messages and the malformed requests, all at once.
      const valid = Array.from({ length: VALID }, (_, n) => {
        const body = message(n + 1, 1 + (n % 3), `manda um link de ${n + 10} reais pro João`);
        return post(port, body, signed(body));
      });
      const badJson = '{"canal": "whatsapp", "texto": ';
      const textPlain = message(900, 1, 'texto com content-type errado');
      const malformed = Promise.all([
        post(port, badJson, signed(badJson)),
        post(port, Buffer.alloc(2 * 1024 * 1024, 'x'), {
          'content-type': 'application/json',
          'x-balcao-signature': signBody(SECRET, 'x'),
        }),
        post(port, textPlain, signed(textPlain, 'text/plain')),
        post(port, message(901, 1, 'sem assinatura'), { 'content-type': 'application/json' }),
        // Truncated: 200 bytes announced, 20 sent, then the client's side closed.
        raw(
          port,
          'POST /mensagens HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n' +
            'content-length: 200\r\n\r\n{"canal":"whatsapp",',
          { end: true },
        ),
        // Not HTTP at all.
        raw(port, 'isto não é HTTP\r\n\r\n'),
      ]);
      // A socket closed mid-request (no answer possible; the server must just go on).
      await new Promise<void>((res) => {
        const s = connect(port, '127.0.0.1', () => {
          s.write(
            'POST /mensagens HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n' +
              'content-length: 500\r\n\r\n{"canal":',
            () => {
              s.destroy();
              res();
            },
          );
        });
        s.on('error', () => undefined);
      });

      // Let the held answer go: the job's outcome statement waits on the row lock; its connection
      // is cut there. The job fails; pg-boss's 'fail' of it (which pg-boss 10 does not await)
      // waits on the job's lock, and its connection is cut too: a rejection nobody handles.
      held.release();
      await cut(rowLock.pid, `query LIKE 'WITH %'`);
      await rowLock.client.query('ROLLBACK');
      await cut(jobLock.pid, `query LIKE '%DELETE FROM pgboss.job%'`);
      await jobLock.client.query('ROLLBACK');

      const accepted = await Promise.all(valid);
      expect(accepted.map((a) => a.status)).toEqual(Array<number>(VALID).fill(202));
      const [json, huge, type, unsigned, truncated, notHttp] = await malformed;
      const erro = (a: Answer | null) => (JSON.parse(a?.body ?? '{}') as { erro?: string }).erro;
      expect(json).toMatchObject({ status: 400 });
      expect(erro(json)).toBe('Corpo não é JSON válido.');
      expect(huge).toMatchObject({ status: 413 });
      expect(erro(huge)).toContain('Corpo grande demais');
      expect(type).toMatchObject({ status: 415 });
      expect(erro(type)).toContain('application/json');
      expect(unsigned).toMatchObject({ status: 401 });
      expect(erro(unsigned)).toContain('Assinatura');
      expect(truncated?.status).toBe(400);
      expect(erro(truncated)).toContain('incompleta');
      expect(notHttp?.status).toBe(400);
      expect(erro(notHttp)).toContain('HTTP');

      // Every valid message, and the one whose connection was cut, processed exactly once.
      // (A process that exits ends the wait: the assertion below names it.)
      const done = await until(async () => {
        if (serve.exits() + worker.exits() > 0) return true;
        const r = await db.admin.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM mensagens WHERE estado = 'concluida'`,
        );
        return r.rows[0]!.n === VALID + 1;
      }, 120_000);
      expect(done, worker.stderr()).toBe(true);
      // 0 exits: both still running.
      expect(
        { serve: serve.exits(), worker: worker.exits() },
        `serve: ${serve.stderr()}\nworker: ${worker.stderr()}`,
      ).toEqual({ serve: 0, worker: 0 });
      const books = await db.admin.query<{
        mensagens: number;
        extracoes: number;
        distintas: number;
        sem_resultado: number;
      }>(
        `SELECT (SELECT count(*)::int FROM mensagens) AS mensagens,
                (SELECT count(*)::int FROM extracoes) AS extracoes,
                (SELECT count(DISTINCT extracao_id)::int FROM mensagens) AS distintas,
                (SELECT count(*)::int FROM mensagens WHERE resultado IS NULL) AS sem_resultado`,
      );
      expect(books.rows[0]).toEqual({
        mensagens: VALID + 1,
        extracoes: VALID + 1,
        distintas: VALID + 1,
        sem_resultado: 0,
      });
      // Nothing malformed was stored.
      const stray = await db.admin.query(
        `SELECT mensagem_id FROM mensagens WHERE mensagem_id IN ('falhas-900', 'falhas-901')`,
      );
      expect(stray.rows).toEqual([]);
      // The cut job failed and was retried; the retry resumed from the stored answer.
      const jobs = await db.admin.query<{ state: string; retry_count: number }>(
        `SELECT state, retry_count FROM pgboss.job
          WHERE name = 'intake' AND (data->>'mensagem')::bigint = $1`,
        [kId],
      );
      expect(jobs.rows).toEqual([{ state: 'completed', retry_count: expect.any(Number) }]);
      expect(jobs.rows[0]!.retry_count).toBeGreaterThanOrEqual(1);
      expect(markSeen).toBe(1);
      expect(worker.stderr()).toContain('intake: job falhou');
      expect(worker.stderr()).toContain('erro não tratado: o serviço continua');
      // Each valid message asked the model once.
      expect(answers.size).toBe(VALID);
      expect([...answers.values()].every((n) => n === 1)).toBe(true);

      // Still running at the end.
      expect({ serve: serve.exits(), worker: worker.exits() }).toEqual({ serve: 0, worker: 0 });
      expect(serve.child.exitCode).toBeNull();
      expect(worker.child.exitCode).toBeNull();
    } finally {
      await Promise.all(locks.map((c) => c.end().catch(() => undefined)));
      await Promise.all([stop(serve), stop(worker)]);
    }
  }, 240_000);
});
