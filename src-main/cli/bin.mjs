#!/usr/bin/env node
// `balcao …`: runs the prebuilt CLI bundle (out/cli/main.mjs, `npm run build`) when it is newer
// than every source it was built from — plain JavaScript, no compile step, starts fast. Otherwise
// (a fresh clone before the build, or an edit not yet rebuilt) it runs the TypeScript sources
// through tsx, so the command always matches the code in the checkout.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bundle = `${root}out/cli/main.mjs`;
const SOURCES = ['src-main', 'src-shared', 'package.json', 'tsconfig.json', 'vite.cli.config.ts'];

function newestMtime(path) {
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st) return 0;
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const e of readdirSync(path)) newest = Math.max(newest, newestMtime(`${path}/${e}`));
  return newest;
}

function bundleIsFresh() {
  if (process.env.BALCAO_CLI_TSX === '1' || !existsSync(bundle)) return false;
  const built = statSync(bundle).mtimeMs;
  return SOURCES.every((s) => newestMtime(`${root}${s}`) <= built);
}

// Lets a command leave the embedded server to a keeper run by this same entry (#41.8).
process.env.BALCAO_CLI_BIN = fileURLToPath(import.meta.url);

let main;
if (bundleIsFresh()) {
  ({ main } = await import(bundle));
} else {
  const { register } = await import('tsx/esm/api');
  register({ tsconfig: `${root}tsconfig.json` });
  ({ main } = await import('./main.ts'));
}
const code = await main(process.argv.slice(2));
// With module hooks registered, Node 20 loses process.exitCode at exit: exit explicitly once
// stdout has been flushed.
process.stdout.write('', () => process.exit(code));
