import { seedDemo } from '../../src-main/db/seed';
import { startQueueFeed } from '../../src-main/intake/live-feed';
import { insertExtraction } from '../support/queue-fixtures';
import {
  E2E_NOW,
  E2E_TIME_ZONE,
  expect,
  freshTestDatabase,
  makeServiceDeps,
  openApp,
  startTestBridge,
  test,
} from './support/fixtures';

test.describe('live queue through the change log (#39.1: a team desktop behind PgBouncer)', () => {
  test('items arriving or changing elsewhere show without reloading, read through the desktop pool', async ({
    page,
    consoleErrors,
  }) => {
    const db = await freshTestDatabase();
    await seedDemo(db.admin, {
      now: E2E_NOW,
      timeZone: E2E_TIME_ZONE,
      merchants: 2,
      transactions: 200,
    });
    const bridge = await startTestBridge({ deps: makeServiceDeps(db) });
    // What main does for a signed-in person: the change log read through the person's own pool.
    const live = startQueueFeed({
      pool: db.app,
      onChange: (c) => bridge.broadcast('review/changed', c),
    });
    try {
      await expect.poll(() => live.connected()).toBe(true);
      await openApp(page, bridge);
      const table = page.getByRole('table', { name: 'Pedidos abertos na fila de revisão' });
      await expect(table.getByRole('row').nth(1)).toBeVisible();

      const texto = 'cobra 75 reais da Rita Lopes no pix, pelo registro de mudanças';
      const id = await insertExtraction(db.admin, { texto, status: 'falhou' });
      const row = table.getByTestId(`queue-row-${id}`);
      await expect(row).toBeVisible({ timeout: 5_000 });
      await expect(row).toContainText('Rita Lopes');

      await db.admin.query(
        `UPDATE extracoes SET fila_estado = 'descartada', descarte_motivo = 'teste',
                resolvida_por = 'outro.agente', resolvida_em = now() WHERE id = $1`,
        [id],
      );
      await expect(row).toHaveCount(0, { timeout: 5_000 });
      expect(consoleErrors).toEqual([]);
    } finally {
      await live.close();
      await bridge.close();
      await db.drop();
    }
  });
});
