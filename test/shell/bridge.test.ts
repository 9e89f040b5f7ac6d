/**
 * The test bridge is loopback-only and token-guarded, serves only the build, and answers
 * through the same invokeChannel wrapper as Electron.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../src-main/clock';
import { createMemorySettings } from '../../src-main/settings/memory';
import { silentLogger } from '../../src-main/util/logger';
import { startBridge, type Bridge } from '../bridge/server';
import { createTestDatabase, type TestDatabase } from '../support/db';

let db: TestDatabase;
let bridge: Bridge;

interface Res {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function http(
  path: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Res> {
  const u = new URL(bridge.origin);
  return new Promise((ok, fail) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: u.port,
        path,
        method: opts.method ?? 'GET',
        headers: opts.headers,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', fail);
    req.end(opts.body);
  });
}

let cookie = '';
const authed = (h: Record<string, string> = {}) => ({ cookie, ...h });

beforeAll(async () => {
  db = await createTestDatabase();
  bridge = await startBridge({
    deps: {
      settings: createMemorySettings({}, {}),
      clock: fixedClock(new Date('2026-11-30T15:00:00Z')),
      dbs: db,
      logger: silentLogger,
      databaseMode: 'external',
      appVersion: '1.2.3',
    },
  });
  const login = await http(`/__bridge/login?token=${bridge.token}`);
  cookie = String(login.headers['set-cookie']?.[0]).split(';')[0]!;
});
afterAll(async () => {
  await bridge?.close();
  await db?.drop();
});

describe('test bridge', () => {
  it('listens on loopback with a random token', () => {
    expect(bridge.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(bridge.token.length).toBeGreaterThanOrEqual(32);
    expect(cookie).toMatch(/^balcao_bridge=/);
  });

  it('refuses everything without the token, with a wrong token, or for another Host', async () => {
    for (const path of ['/', '/index.html', '/__bridge/client.js', '/assets/x.js']) {
      expect((await http(path)).status, path).toBe(403);
    }
    expect((await http('/__bridge/login?token=wrong')).status).toBe(403);
    const rebinding = await http('/index.html', { headers: authed({ host: 'evil.example:80' }) });
    expect(rebinding.status).toBe(421);
  });

  it('serves the built page with connect-src self and the client first, and nothing outside the build', async () => {
    const page = await http('/index.html', { headers: authed() });
    expect(page.status).toBe(200);
    expect(page.body).toContain("connect-src 'self'");
    expect(page.body.indexOf('/__bridge/client.js')).toBeLessThan(
      page.body.indexOf('type="module"'),
    );
    for (const p of [
      '/..%2f..%2fpackage.json',
      '/assets/..%2f..%2f..%2fpackage.json',
      '/%2e%2e/%2e%2e/package.json',
    ]) {
      const r = await http(p, { headers: authed() });
      expect([403, 404], p).toContain(r.status);
      expect(r.body).not.toContain('"name": "balcao"');
    }
  });

  it('answers calls of a known session through the contract wrapper, and pushes events to it', async () => {
    const client = await http('/__bridge/client.js', { headers: authed() });
    const sessionId = /const sessionId = "([^"]+)"/.exec(client.body)?.[1];
    expect(sessionId).toBeTruthy();
    expect(client.body).toContain('fora do contrato'); // the same createBalcaoApi as the preload
    const post = (body: unknown, session = sessionId!) =>
      http('/__bridge/invoke', {
        method: 'POST',
        headers: authed({ 'content-type': 'application/json', 'x-balcao-session': session }),
        body: JSON.stringify(body),
      });
    const info = JSON.parse((await post({ channel: 'app/info', input: {} })).body);
    expect(info).toMatchObject({
      ok: true,
      data: { version: '1.2.3', databaseOk: true, today: '2026-11-30' },
    });
    const bad = JSON.parse((await post({ channel: 'review/list', input: { limit: -1 } })).body);
    expect(bad).toMatchObject({ ok: false, error: { code: 'entrada_invalida' } });
    const unknown = JSON.parse((await post({ channel: 'db/drop', input: {} })).body);
    expect(unknown).toMatchObject({ ok: false, error: { code: 'entrada_invalida' } });
    expect((await post({ channel: 'app/info', input: {} }, 'forged-session')).status).toBe(403);

    // Server-sent events reach that session only.
    const u = new URL(bridge.origin);
    const received = new Promise<string>((ok, fail) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: u.port,
          path: `/__bridge/events?session=${sessionId}`,
          headers: authed(),
        },
        (res) => {
          res.setEncoding('utf8');
          let buf = '';
          res.on('data', (c: string) => {
            buf += c;
            if (buf.includes('data: ')) {
              ok(buf);
              req.destroy();
            } else if (buf.startsWith(': ok')) {
              bridge.emit(sessionId!, 'sales/progress', { requestId: 'r1', etapa: 'consultando' });
            }
          });
        },
      );
      req.on('error', fail);
      req.end();
    });
    expect(await received).toContain('"etapa":"consultando"');
  });
});
