/**
 * The renderer's first paint and its interactive queue (#40.5), in Debian Chromium, on the built
 * renderer served by the test bridge (the same IPC handlers as Electron) over demo data:
 *
 *   npm run build && npx tsx scripts/first-paint.ts [--vezes 7]
 *
 * Each run is a fresh browser context (cold cache). Prints, as median and slowest of N runs:
 * first contentful paint, the time until the queue's first row is on screen and answers a click
 * (the item opens), and the JavaScript the page downloaded before the queue was interactive —
 * the entry with its modulepreloads (what index.html loads) and the whole of it. Uses
 * DATABASE_URL if set, else an embedded PostgreSQL of its own.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { fixedClock } from '../src-main/clock';
import { seedDemo } from '../src-main/db/seed';
import { createMemorySettings } from '../src-main/settings/memory';
import { silentLogger } from '../src-main/util/logger';
import { startBridge } from '../test/bridge/server';
import { CHROMIUM_ARGS, assertChromium } from '../test/e2e/support/chromium';
import { startTestPgServer } from '../test/support/pg-server';
import { initialScripts } from '../test/support/renderer-bundle';
import { cloneTestDatabase } from '../test/support/testdb';

const root = resolve(import.meta.dirname, '..');
const rendererDir = join(root, 'out/renderer');
const arg = process.argv.indexOf('--vezes');
const vezes = arg > 0 ? Number(process.argv[arg + 1]) : 7;
if (!Number.isSafeInteger(vezes) || vezes < 1) {
  console.error('--vezes: use um número inteiro positivo.');
  process.exit(2);
}
if (!existsSync(join(rendererDir, 'index.html'))) {
  console.error('Rode `npm run build` antes: o script mede o renderer construído.');
  process.exit(2);
}

/** Bytes of the scripts index.html loads before anything runs: the entry and its preloads. */
const initialScriptBytes = () => initialScripts(rendererDir).reduce((s, f) => s + f.bytes, 0);

interface Run {
  fcp: number;
  queue: number;
  open: number;
  jsBytes: number;
}

async function once(page: Page, url: string): Promise<Run> {
  await page.goto(url);
  const table = page.getByRole('table', { name: 'Pedidos abertos na fila de revisão' });
  const first = table.getByRole('row').nth(1);
  await first.waitFor({ state: 'visible', timeout: 30_000 });
  const queue = await page.evaluate(() => performance.now());
  await first.click();
  await page
    .getByRole('button', { name: /^Confirmar/ })
    .first()
    .waitFor({ timeout: 30_000 });
  const open = (await page.evaluate(() => performance.now())) - queue;
  const m = await page.evaluate(() => {
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN;
    const js = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((e) => e.name.endsWith('.js') && e.startTime <= performance.now())
      .reduce((s, e) => s + e.decodedBodySize, 0);
    return { fcp, js };
  });
  return { fcp: m.fcp, queue, open, jsBytes: m.js };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const ms = (x: number) => `${Math.round(x)} ms`;
const kb = (x: number) => `${Math.round(x / 1000)} kB`;

const server = await startTestPgServer();
const db = await cloneTestDatabase(server.serverUrl, server.template);
const browser = await chromium.launch({ executablePath: assertChromium(), args: CHROMIUM_ARGS });
try {
  const now = new Date('2026-11-30T15:00:00Z');
  await seedDemo(db.admin, {
    now,
    timeZone: 'America/Sao_Paulo',
    merchants: 4,
    transactions: 4000,
  });
  const settings = createMemorySettings(
    { timeZone: 'America/Sao_Paulo', operator: 'medicao', databaseUrl: db.adminUrl },
    {},
  );
  const bridge = await startBridge({
    deps: {
      settings,
      clock: fixedClock(now),
      dbs: { admin: db.admin, app: db.app, analytics: db.analytics },
      logger: silentLogger,
      databaseMode: 'external',
      appVersion: 'medicao',
    },
  });
  try {
    const runs: Run[] = [];
    for (let i = 0; i < vezes; i++) {
      const context = await browser.newContext({
        locale: 'pt-BR',
        timezoneId: 'America/Sao_Paulo',
        viewport: { width: 1366, height: 768 },
      });
      runs.push(await once(await context.newPage(), bridge.loginUrl));
      await context.close();
    }
    const row = (name: string, xs: number[], f: (x: number) => string) =>
      console.log(`${name.padEnd(44)} ${f(median(xs)).padStart(9)}   (pior ${f(Math.max(...xs))})`);
    console.log(`Renderer em ${browser.version()} — ${vezes} execuções, cache frio, 1366×768`);
    row(
      'primeira pintura (first-contentful-paint)',
      runs.map((r) => r.fcp),
      ms,
    );
    row(
      'fila interativa (1ª linha visível)',
      runs.map((r) => r.queue),
      ms,
    );
    row(
      'abrir o primeiro item (clique → formulário)',
      runs.map((r) => r.open),
      ms,
    );
    console.log(
      `${'JS inicial (entrada + modulepreload)'.padEnd(44)} ${kb(initialScriptBytes()).padStart(9)}`,
    );
    row(
      'JS carregado até a fila abrir um item',
      runs.map((r) => r.jsBytes),
      kb,
    );
  } finally {
    await bridge.close();
  }
} finally {
  await browser.close();
  await db.drop();
  await server.stop();
}
