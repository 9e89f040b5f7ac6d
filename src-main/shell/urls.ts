import { fileURLToPath, pathToFileURL } from 'node:url';
import { sep } from 'node:path';

/**
 * Where our renderer lives: the built index.html (file://) and, in development only, the
 * electron-vite dev server origin. Every URL decision in the shell goes through these pure
 * functions (unit-tested in test/shell/urls.test.ts).
 */
export interface RendererLocation {
  /** Absolute path of out/renderer/index.html. */
  indexPath: string;
  /** Absolute path of the folder holding the renderer's assets (out/renderer). */
  rootDir: string;
  /** `http://localhost:5173` in `electron-vite dev`; undefined in builds. */
  devOrigin?: string | undefined;
}

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** The local path of a file: URL, or null for anything odd (a host, encoded slashes, …). */
function filePath(u: URL): string | null {
  if (u.protocol !== 'file:' || (u.host !== '' && u.host !== 'localhost')) return null;
  try {
    return fileURLToPath(u);
  } catch {
    return null;
  }
}

function devOriginOf(loc: RendererLocation): string | null {
  if (!loc.devOrigin) return null;
  const u = parse(loc.devOrigin);
  return u && (u.protocol === 'http:' || u.protocol === 'https:') ? u.origin : null;
}

/** The URL the main window loads. */
export function rendererEntryUrl(loc: RendererLocation): string {
  return devOriginOf(loc) ?? pathToFileURL(loc.indexPath).toString();
}

/**
 * Is this the URL of our own page? Only our index.html (any hash or query) or, in development,
 * a page of the dev server. Anything else — another file, another host, a data: or
 * javascript: URL — is not ours.
 */
export function isTrustedRendererUrl(url: string | undefined, loc: RendererLocation): boolean {
  if (!url) return false;
  const u = parse(url);
  if (!u) return false;
  const dev = devOriginOf(loc);
  if (dev && u.origin === dev) return true;
  const p = filePath(u);
  return p !== null && p === loc.indexPath;
}

/**
 * May the renderer's session load this URL at all? Our renderer's own files, the dev server
 * (with its HMR websocket) in development, DevTools, and inline data: images. No network.
 */
export function isAllowedRequestUrl(url: string, loc: RendererLocation): boolean {
  const u = parse(url);
  if (!u) return false;
  if (u.protocol === 'devtools:' || u.protocol === 'data:') return true;
  const dev = devOriginOf(loc);
  if (dev) {
    const d = new URL(dev);
    const sameHost = u.host === d.host;
    if (sameHost && (u.protocol === d.protocol || u.protocol === 'ws:' || u.protocol === 'wss:')) {
      return true;
    }
  }
  const p = filePath(u);
  if (p === null) return false;
  const root = loc.rootDir.endsWith(sep) ? loc.rootDir : loc.rootDir + sep;
  return p === loc.indexPath || p.startsWith(root);
}

/** What the IPC wrapper knows about the frame that sent a call. */
export interface SenderInfo {
  /** The sending webContents is one of our windows. */
  knownWindow: boolean;
  /** The frame is that window's main (top-level) frame, not an iframe. */
  isMainFrame: boolean;
  /** URL of the sending frame (undefined when the frame is gone). */
  frameUrl: string | undefined;
}

/** A call is accepted only from the main frame of one of our windows showing our page. */
export function isTrustedSender(s: SenderInfo, loc: RendererLocation): boolean {
  return s.knownWindow && s.isMainFrame && isTrustedRendererUrl(s.frameUrl, loc);
}
