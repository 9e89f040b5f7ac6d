/**
 * A recording stand-in for the `electron` module, enough to run the BUILT main bundle
 * (out/main/index.js) under vitest: it records every registration (ipcMain.handle/on, window
 * options, webContents and session handlers) so tests can assert on them and drive them.
 */
import { EventEmitter } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

type Listener = (...args: unknown[]) => unknown;

export class FakeWebContents extends EventEmitter {
  static nextId = 1;
  readonly id = FakeWebContents.nextId++;
  windowOpenHandler: ((d: { url: string }) => { action: string }) | undefined;
  destroyed = false;
  sent: { channel: string; payload: unknown }[] = [];
  readonly mainFrame = { url: '', parent: null as unknown };
  setWindowOpenHandler(h: (d: { url: string }) => { action: string }) {
    this.windowOpenHandler = h;
  }
  send(channel: string, payload: unknown) {
    this.sent.push({ channel, payload });
  }
  isDestroyed() {
    return this.destroyed;
  }
}

export function createFakeElectron(userData: string) {
  const appEvents = new EventEmitter();
  const windows: FakeBrowserWindow[] = [];
  const calls = {
    handle: [] as string[],
    ipcOn: [] as string[],
    removedAllListeners: [] as string[],
    exit: [] as number[],
    quit: 0,
    enableSandbox: 0,
    switches: [] as [string, string | undefined][],
  };
  const handlers = new Map<string, Listener>();

  class FakeBrowserWindow extends EventEmitter {
    readonly options: Record<string, unknown> & { webPreferences: Record<string, unknown> };
    readonly webContents = new FakeWebContents();
    loadedUrl: string | undefined;
    shown = false;
    constructor(options: FakeBrowserWindow['options']) {
      super();
      this.options = options;
      windows.push(this);
      // Electron emits this for every webContents it creates.
      appEvents.emit('web-contents-created', {}, this.webContents);
    }
    loadURL(url: string) {
      this.loadedUrl = url;
      this.webContents.mainFrame.url = url;
      return Promise.resolve();
    }
    loadFile(): Promise<void> {
      throw new Error('use loadURL');
    }
    show() {
      this.shown = true;
    }
    isMinimized() {
      return false;
    }
    restore() {}
    focus() {}
    close() {
      this.webContents.destroyed = true;
      this.emit('closed');
    }
    static getAllWindows() {
      return windows.filter((w) => !w.webContents.destroyed);
    }
  }

  const sessionHandlers = {
    permissionRequest: undefined as Listener | undefined,
    permissionCheck: undefined as Listener | undefined,
    devicePermission: undefined as Listener | undefined,
    beforeRequest: undefined as Listener | undefined,
    events: new EventEmitter(),
  };
  const defaultSession = {
    setPermissionRequestHandler: (h: Listener) => (sessionHandlers.permissionRequest = h),
    setPermissionCheckHandler: (h: Listener) => (sessionHandlers.permissionCheck = h),
    setDevicePermissionHandler: (h: Listener) => (sessionHandlers.devicePermission = h),
    on: (e: string, h: Listener) => sessionHandlers.events.on(e, h),
    webRequest: { onBeforeRequest: (h: Listener) => (sessionHandlers.beforeRequest = h) },
  };

  const safeStorageState = { available: true, backend: 'gnome_libsecret' };
  const safeStorage = {
    isEncryptionAvailable: () => safeStorageState.available,
    getSelectedStorageBackend: () => safeStorageState.backend,
    // Reversible but not plain: enough to prove the key is not stored in clear text.
    encryptString: (s: string) => Buffer.from(`enc:${Buffer.from(s).toString('hex')}`),
    decryptString: (b: Buffer) => {
      const t = b.toString();
      if (!t.startsWith('enc:')) throw new Error('bad ciphertext');
      return Buffer.from(t.slice(4), 'hex').toString();
    },
  };

  const ipcMain = {
    handle(channel: string, listener: Listener) {
      if (handlers.has(channel))
        throw new Error(`Attempted to register a second handler for '${channel}'`);
      calls.handle.push(channel);
      handlers.set(channel, listener);
    },
    handleOnce() {
      throw new Error('handleOnce not expected');
    },
    on(channel: string) {
      calls.ipcOn.push(channel);
      return ipcMain;
    },
    once(channel: string) {
      calls.ipcOn.push(channel);
      return ipcMain;
    },
    removeAllListeners(channel: string) {
      calls.removedAllListeners.push(channel);
      return ipcMain;
    },
    removeHandler(channel: string) {
      handlers.delete(channel);
    },
  };

  let readyResolve: () => void = () => undefined;
  const ready = new Promise<void>((r) => (readyResolve = r));
  const app = {
    isPackaged: false,
    requestSingleInstanceLock: () => true,
    enableSandbox: () => void calls.enableSandbox++,
    commandLine: {
      appendSwitch: (name: string, value?: string) => void calls.switches.push([name, value]),
    },
    whenReady: () => ready,
    on: (e: string, h: Listener) => appEvents.on(e, h),
    once: (e: string, h: Listener) => appEvents.once(e, h),
    getPath: (name: string) => {
      if (name !== 'userData') throw new Error(`getPath(${name}) not expected`);
      return userData;
    },
    getVersion: () => '9.9.9-test',
    getName: () => 'balcao',
    quit: () => void calls.quit++,
    exit: (code: number) => void calls.exit.push(code),
  };

  const electron = {
    app,
    BrowserWindow: FakeBrowserWindow,
    ipcMain,
    session: { defaultSession },
    safeStorage,
    shell: { openExternal: () => Promise.reject(new Error('not allowed')), openPath: () => '' },
  };
  return {
    electron,
    windows,
    calls,
    handlers,
    appEvents,
    sessionHandlers,
    safeStorageState,
    /** Resolves app.whenReady(). */
    makeReady: () => readyResolve(),
  };
}

export type FakeElectron = ReturnType<typeof createFakeElectron>;

let shared: FakeElectron | undefined;

/** One fake per test file (vitest runs each file in its own process/module graph). */
export function sharedFake(): FakeElectron {
  if (!shared) {
    shared = createFakeElectron(mkdtempSync(join(tmpdir(), 'balcao-userdata-')));
  }
  return shared;
}
