/**
 * The CLI as one prebuilt ES module (out/cli/main.mjs): `balcao` starts from compiled JavaScript
 * instead of compiling TypeScript with tsx at every run. Dependencies stay in node_modules (SSR
 * build: packages are external). src-main/cli/bin.mjs uses this bundle when it is newer than
 * every source file, and falls back to tsx otherwise (a fresh clone, an edit not yet built).
 */
import { resolve } from 'node:path';
import { defineConfig } from 'vite';

export default defineConfig({
  resolve: { alias: { '@shared': resolve(import.meta.dirname, 'src-shared') } },
  logLevel: 'warn',
  build: {
    ssr: resolve(import.meta.dirname, 'src-main/cli/main.ts'),
    outDir: 'out/cli',
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    reportCompressedSize: false,
    rolldownOptions: { output: { format: 'es', entryFileNames: 'main.mjs' } },
  },
});
