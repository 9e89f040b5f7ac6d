import { accessSync, constants } from 'node:fs';

/** Debian's Chromium (apt-get install -y chromium), or CHROMIUM_PATH. */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.CHROMIUM_PATH || '/usr/bin/chromium';
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Throws a clear pt-BR/English message when no usable Chromium is found. */
export function assertChromium(env: NodeJS.ProcessEnv = process.env): string {
  const path = chromiumPath(env);
  try {
    accessSync(path, constants.X_OK);
  } catch {
    throw new Error(
      `Chromium não encontrado em ${path} (Chromium not found).\n` +
        'Os testes end-to-end precisam de um Chromium real. Instale com:\n\n' +
        '    apt-get install -y chromium\n\n' +
        'ou aponte CHROMIUM_PATH para o executável do Chromium.',
    );
  }
  return path;
}
