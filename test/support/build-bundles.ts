/**
 * vitest global setup: test/shell runs the BUILT bundles (out/main, out/preload, out/renderer),
 * so rebuild them when any source is newer than the build (or the build is missing). A fresh
 * clone, or an edit followed by `npm run test:unit`, never tests stale bundles.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const OUTPUTS = ['out/main/index.js', 'out/preload/preload.cjs', 'out/renderer/index.html'];
const SOURCES = [
  'src-main',
  'src-shared',
  'src-renderer',
  'electron.vite.config.ts',
  'package.json',
];

function newestMtime(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const e of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, e)));
  return newest;
}

export function bundlesAreFresh(): boolean {
  const outs = OUTPUTS.map((o) => join(root, o));
  if (!outs.every((o) => existsSync(o))) return false;
  const built = Math.min(...outs.map((o) => statSync(o).mtimeMs));
  const changed = Math.max(...SOURCES.map((s) => newestMtime(join(root, s))));
  return changed <= built;
}

/** The CLI bundle (out/cli/main.mjs) that src-main/cli/bin.mjs runs when it is fresh. */
export function cliBundleIsFresh(): boolean {
  const out = join(root, 'out/cli/main.mjs');
  if (!existsSync(out)) return false;
  const sources = ['src-main', 'src-shared', 'package.json', 'tsconfig.json', 'vite.cli.config.ts'];
  return Math.max(...sources.map((s) => newestMtime(join(root, s)))) <= statSync(out).mtimeMs;
}

export default function setup(): void {
  const require = createRequire(import.meta.url);
  // Tests that spawn `balcao` (bin.mjs) run the compiled CLI, as users do after `npm run build`.
  if (!cliBundleIsFresh()) {
    const vite = join(dirname(require.resolve('vite/package.json')), 'bin', 'vite.js');
    execFileSync(process.execPath, [vite, 'build', '-c', 'vite.cli.config.ts'], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  if (bundlesAreFresh()) return;
  const pkg = require.resolve('electron-vite/package.json');
  const bin = join(dirname(pkg), 'bin', 'electron-vite.js');
  execFileSync(process.execPath, [bin, 'build'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
