#!/usr/bin/env node
/**
 * `npm start`'s first step (#41.2): checks what the window needs before building and starting
 * it, and says in pt-BR what is wrong and what to do — instead of Electron's English stack
 * traces. Plain Node (no build, no dependencies), so it runs on any Node the user has.
 *
 * The window needs: Node ≥ 22.12 (Electron 45's engines) and Electron's own program, which npm
 * downloads on install (it is missing after `ELECTRON_SKIP_BINARY_DOWNLOAD=1 npm ci` or an
 * install without internet). The CLI (`npx balcao`) and the tests need neither.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const MIN_NODE = [22, 12, 0];

/** "22.12.0" → [22, 12, 0]. */
function parts(v) {
  return String(v)
    .replace(/^v/, '')
    .split('.')
    .map((n) => Number.parseInt(n, 10) || 0);
}

function atLeast(v, min) {
  const p = parts(v);
  for (let i = 0; i < min.length; i++) {
    if ((p[i] ?? 0) !== min[i]) return (p[i] ?? 0) > min[i];
  }
  return true;
}

/** Where the Electron program should be, or null when npm never downloaded it. */
export function electronProgram(electronDir, env = process.env) {
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    return existsSync(env.ELECTRON_OVERRIDE_DIST_PATH) ? env.ELECTRON_OVERRIDE_DIST_PATH : null;
  }
  const pathFile = join(electronDir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const exe = join(electronDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(exe) ? exe : null;
}

/**
 * What stops the window from starting, each as one pt-BR paragraph (cause, then what to do);
 * empty when everything is in place.
 */
export function preflight({ nodeVersion, electronDir, env = process.env }) {
  const problems = [];
  if (!atLeast(nodeVersion, MIN_NODE)) {
    problems.push(
      `Este é o Node ${String(nodeVersion).replace(/^v/, '')}; a janela do Balcão (Electron 45) precisa do Node ${MIN_NODE.join('.')} ou mais novo.\n` +
        '  O que fazer: instale o Node 22 LTS ou 24 (por exemplo, `nvm install 22 && nvm use 22`), rode `npm ci` de novo e depois `npm start`.\n' +
        '  A linha de comando (`npx balcao …`) e os testes (`npm test`) funcionam neste Node.',
    );
  }
  if (!existsSync(join(electronDir, 'package.json'))) {
    problems.push(
      'As dependências não estão instaladas (falta node_modules/electron).\n' +
        '  O que fazer: rode `npm ci` na pasta do projeto.',
    );
  } else if (!electronProgram(electronDir, env)) {
    problems.push(
      'O programa do Electron não foi baixado: o `npm ci` rodou com ELECTRON_SKIP_BINARY_DOWNLOAD=1 ou sem acesso à internet.\n' +
        '  O que fazer: com internet, rode `node node_modules/electron/install.js` (ou `npm ci` sem ELECTRON_SKIP_BINARY_DOWNLOAD) e depois `npm start`.\n' +
        '  Sem internet, a janela não tem como rodar nesta máquina; a linha de comando (`npx balcao …`) funciona.',
    );
  }
  return problems;
}

const isMain = process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const problems = preflight({
    nodeVersion: process.versions.node,
    electronDir: join(root, 'node_modules', 'electron'),
  });
  if (problems.length) {
    process.stderr.write(
      `Não é possível abrir a janela do Balcão:\n\n${problems.map((p) => `- ${p}`).join('\n\n')}\n`,
    );
    process.exit(1);
  }
}
