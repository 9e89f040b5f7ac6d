/**
 * The built main bundle when the database is down at start: calls get a pt-BR error (no raw
 * driver text), and the next call retries the start — once the server is reachable the app
 * works without a restart. The "server" is a TCP relay to the test database, started later.
 */
import { createServer, connect, type Server } from 'node:net';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { freePort } from '../../src-main/db/embedded';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { sharedFake, type FakeElectron } from './fake-electron';

vi.mock('electron', async () => {
  const { sharedFake: get } = await import('./fake-electron');
  const e = get().electron;
  return { ...e, default: e };
});

const root = resolve(__dirname, '../..');
const indexUrl = pathToFileURL(join(root, 'out/renderer/index.html')).toString();

let db: TestDatabase;
let fake: FakeElectron;
let relay: Server | undefined;
let port: number;

function viaPort(url: string): string {
  const u = new URL(url);
  u.host = `127.0.0.1:${port}`;
  return u.toString();
}

beforeAll(async () => {
  db = await createTestDatabase();
  port = await freePort();
  Object.assign(process.env, {
    DATABASE_URL: viaPort(db.adminUrl),
    APP_DATABASE_URL: viaPort(db.appUrl),
    ANALYTICS_DATABASE_URL: viaPort(db.analyticsUrl),
    BALCAO_LOG_LEVEL: 'silent',
  });
  fake = sharedFake();
  await import(/* @vite-ignore */ pathToFileURL(join(root, 'out/main/index.js')).href);
  fake.makeReady();
  await vi.waitFor(() => expect(fake.windows).toHaveLength(1));
});

afterAll(async () => {
  const event = { preventDefault: vi.fn() };
  fake.appEvents.emit('will-quit', event);
  await vi.waitFor(() => expect(fake.calls.exit).toEqual([0]));
  relay?.close();
  await db?.drop();
  rmSync(fake.electron.app.getPath('userData'), { recursive: true, force: true });
});

it('reports the database as unavailable in pt-BR, then recovers on the next call', async () => {
  const wc = fake.windows[0]!.webContents;
  const call = fake.handlers.get('app/info') as (e: unknown, i: unknown) => Promise<unknown>;
  const event = { sender: wc, senderFrame: { url: indexUrl, parent: null } };

  const down = (await call(event, {})) as { ok: boolean; error: { code: string; message: string } };
  expect(down.ok).toBe(false);
  expect(down.error.code).toBe('banco_indisponivel');
  expect(down.error.message).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|stack|Error:/);

  const target = new URL(db.adminUrl);
  relay = createServer((socket) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    socket.pipe(upstream).pipe(socket);
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
  });
  await new Promise<void>((ok) => relay!.listen(port, '127.0.0.1', ok));

  expect(await call(event, {})).toMatchObject({
    ok: true,
    data: { database: 'external', databaseOk: true },
  });
});
