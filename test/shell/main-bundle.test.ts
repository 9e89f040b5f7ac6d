/**
 * Runs the BUILT main bundle (out/main/index.js) with a recording fake `electron` and a real
 * test database, and checks the shell's wiring: window hardening, session lock-down, one
 * `ipcMain.handle` per contract channel, the sender check, settings with safeStorage, shutdown.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CHANNELS } from '../../src-shared/contract';
import { seedDemo } from '../../src-main/db/seed';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { sharedFake, type FakeElectron, type FakeWebContents } from './fake-electron';

vi.mock('electron', async () => {
  const { sharedFake: get } = await import('./fake-electron');
  const e = get().electron;
  return { ...e, default: e };
});

const root = resolve(__dirname, '../..');
const mainBundle = join(root, 'out/main/index.js');
const preloadBundle = join(root, 'out/preload/preload.cjs');
const indexHtml = join(root, 'out/renderer/index.html');
const indexUrl = pathToFileURL(indexHtml).toString();

let db: TestDatabase;
let fake: FakeElectron;
let wc: FakeWebContents;

type Invoke = (
  event: unknown,
  input: unknown,
) => Promise<{ ok: boolean; data?: unknown; error?: { code: string; message: string } }>;
const call = (channel: string, input: unknown, event: unknown = ourEvent()) =>
  (fake.handlers.get(channel) as Invoke)(event, input);
const ourEvent = (over: Partial<{ sender: unknown; senderFrame: unknown }> = {}) => ({
  sender: wc,
  senderFrame: { url: `${indexUrl}#/fila`, parent: null },
  ...over,
});

beforeAll(async () => {
  db = await createTestDatabase();
  await seedDemo(db.admin, {
    now: new Date('2026-11-30T15:00:00Z'),
    timeZone: 'America/Sao_Paulo',
    merchants: 2,
    transactions: 300,
  });
  Object.assign(process.env, {
    DATABASE_URL: db.adminUrl,
    APP_DATABASE_URL: db.appUrl,
    ANALYTICS_DATABASE_URL: db.analyticsUrl,
    BALCAO_LOG_LEVEL: 'silent',
  });
  delete process.env.ELECTRON_RENDERER_URL;
  delete process.env.ANTHROPIC_API_KEY;
  expect(existsSync(mainBundle), 'out/main/index.js (npm run build)').toBe(true);
  fake = sharedFake();
  await import(/* @vite-ignore */ pathToFileURL(mainBundle).href);
  fake.makeReady();
  await vi.waitFor(() => expect(fake.windows).toHaveLength(1));
  wc = fake.windows[0]!.webContents;
});

afterAll(async () => {
  await db?.drop();
  rmSync(fake.electron.app.getPath('userData'), { recursive: true, force: true });
});

describe('main window', () => {
  it('is sandboxed, context-isolated, without Node, with our preload, showing our page', () => {
    const win = fake.windows[0]!;
    expect(win.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      preload: preloadBundle,
    });
    expect(existsSync(preloadBundle)).toBe(true);
    expect(win.loadedUrl).toBe(indexUrl);
    expect(fake.calls.enableSandbox).toBe(1);
    // The app sets its own locale (#13): Chromium runs in pt-BR whatever the OS says.
    expect(fake.calls.switches).toContainEqual(['lang', 'pt-BR']);
  });

  it('denies window.open and blocks every navigation, redirect and <webview>', () => {
    expect(wc.windowOpenHandler?.({ url: 'https://example.com' })).toEqual({ action: 'deny' });
    expect(wc.windowOpenHandler?.({ url: indexUrl })).toEqual({ action: 'deny' });
    for (const ev of ['will-navigate', 'will-redirect', 'will-attach-webview']) {
      for (const url of ['https://example.com/', indexUrl, 'file:///etc/passwd']) {
        const event = { preventDefault: vi.fn() };
        expect(wc.listenerCount(ev), ev).toBeGreaterThan(0);
        wc.emit(ev, event, url);
        expect(event.preventDefault, `${ev} ${url}`).toHaveBeenCalled();
      }
    }
  });

  it('denies permissions and downloads and cancels any request outside our files', () => {
    const h = fake.sessionHandlers;
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read']) {
      const cb = vi.fn();
      h.permissionRequest?.(wc, permission, cb);
      expect(cb).toHaveBeenCalledWith(false);
      expect(h.permissionCheck?.(wc, permission)).toBe(false);
    }
    expect(h.devicePermission?.({})).toBe(false);
    const download = { preventDefault: vi.fn() };
    h.events.emit('will-download', download);
    expect(download.preventDefault).toHaveBeenCalled();
    const decide = (url: string) => {
      const cb = vi.fn();
      h.beforeRequest?.({ url }, cb);
      return cb.mock.calls[0]?.[0];
    };
    expect(decide('https://api.anthropic.com/v1/messages')).toEqual({ cancel: true });
    expect(decide('http://127.0.0.1:5432/')).toEqual({ cancel: true });
    expect(decide(indexUrl)).toEqual({ cancel: false });
    expect(decide(pathToFileURL(join(root, 'out/renderer/assets/x.js')).href)).toEqual({
      cancel: false,
    });
  });
});

describe('IPC', () => {
  it('registers every contract channel exactly once with ipcMain.handle, and no listeners', () => {
    expect([...fake.calls.handle].sort()).toEqual([...CHANNELS].sort());
    expect(new Set(fake.calls.handle).size).toBe(fake.calls.handle.length);
    // electron-store adds a sendSync listener for renderer use; the shell removes it.
    const left = fake.calls.ipcOn.filter((c) => !fake.calls.removedAllListeners.includes(c));
    expect(left).toEqual([]);
  });

  it('answers our main frame from the real database', async () => {
    const info = await call('app/info', {});
    expect(info).toMatchObject({
      ok: true,
      data: { database: 'external', databaseOk: true, version: '9.9.9-test' },
    });
    const list = await call('review/list', { limit: 200 });
    const n = await db.admin.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM extracoes WHERE fila_estado = 'aberta'`,
    );
    expect(list.ok).toBe(true);
    expect((list.data as { items: unknown[] }).items).toHaveLength(n.rows[0]!.n);
    expect(n.rows[0]!.n).toBeGreaterThan(0);
  });

  it('refuses iframes, foreign pages and unknown windows before touching services', async () => {
    const refused = { ok: false, error: { code: 'acesso_negado' } };
    const other = { ...wc, id: 9999 };
    for (const event of [
      ourEvent({ senderFrame: { url: indexUrl, parent: { url: indexUrl } } }),
      ourEvent({ senderFrame: { url: 'https://example.com/', parent: null } }),
      ourEvent({ senderFrame: { url: 'file:///tmp/evil.html', parent: null } }),
      ourEvent({ senderFrame: null }),
      ourEvent({ sender: other }),
    ]) {
      expect(await call('app/info', {}, event)).toMatchObject(refused);
    }
  });

  it('parses input with the contract schema and answers in pt-BR', async () => {
    const r = await call('review/list', { limit: 100000, extra: true });
    expect(r).toMatchObject({ ok: false, error: { code: 'entrada_invalida' } });
    expect(r.error?.message).toMatch(/[a-zà-ú]/i);
  });
});

describe('settings (electron-store + safeStorage)', () => {
  const key = 'sk-ant-api03-' + 'k'.repeat(40);
  const configFile = () => join(fake.electron.app.getPath('userData'), 'config.json');

  it('stores the API key encrypted and never returns it', async () => {
    const set = await call('settings/setApiKey', { apiKey: key });
    expect(set).toMatchObject({ ok: true, data: { apiKeyConfigured: true, apiKeySource: 'app' } });
    expect(JSON.stringify(set)).not.toContain(key);
    const file = readFileSync(configFile(), 'utf8');
    expect(file).not.toContain(key);
    expect(file).toContain('chaveApiCriptografada');
    expect(JSON.stringify(await call('settings/get', {}))).not.toContain(key);
  });

  it('refuses to store a key without real encryption, saying why', async () => {
    fake.safeStorageState.backend = 'basic_text';
    const view = await call('settings/get', {});
    expect(view).toMatchObject({ ok: true, data: { canStoreApiKey: false } });
    expect((view.data as { cannotStoreReason: string }).cannotStoreReason).toMatch(
      /chaveiro do sistema/,
    );
    const r = await call('settings/setApiKey', { apiKey: key + 'x' });
    expect(r).toMatchObject({ ok: false, error: { code: 'configuracao' } });
    expect(r.error?.message).toMatch(/chaveiro/);

    fake.safeStorageState.available = false;
    const r2 = await call('settings/setApiKey', { apiKey: key + 'x' });
    expect(r2.error?.message).toMatch(/não tem um cofre protegido/);
    fake.safeStorageState.available = true;
    fake.safeStorageState.backend = 'gnome_libsecret';
  });

  it('validates and persists preferences', async () => {
    const bad = await call('settings/update', { timeZone: 'Marte/Olimpo' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'entrada_invalida' } });
    expect(bad.error?.message).toMatch(/Fuso horário desconhecido/);
    const before = await call('app/info', {});
    // #18: no operator name is typed in the app; the audited identity is the database login.
    const named = await call('settings/update', { operator: 'ana.souza' });
    expect(named).toMatchObject({ ok: false, error: { code: 'entrada_invalida' } });
    const ok = await call('settings/update', { maxAttempts: 2 });
    expect(ok).toMatchObject({ ok: true, data: { maxAttempts: 2 } });
    expect(ok.data).not.toHaveProperty('operator');
    expect(JSON.parse(readFileSync(configFile(), 'utf8'))).toMatchObject({
      preferencias: { maxAttempts: 2 },
    });
    const info = await call('app/info', {});
    expect(info).toMatchObject({
      ok: true,
      data: { operator: (before.data as { operator: string }).operator },
    });
  });
});

describe('lifecycle', () => {
  it('keeps per-window state (chosen merchant) by session, and forgets a closed window', async () => {
    const first = fake.windows[0]!;
    const m = await db.admin.query<{ id: number; nome: string }>(
      'SELECT id, nome FROM merchants ORDER BY id LIMIT 1',
    );
    const merchant = m.rows[0]!;
    expect(await call('sales/selectMerchant', { merchantId: merchant.id })).toMatchObject({
      ok: true,
      data: { merchant: { id: merchant.id, nome: merchant.nome } },
    });
    expect(await call('sales/session', {})).toMatchObject({
      data: { merchant: { id: merchant.id } },
    });

    first.close();
    expect(await call('app/info', {})).toMatchObject({
      ok: false,
      error: { code: 'acesso_negado' },
    });
    // A new window (macOS "activate") is a new session: nothing chosen yet.
    fake.appEvents.emit('activate');
    expect(fake.windows).toHaveLength(2);
    wc = fake.windows[1]!.webContents;
    expect(fake.windows[1]!.options.webPreferences).toMatchObject({
      sandbox: true,
      contextIsolation: true,
    });
    expect(await call('sales/session', {})).toMatchObject({ ok: true, data: { merchant: null } });
    fake.windows[1]!.close();
  });

  it('closes the databases before exiting', async () => {
    fake.appEvents.emit('window-all-closed');
    expect(fake.calls.quit).toBeGreaterThan(0);
    const event = { preventDefault: vi.fn() };
    fake.appEvents.emit('will-quit', event);
    expect(event.preventDefault).toHaveBeenCalled();
    await vi.waitFor(() => expect(fake.calls.exit).toEqual([0]));
  });
});
