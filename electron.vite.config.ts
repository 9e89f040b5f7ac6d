import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';

const alias = { '@shared': resolve(__dirname, 'src-shared') };

/**
 * `electron-vite dev` only: React Refresh injects an inline script and HMR needs a websocket,
 * so the dev server relaxes the CSP in index.html. Builds keep the strict policy untouched.
 */
const devCsp = (): Plugin => ({
  name: 'balcao-dev-csp',
  apply: 'serve',
  transformIndexHtml: (html) =>
    html
      .replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
      .replace("connect-src 'none'", "connect-src 'self' ws://localhost:* ws://127.0.0.1:*"),
});

export default defineConfig({
  main: {
    resolve: { alias },
    build: {
      outDir: 'out/main',
      rolldownOptions: {
        input: { index: resolve(__dirname, 'src-main/index.ts') },
      },
    },
  },
  preload: {
    resolve: { alias },
    build: {
      outDir: 'out/preload',
      // A sandboxed preload can require only `electron`: bundle zod & co. into the one file.
      externalizeDeps: false,
      rolldownOptions: {
        input: { preload: resolve(__dirname, 'src-main/preload.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src-renderer'),
    resolve: { alias },
    plugins: [react(), devCsp()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      // The first screen parses what it downloads: minified, it is about a third (#40.5).
      minify: true,
      rolldownOptions: {
        input: { index: resolve(__dirname, 'src-renderer/index.html') },
      },
    },
  },
});
