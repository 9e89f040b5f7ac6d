import { seedDemo } from '../../src-main/db/seed';
import { startQueueListener } from '../../src-main/intake/live';
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

test.describe('live queue (LISTEN/NOTIFY → review/changed → the screen)', () => {
  test('items arriving or changing elsewhere show without reloading; survives a dropped connection', async ({
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
    // What main does in startServices: one session connection per app, pushed to every window.
    const live = startQueueListener({
      connectionString: db.appUrl,
      onChange: (c) => bridge.broadcast('review/changed', c),
      coalesceMs: 50,
      maxBackoffMs: 500,
    });
    try {
      await expect.poll(() => live.connected()).toBe(true);
      await openApp(page, bridge);
      const table = page.getByRole('table', { name: 'Pedidos abertos na fila de revisão' });
      await expect(table.getByRole('row').nth(1)).toBeVisible();

      // A worker (here: any writer) stores a new item: it appears without a reload.
      const texto = 'cobra 90 reais da Júlia Prado no pix, chegou agora';
      const id = await insertExtraction(db.admin, { texto, status: 'falhou' });
      const row = table.getByTestId(`queue-row-${id}`);
      await expect(row).toBeVisible({ timeout: 5_000 });
      await expect(row).toContainText('Júlia Prado');

      // Another agent discards it: it leaves this agent's queue at once.
      await db.admin.query(
        `UPDATE extracoes SET fila_estado = 'descartada', descarte_motivo = 'teste',
                resolvida_por = 'outro.agente', resolvida_em = now() WHERE id = $1`,
        [id],
      );
      await expect(row).toHaveCount(0, { timeout: 5_000 });

      // The listening session is killed (server restart, pooler hiccup): it reconnects with
      // backoff and keeps pushing.
      await db.admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE application_name = 'balcao-fila-ao-vivo' AND datname = current_database()`,
      );
      await expect.poll(() => live.connected(), { timeout: 10_000 }).toBe(false);
      await expect.poll(() => live.connected(), { timeout: 10_000 }).toBe(true);
      const id2 = await insertExtraction(db.admin, {
        texto: 'depois da reconexão: 70 reais pro Caio',
        status: 'falhou',
      });
      await expect(table.getByTestId(`queue-row-${id2}`)).toBeVisible({ timeout: 5_000 });
      expect(consoleErrors).toEqual([]);
    } finally {
      await live.close();
      await bridge.close();
      await db.drop();
    }
  });
});
