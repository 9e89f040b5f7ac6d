import { describe, expect, it } from 'vitest';
import { pathToFileURL } from 'node:url';
import {
  isAllowedRequestUrl,
  isTrustedRendererUrl,
  isTrustedSender,
  rendererEntryUrl,
  type RendererLocation,
} from '../../src-main/shell/urls';

const rootDir = '/opt/balcao/out/renderer';
const loc: RendererLocation = { rootDir, indexPath: `${rootDir}/index.html` };
const dev: RendererLocation = { ...loc, devOrigin: 'http://localhost:5173' };
const index = pathToFileURL(loc.indexPath).toString();

describe('isTrustedRendererUrl', () => {
  it('accepts our built index.html, with any hash or query', () => {
    expect(isTrustedRendererUrl(index, loc)).toBe(true);
    expect(isTrustedRendererUrl(`${index}#/vendas`, loc)).toBe(true);
    expect(isTrustedRendererUrl(`${index}?x=1#/fila/3`, loc)).toBe(true);
    expect(isTrustedRendererUrl(`file://localhost${loc.indexPath}`, loc)).toBe(true);
  });

  it('refuses other files, hosts, schemes and tricks', () => {
    for (const url of [
      undefined,
      '',
      'not a url',
      'file:///etc/passwd',
      `file://${rootDir}/assets/x.html`,
      `file://${rootDir}/../renderer2/index.html`,
      `file://evil.example${loc.indexPath}`,
      `file://${rootDir}/sub/..%2f..%2findex.html`,
      'https://example.com/index.html',
      'http://localhost:5173/',
      'data:text/html,<script>alert(1)</script>',
      'javascript:alert(1)',
      'about:blank',
      'devtools://devtools/bundled/index.html',
    ]) {
      expect(isTrustedRendererUrl(url, loc), String(url)).toBe(false);
    }
  });

  it('in development trusts exactly the dev server origin', () => {
    expect(isTrustedRendererUrl('http://localhost:5173/#/fila', dev)).toBe(true);
    expect(isTrustedRendererUrl('http://localhost:5174/', dev)).toBe(false);
    expect(isTrustedRendererUrl('http://localhost.evil.com:5173/', dev)).toBe(false);
    expect(isTrustedRendererUrl('https://localhost:5173/', dev)).toBe(false);
    expect(rendererEntryUrl(dev)).toBe('http://localhost:5173');
    expect(rendererEntryUrl(loc)).toBe(index);
  });
});

describe('isAllowedRequestUrl (the renderer has no network)', () => {
  it('allows our own files, inline data and DevTools', () => {
    expect(isAllowedRequestUrl(index, loc)).toBe(true);
    expect(isAllowedRequestUrl(`file://${rootDir}/assets/index-abc.js`, loc)).toBe(true);
    expect(isAllowedRequestUrl('data:image/png;base64,AAAA', loc)).toBe(true);
    expect(isAllowedRequestUrl('devtools://devtools/bundled/x.js', loc)).toBe(true);
  });

  it('blocks every network request and any file outside the build', () => {
    for (const url of [
      'https://api.anthropic.com/v1/messages',
      'http://127.0.0.1:5432/',
      'ws://localhost:5173/',
      'file:///etc/passwd',
      `file://${rootDir}/../../secret.json`,
      `file:///opt/balcao/out/renderer-evil/x.js`,
      `file://host${rootDir}/assets/a.js`,
      'blob:https://example.com/1',
      'ftp://example.com/',
      '::nonsense',
    ]) {
      expect(isAllowedRequestUrl(url, loc), url).toBe(false);
    }
  });

  it('in development also allows the dev server and its HMR socket, nothing else', () => {
    expect(isAllowedRequestUrl('http://localhost:5173/src/main.tsx', dev)).toBe(true);
    expect(isAllowedRequestUrl('ws://localhost:5173/', dev)).toBe(true);
    expect(isAllowedRequestUrl('http://localhost:8080/', dev)).toBe(false);
    expect(isAllowedRequestUrl('https://example.com/', dev)).toBe(false);
  });
});

describe('isTrustedSender', () => {
  const good = { knownWindow: true, isMainFrame: true, frameUrl: `${index}#/fila` };
  it('accepts only the main frame of our window showing our page', () => {
    expect(isTrustedSender(good, loc)).toBe(true);
    expect(isTrustedSender({ ...good, knownWindow: false }, loc)).toBe(false);
    expect(isTrustedSender({ ...good, isMainFrame: false }, loc)).toBe(false);
    expect(isTrustedSender({ ...good, frameUrl: undefined }, loc)).toBe(false);
    expect(isTrustedSender({ ...good, frameUrl: 'https://example.com/' }, loc)).toBe(false);
  });
});
