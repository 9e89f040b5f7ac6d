import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project's `resources/` folder, whether we run from source (tsx, vitest), from the
 * electron-vite bundle (out/main) or from a packaged app (process.resourcesPath).
 */
export function resourcesDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [
    process.env.BALCAO_RESOURCES_DIR,
    resolve(here, '../../resources'),
    resolve(here, '../resources'),
    resolve(here, '../../../resources'),
    (process as { resourcesPath?: string }).resourcesPath
      ? join((process as { resourcesPath?: string }).resourcesPath ?? '', 'resources')
      : undefined,
    resolve(process.cwd(), 'resources'),
  ];
  for (const c of candidates) {
    if (c && existsSync(join(c, 'migrations'))) return c;
  }
  throw new Error('pasta resources/ não encontrada');
}
