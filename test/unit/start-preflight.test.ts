/**
 * `npm start`'s preflight (#41.2): the window's two needs — Node ≥ 22.12 and Electron's
 * downloaded program — are checked first and explained in pt-BR, as a real process too.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error — a plain .mjs script (no types): it must run before anything is built.
import { preflight } from '../../scripts/start-preflight.mjs';

type Preflight = (o: {
  nodeVersion: string;
  electronDir: string;
  env?: Record<string, string | undefined>;
}) => string[];
const check = preflight as Preflight;

const dir = mkdtempSync(join(tmpdir(), 'balcao-preflight-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function electronDir(name: string, downloaded: boolean): string {
  const d = join(dir, name);
  mkdirSync(join(d, 'dist'), { recursive: true });
  writeFileSync(join(d, 'package.json'), '{"name":"electron"}');
  if (downloaded) {
    writeFileSync(join(d, 'path.txt'), 'electron');
    writeFileSync(join(d, 'dist', 'electron'), '');
  }
  return d;
}

describe('npm start preflight', () => {
  it('Node 22.12+ with the program downloaded: nothing to say', () => {
    const d = electronDir('ok', true);
    expect(check({ nodeVersion: '22.12.0', electronDir: d, env: {} })).toEqual([]);
    expect(check({ nodeVersion: 'v24.1.0', electronDir: d, env: {} })).toEqual([]);
  });

  it('Node below 22.12: says which Node this is, what the window needs and what to do', () => {
    const d = electronDir('old-node', true);
    for (const v of ['20.20.2', '22.11.9', '21.7.0']) {
      const [p, ...rest] = check({ nodeVersion: v, electronDir: d, env: {} });
      expect(rest).toEqual([]);
      expect(p).toContain(
        `Este é o Node ${v}; a janela do Balcão (Electron 45) precisa do Node 22.12.0 ou mais novo.`,
      );
      expect(p).toMatch(/O que fazer: instale o Node 22 LTS/);
      expect(p).toMatch(/A linha de comando .* funcionam neste Node/);
    }
  });

  it('no Electron program (installed with ELECTRON_SKIP_BINARY_DOWNLOAD or offline)', () => {
    const d = electronDir('no-binary', false);
    const [p, ...rest] = check({ nodeVersion: '22.12.0', electronDir: d, env: {} });
    expect(rest).toEqual([]);
    expect(p).toMatch(/^O programa do Electron não foi baixado/);
    expect(p).toContain('node node_modules/electron/install.js');
    // ELECTRON_OVERRIDE_DIST_PATH (a program of the user's own) counts when it exists.
    expect(
      check({ nodeVersion: '22.12.0', electronDir: d, env: { ELECTRON_OVERRIDE_DIST_PATH: d } }),
    ).toEqual([]);
  });

  it('no node_modules at all: run npm ci', () => {
    const [p] = check({ nodeVersion: '22.12.0', electronDir: join(dir, 'nothing'), env: {} });
    expect(p).toMatch(/rode `npm ci`/);
  });

  it('npm start and npm run dev check first, before building', () => {
    const pkg = JSON.parse(readFileSync(resolve(__dirname, '../../package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.start).toMatch(/^node scripts\/start-preflight\.mjs && /);
    expect(pkg.scripts.dev).toMatch(/^node scripts\/start-preflight\.mjs && /);
  });

  it('as a process: exit 1, pt-BR only, no stack trace, before any build', () => {
    const script = resolve(__dirname, '../../scripts/start-preflight.mjs');
    // This machine: Node 20 and no downloaded Electron (installed with the download skipped).
    const r = spawnSync(process.execPath, [script], { encoding: 'utf8', env: { ...process.env } });
    const ok = check({
      nodeVersion: process.versions.node,
      electronDir: resolve(__dirname, '../../node_modules/electron'),
    });
    if (ok.length === 0) {
      expect(r.status).toBe(0);
      expect(r.stderr).toBe('');
      return;
    }
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^Não é possível abrir a janela do Balcão:\n\n- /);
    expect(r.stderr).not.toMatch(/\n\s+at |Error:|install-electron/);
  });
});
