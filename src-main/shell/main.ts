import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  app,
  BrowserWindow,
  ipcMain,
  safeStorage,
  session,
  type BrowserWindowConstructorOptions,
  type IpcMainInvokeEvent,
  type WebContents,
} from 'electron';
import Store from 'electron-store';
import type { CallContext, Handlers } from '../ipc/types';
import { startServices, type Services } from '../start-services';
import { installAppLastResort } from '../util/last-resort';
import { createLogger } from '../util/logger';
import { eventChannel } from './channels';
import { hardenSession, hardenWebContents } from './hardening';
import { registerIpcHandlers } from './ipc';
import { createSafeStorageVault } from './credential-vault';
import { createStoredSettings } from './settings-store';
import { isTrustedSender, rendererEntryUrl, type RendererLocation } from './urls';

const here = dirname(fileURLToPath(import.meta.url));

/** Paths of the built bundles, relative to out/main/index.js. */
export function bundlePaths(mainDir: string = here) {
  const rootDir = join(mainDir, '..', 'renderer');
  return {
    preload: join(mainDir, '..', 'preload', 'preload.cjs'),
    renderer: { rootDir, indexPath: join(rootDir, 'index.html') },
  };
}

/** Per-window state; per-window service state is keyed by `sessionId`. */
interface WindowSession {
  id: string;
  window: BrowserWindow;
  abort: AbortController;
}

/** The BrowserWindow options: the security-relevant part is webPreferences. */
export function mainWindowOptions(preload: string): BrowserWindowConstructorOptions {
  return {
    width: 1360,
    height: 860,
    minWidth: 960,
    minHeight: 600,
    show: false,
    title: 'Balcão',
    backgroundColor: '#f6f7f9',
    autoHideMenuBar: true,
    webPreferences: {
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      devTools: !app.isPackaged,
    },
  };
}

/** Starts the desktop app. Everything Electron-specific lives in src-main/shell. */
export function runElectronApp(): void {
  const logger = createLogger();
  // Nothing uncaught closes the app: it is logged in full and the window stays.
  installAppLastResort(logger);
  if (!app.requestSingleInstanceLock()) {
    // Another instance owns the embedded database; it focuses its window.
    app.quit();
    return;
  }
  app.enableSandbox();
  // Chromium's locale (number/date pickers, spell-check, Accept-Language): pt-BR for everyone,
  // whatever the OS says. Must be set before the app is ready.
  app.commandLine.appendSwitch('lang', 'pt-BR');

  const paths = bundlePaths();
  const devUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;
  const loc: RendererLocation = { ...paths.renderer, devOrigin: devUrl };
  const sessions = new Map<number, WindowSession>();

  app.on('web-contents-created', (_event, wc) => hardenWebContents(wc, logger));

  let services: Promise<Services> | undefined;
  let ready: Services | undefined;
  let startServicesNow: (() => Promise<Services>) | undefined;
  /** The handlers once the services are up; a failed start is retried by the next call. */
  const handlers = async (): Promise<Handlers> => {
    if (!startServicesNow) throw new Error('serviços ainda não iniciados');
    const current = (services ??= startServicesNow());
    try {
      ready = await current;
      return ready.handlers;
    } catch (e) {
      if (services === current) services = undefined;
      throw e;
    }
  };

  const contextFor = (event: IpcMainInvokeEvent): CallContext | null => {
    const ws = sessions.get(event.sender.id);
    const frame = event.senderFrame;
    const trusted = isTrustedSender(
      { knownWindow: !!ws, isMainFrame: !!frame && frame.parent === null, frameUrl: frame?.url },
      loc,
    );
    if (!ws || !trusted) return null;
    const wc: WebContents = ws.window.webContents;
    return {
      sessionId: ws.id,
      signal: ws.abort.signal,
      emit(name, payload) {
        if (!wc.isDestroyed()) wc.send(eventChannel(name), payload);
      },
    };
  };

  const createMainWindow = (): BrowserWindow => {
    const win = new BrowserWindow(mainWindowOptions(paths.preload));
    const ws: WindowSession = { id: randomUUID(), window: win, abort: new AbortController() };
    const wcId = win.webContents.id;
    sessions.set(wcId, ws);
    win.on('closed', () => {
      ws.abort.abort();
      sessions.delete(wcId);
    });
    win.once('ready-to-show', () => win.show());
    void win.loadURL(rendererEntryUrl(loc));
    return win;
  };

  app.on('second-instance', () => {
    const first = BrowserWindow.getAllWindows()[0];
    if (first) {
      if (first.isMinimized()) first.restore();
      first.focus();
    }
  });

  void app.whenReady().then(() => {
    hardenSession(session.defaultSession, loc, logger);
    const store = new Store({ name: 'config' });
    // electron-store registers a sendSync listener for renderer-side use; we never use it.
    ipcMain.removeAllListeners('electron-store-get-data');
    const settings = createStoredSettings({ store, crypto: safeStorage, logger });
    const vault = createSafeStorageVault({ store, crypto: safeStorage, logger });
    startServicesNow = () => {
      const started = startServices({
        settings,
        vault,
        dataDir: app.getPath('userData'),
        logger,
        appVersion: app.getVersion(),
        broadcast(name, payload) {
          for (const ws of sessions.values()) {
            const wc = ws.window.webContents;
            if (!wc.isDestroyed()) wc.send(eventChannel(name), payload);
          }
        },
      });
      started.catch((err: unknown) => logger.error({ err }, 'falha ao iniciar os serviços'));
      return started;
    };
    // Start now (the embedded database may take a while on first run); the window shows
    // loading states meanwhile.
    void handlers().catch(() => undefined);
    registerIpcHandlers(ipcMain, { handlers, contextFor, gate: () => ready?.gate, logger });
    createMainWindow();
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) createMainWindow();
    });
  });

  app.on('window-all-closed', () => app.quit());

  let closing = false;
  app.on('will-quit', (event) => {
    if (closing || !services) return;
    closing = true;
    event.preventDefault();
    void services
      .then((s) => s.close())
      .catch(() => undefined)
      .finally(() => app.exit(0));
  });
}
