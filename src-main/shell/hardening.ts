import type { Session, WebContents } from 'electron';
import { isAllowedRequestUrl, type RendererLocation } from './urls';
import type { Logger } from '../util/logger';

/**
 * Every webContents the app creates: no new windows, no navigation away, no <webview>.
 * The renderer is a single page; hash changes are in-page and never reach `will-navigate`.
 */
export function hardenWebContents(wc: WebContents, logger?: Logger): void {
  wc.setWindowOpenHandler(({ url }) => {
    logger?.warn({ url }, 'window.open recusado');
    return { action: 'deny' };
  });
  const block = (kind: string) => (event: { preventDefault(): void }, url: string) => {
    event.preventDefault();
    logger?.warn({ url }, `${kind} bloqueado`);
  };
  wc.on('will-navigate', block('navegação'));
  wc.on('will-redirect', block('redirecionamento'));
  wc.on('will-attach-webview', (event) => event.preventDefault());
}

/** The session: every permission denied, no downloads, no request outside our files. */
export function hardenSession(ses: Session, loc: RendererLocation, logger?: Logger): void {
  ses.setPermissionRequestHandler((_wc, permission, callback) => {
    logger?.warn({ permission }, 'permissão recusada');
    callback(false);
  });
  ses.setPermissionCheckHandler(() => false);
  ses.setDevicePermissionHandler(() => false);
  ses.on('will-download', (event) => event.preventDefault());
  ses.webRequest.onBeforeRequest((details, callback) => {
    const allowed = isAllowedRequestUrl(details.url, loc);
    if (!allowed) logger?.warn({ url: details.url }, 'requisição de rede bloqueada');
    callback({ cancel: !allowed });
  });
}
