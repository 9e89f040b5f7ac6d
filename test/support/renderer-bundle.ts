/** What the built renderer's index.html loads before anything runs (#40.5). */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface InitialScript {
  file: string;
  bytes: number;
}

/** The entry script and its modulepreloads, as index.html lists them, with their sizes. */
export function initialScripts(rendererDir: string): InitialScript[] {
  const html = readFileSync(join(rendererDir, 'index.html'), 'utf8');
  const refs = html.matchAll(
    /<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="\.\/([^"]+\.js)"/g,
  );
  return [...refs].map((m) => ({ file: m[1]!, bytes: statSync(join(rendererDir, m[1]!)).size }));
}
