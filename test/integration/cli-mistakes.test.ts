/**
 * #41.4/#41.5 — the usual mistakes, as a user makes them: the real `balcao` process (bin.mjs),
 * the default log level (BALCAO_LOG_LEVEL unset). Each answer is a pt-BR message that names the
 * cause: never "Erro inesperado", never a stack, never a JSON log line on stderr.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv } from '../support/cli';
import { createTestDatabase, type TestDatabase } from '../support/db';

const BIN = resolve(__dirname, '../../src-main/cli/bin.mjs');
let db: TestDatabase;
let busy: Server;
let busyPort: number;
let folder: string;

beforeAll(async () => {
  db = await createTestDatabase();
  folder = mkdtempSync(join(tmpdir(), 'balcao-pasta-'));
  busy = createServer();
  await new Promise<void>((r) => busy.listen(0, '127.0.0.1', () => r()));
  busyPort = (busy.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise((r) => busy.close(r));
  rmSync(folder, { recursive: true, force: true });
  await db.drop();
});

function balcao(
  args: string[],
  extra: NodeJS.ProcessEnv = {},
): Promise<{ code: number; out: string; err: string }> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...cliEnv(db, { BALCAO_INTAKE_SECRET: 'segredo-de-teste-0123456789', ...extra }),
  };
  delete env.BALCAO_LOG_LEVEL; // the level a user gets
  return new Promise((done) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env, timeout: 60_000, encoding: 'utf8' },
      (e, out, err) => {
        const code = e && typeof e.code === 'number' ? e.code : e ? -1 : 0;
        done({ code, out, err });
      },
    );
  });
}

const unreachable = 'postgres://ninguem@127.0.0.1:1/nada';

describe('mistakes get a pt-BR cause, not "Erro inesperado" (#41.4)', () => {
  const cases: Array<[string, () => string[], NodeJS.ProcessEnv, number, RegExp]> = [
    [
      'serve on a port in use',
      () => ['serve', '--port', String(busyPort)],
      {},
      1,
      /A porta \d+ já está em uso em 127\.0\.0\.1 .*--port/,
    ],
    [
      'serve on a host that is no address',
      () => ['serve', '--host', '999.1.1.1', '--port', String(busyPort + 1)],
      {},
      1,
      /Endereço desconhecido: 999\.1\.1\.1/,
    ],
    [
      'enqueue --file with a folder',
      () => ['enqueue', '--file', folder],
      {},
      2,
      /não é um arquivo \(é uma pasta\?\)/,
    ],
    [
      'enqueue --file that does not exist',
      () => ['enqueue', '--file', join(folder, 'nao-existe.jsonl')],
      {},
      2,
      /Arquivo não encontrado: /,
    ],
    [
      'bench with an unreachable DATABASE_URL',
      () => ['bench', '--rows', '1000'],
      { DATABASE_URL: unreachable },
      1,
      /Não foi possível falar com o banco de dados/,
    ],
    [
      'sql with an unreachable DATABASE_URL',
      () => ['sql', '--merchant', '1', 'select 1'],
      {
        DATABASE_URL: unreachable,
        APP_DATABASE_URL: unreachable,
        ANALYTICS_DATABASE_URL: unreachable,
      },
      1,
      /Não foi possível falar com o banco de dados/,
    ],
  ];

  it.each(cases)('%s', async (_name, args, extra, code, message) => {
    const r = await balcao(args(), extra);
    expect(r.err).toMatch(message);
    expect(r.code).toBe(code);
    expect(r.err).not.toContain('Erro inesperado');
    expect(r.err).not.toMatch(/^\s+at /m); // no stack
    expect(r.err).not.toMatch(/^\{"level"/m); // no JSON log line
    expect(r.err.trim().split('\n')).toHaveLength(1);
  });
});
