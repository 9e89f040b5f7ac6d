/** The built renderer page carries a strict CSP: nothing by default, no network, no inline JS. */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rewriteIndexHtml } from '../bridge/server';

const html = readFileSync(join(resolve(__dirname, '../..'), 'out/renderer/index.html'), 'utf8');

function policy(doc: string): Map<string, string[]> {
  const m = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/i.exec(doc);
  expect(m, 'CSP meta tag').not.toBeNull();
  const out = new Map<string, string[]>();
  for (const d of m![1]!.split(';')) {
    const [name, ...values] = d.trim().split(/\s+/);
    if (name) out.set(name, values);
  }
  return out;
}

describe('renderer CSP', () => {
  const csp = policy(html);

  it('starts from default-src none and forbids the network', () => {
    expect(csp.get('default-src')).toEqual(["'none'"]);
    expect(csp.get('connect-src')).toEqual(["'none'"]);
    for (const d of ['object-src', 'frame-src', 'base-uri', 'form-action', 'worker-src']) {
      expect(csp.get(d), d).toEqual(["'none'"]);
    }
  });

  it('runs only our own script files (no inline, no eval) and loads nothing remote', () => {
    expect(csp.get('script-src')).toEqual(["'self'"]);
    for (const [name, values] of csp) {
      for (const v of values) {
        expect(v, `${name} ${v}`).not.toMatch(/^(https?:|wss?:|\*|'unsafe-eval'|blob:)/);
      }
    }
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i); // no inline <script> blocks
    expect(html).not.toMatch(/\bhttps?:\/\//);
  });

  it('the test bridge widens only connect-src, to itself', () => {
    const bridged = policy(rewriteIndexHtml(html));
    expect(bridged.get('connect-src')).toEqual(["'self'"]);
    const rest = (m: Map<string, string[]>) => [...m].filter(([k]) => k !== 'connect-src');
    expect(rest(bridged)).toEqual(rest(csp));
  });
});
