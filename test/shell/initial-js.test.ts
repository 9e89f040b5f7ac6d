/**
 * The first screen's JavaScript (#40.5): the entry chunk plus its modulepreloads stays under
 * 400 kB, and what only Vendas and Relatório use (charts, the sales formatting) is not in it.
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { initialScripts } from '../support/renderer-bundle';

const dir = join(resolve(__dirname, '../..'), 'out/renderer');
const LIMIT = 400_000;

describe('renderer initial JavaScript', () => {
  const initial = initialScripts(dir);

  it('is the entry plus its preloads, under 400 kB in all', () => {
    expect(initial.length).toBeGreaterThan(0);
    expect(initial[0]!.file).toMatch(/^assets\/index-.*\.js$/);
    const total = initial.reduce((s, f) => s + f.bytes, 0);
    expect(total, initial.map((f) => `${f.file} ${f.bytes}`).join(', ')).toBeLessThan(LIMIT);
  });

  it('leaves the charts and the sales screens to their own chunks', () => {
    const chunks = readdirSync(join(dir, 'assets'));
    for (const lazy of ['sales-format-', 'SalesPanel-', 'ReportsArea-', 'QueuePage-']) {
      expect(
        chunks.some((c) => c.startsWith(lazy)),
        `${lazy} chunk exists`,
      ).toBe(true);
      expect(initial.map((f) => f.file).filter((f) => f.includes(lazy))).toEqual([]);
    }
  });
});
