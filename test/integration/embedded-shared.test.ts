/**
 * One embedded PostgreSQL for the app and any number of CLI commands, with real processes on a
 * fresh data folder (BALCAO_DATA_DIR): commands at once share one server; a command attached
 * to a server the app started keeps it when the app leaves; a server left behind by a
 * `kill -9` is reused and stopped by the last process out.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pidAlive, readPostmaster } from '../../src-main/db/embedded-share';

const root = join(__dirname, '../..');
const bin = join(root, 'src-main/cli/bin.mjs');
let dataDir: string;
let pgDir: string;
const children: ChildProcess[] = [];

interface Run {
  child: ChildProcess;
  done: Promise<{ code: number | null; out: string; err: string }>;
}

/** A command as a user runs it; without a keeper unless `extra` asks for one (#41.8). */
function cli(args: string[], extra: NodeJS.ProcessEnv = {}): Run {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: root,
    env: {
      ...cleanEnv(),
      BALCAO_DATA_DIR: dataDir,
      BALCAO_LOG_LEVEL: 'error',
      BALCAO_EMBEDDED_MANTER_S: '0',
      ...extra,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return track(child);
}

function track(child: ChildProcess): Run {
  children.push(child);
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const done = new Promise<{ code: number | null; out: string; err: string }>((resolveRun) =>
    child.on('exit', (code) => resolveRun({ code, out: out.trim(), err: err.trim() })),
  );
  return { child, done };
}

/** No DATABASE_URL from the developer's shell: the embedded default is what we test. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of ['DATABASE_URL', 'APP_DATABASE_URL', 'ANALYTICS_DATABASE_URL']) delete env[k];
  return env;
}

const leases = () =>
  existsSync(join(pgDir, 'processos')) ? readdirSync(join(pgDir, 'processos')) : [];
const keepers = () =>
  leases()
    .map((n) => /^(\d+)-manter\.json$/.exec(n)?.[1])
    .filter((p): p is string => p !== undefined)
    .map(Number);
const serverUp = () => {
  const pm = readPostmaster(join(pgDir, 'pgdata'));
  return !!pm && pidAlive(pm.pid);
};
const serverStarts = () => {
  const log = join(pgDir, 'pgdata', 'balcao-servidor.log');
  return existsSync(log) ? readFileSync(log, 'utf8').split('starting PostgreSQL').length - 1 : 0;
};

async function until(what: string, cond: () => boolean, ms = 120_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`esperando: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function expectServerGone(): void {
  const pm = readPostmaster(join(pgDir, 'pgdata'));
  if (pm) expect(pidAlive(pm.pid), 'postmaster still running').toBe(false);
  expect(leases()).toEqual([]);
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'balcao-emb-'));
  chmodSync(dataDir, 0o755); // as root, the postgres system user must enter it
  pgDir = join(dataDir, 'postgres');
  // First run: initdb + migrations, alone.
  const first = await cli(['db', 'migrate', '--json']).done;
  expect(first).toMatchObject({ code: 0, err: '' });
  expect(JSON.parse(first.out)).toMatchObject({ banco: 'embedded' });
  expectServerGone();
}, 300_000);

afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  const pm = pgDir ? readPostmaster(join(pgDir, 'pgdata')) : undefined;
  if (pm && pidAlive(pm.pid)) process.kill(pm.pid, 'SIGQUIT');
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('one embedded server, many processes', () => {
  it('three CLI commands at once share one server; the last one out stops it', async () => {
    const before = serverStarts();
    const runs = [
      cli(['db', 'migrate', '--json']),
      cli(['db', 'migrate', '--json']),
      cli(['db', 'seed-demo', '--merchants', '2', '--transactions', '3000', '--json', '--forcar']),
    ];
    const results = await Promise.all(runs.map((r) => r.done));
    for (const r of results) expect(r, r.err).toMatchObject({ code: 0, err: '' });
    expect(JSON.parse(results[0]!.out)).toEqual({ aplicadas: [], banco: 'embedded' });
    expect(JSON.parse(results[2]!.out)).toMatchObject({ lojistas: 2, transacoes: 3000 });
    expect(results.map((r) => r.out).join('\n')).not.toMatch(/Erro inesperado/);
    // They overlapped (each takes seconds to start): usually one server; never more than three.
    expect(serverStarts() - before).toBeGreaterThanOrEqual(1);
    expectServerGone();
  }, 300_000);

  it('the app starts the server, a CLI attaches, the app leaves: the CLI keeps its server', async () => {
    const before = serverStarts();
    const app = track(
      spawn(process.execPath, ['--import', 'tsx', 'test/support/embedded-holder.ts', pgDir], {
        cwd: root,
        env: cleanEnv(),
        stdio: ['pipe', 'pipe', 'pipe'],
      }),
    );
    let appOut = '';
    app.child.stdout?.on('data', (d: Buffer) => (appOut += d.toString()));
    await until('app pronto', () => appOut.includes('pronto'));
    expect(leases()).toHaveLength(1);
    const port = readPostmaster(join(pgDir, 'pgdata'))!.port;

    const cmd = cli([
      'db',
      'seed-demo',
      '--merchants',
      '2',
      '--transactions',
      '20000',
      '--json',
      '--forcar',
    ]);
    await until('CLI attached', () => leases().length === 2);
    app.child.stdin?.write('sair\n');
    const appExit = await app.done;
    expect(appExit.code).toBe(0);
    expect(appExit.out).toContain('saiu');
    // The server the app started is still up, for the CLI.
    const pm = readPostmaster(join(pgDir, 'pgdata'));
    expect(pm?.port).toBe(port);
    expect(pidAlive(pm!.pid)).toBe(true);

    const r = await cmd.done;
    expect(r, r.err).toMatchObject({ code: 0, err: '' });
    expect(JSON.parse(r.out)).toMatchObject({ lojistas: 2, transacoes: 20000 });
    expect(serverStarts() - before).toBe(1);
    expectServerGone();
  }, 300_000);

  it('a CLI after kill -9 of another reuses the server it left, then stops it', async () => {
    const victim = cli([
      'db',
      'seed-demo',
      '--merchants',
      '2',
      '--transactions',
      '200000',
      '--json',
      '--forcar',
    ]);
    await until('victim attached', () => {
      const pm = readPostmaster(join(pgDir, 'pgdata'));
      return leases().length === 1 && !!pm && pm.status === 'ready';
    });
    const left = readPostmaster(join(pgDir, 'pgdata'))!;
    victim.child.kill('SIGKILL');
    expect((await victim.done).code).toBe(null);
    expect(pidAlive(left.pid)).toBe(true);
    expect(leases()).toHaveLength(1); // the dead process's lease is still there

    const before = serverStarts();
    const r = await cli(['db', 'migrate', '--json']).done;
    expect(r, r.err).toMatchObject({ code: 0, err: '' });
    expect(JSON.parse(r.out)).toEqual({ aplicadas: [], banco: 'embedded' });
    expect(serverStarts()).toBe(before); // reused, not restarted
    expectServerGone();
  }, 300_000);
});

describe('the keeper (#41.8): the next command finds the server up', () => {
  it('the last command out leaves the server to a keeper; the next reuses it; idle or on SIGTERM it stops', async () => {
    const keep = { BALCAO_EMBEDDED_MANTER_S: '600' };
    const before = serverStarts();
    const first = await cli(['db', 'migrate', '--json'], keep).done;
    expect(first, first.err).toMatchObject({ code: 0, err: '' });
    await until('keeper holds the server', () => keepers().length === 1);
    expect(serverUp()).toBe(true);
    const port = readPostmaster(join(pgDir, 'pgdata'))!.port;

    const second = await cli(['db', 'migrate', '--json'], keep).done;
    expect(second, second.err).toMatchObject({ code: 0, err: '' });
    expect(JSON.parse(second.out)).toEqual({ aplicadas: [], banco: 'embedded' });
    // Started once, then reused; still one keeper, the same server.
    expect(serverStarts() - before).toBe(1);
    expect(keepers()).toHaveLength(1);
    expect(readPostmaster(join(pgDir, 'pgdata'))!.port).toBe(port);

    // SIGTERM (the machine shutting down): the keeper stops the server now, cleanly.
    process.kill(keepers()[0]!, 'SIGTERM');
    await until('server stopped on SIGTERM', () => !serverUp() && keepers().length === 0);
    expectServerGone();

    // With a short wait, the keeper stops the server by itself once nobody used it.
    const third = await cli(['db', 'migrate', '--json'], { BALCAO_EMBEDDED_MANTER_S: '1' }).done;
    expect(third, third.err).toMatchObject({ code: 0, err: '' });
    await until('server stopped after 1 s idle', () => !serverUp() && keepers().length === 0);
    expectServerGone();

    // A bad value is a clear pt-BR error, not a silent default.
    const bad = await cli(['db', 'migrate', '--json'], { BALCAO_EMBEDDED_MANTER_S: 'dez' }).done;
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.out)).toEqual({
      erro: 'BALCAO_EMBEDDED_MANTER_S deve ser um número inteiro de segundos, de 0 a 86400: "dez".',
    });
    expectServerGone();
  }, 300_000);
});
