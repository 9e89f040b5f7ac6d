/**
 * #39.2 — the queue opens in its default order, the nearest deadline first (past-deadline items
 * at the top), with a sortable "Prazo" column: late and near items carry a badge whose words say
 * so ("atrasado há …", "vence em …"), the others the time left ("faltam …"). Another order and
 * back; at 1366×768 and 1920×1080 (pictures in /tmp), nothing scrolls sideways.
 */
import { ensureMerchants, insertExtraction } from '../support/queue-fixtures';
import {
  expect,
  freshTestDatabase,
  makeServiceDeps,
  openApp,
  startTestBridge,
  test,
} from './support/fixtures';

for (const [width, height] of [
  [1366, 768],
  [1920, 1080],
] as const) {
  test(`the queue by deadline at ${width}×${height}: order, marks, the Prazo column`, async ({
    page,
    consoleErrors,
  }) => {
    await page.setViewportSize({ width, height });
    const db = await freshTestDatabase();
    await ensureMerchants(db.admin, { 1: 'Padaria Central', 2: 'Loja do Zé' });
    // The window's marks are relative to its own time: ages from the real clock. Deadlines with
    // the default minutes (falhou 30, the others 120):
    const real = (min: number) => new Date(Date.now() - min * 60_000).toISOString();
    const incompleto = { status: 'incompleto' as const, dados: null };
    const veryLate = await insertExtraction(db.admin, { ...incompleto, criadaEm: real(200) }); // −80
    const late = await insertExtraction(db.admin, { status: 'falhou', criadaEm: real(45) }); // −15
    const near = await insertExtraction(db.admin, {
      status: 'falhou',
      criadaEm: real(26),
      merchantId: 2,
    }); // +4
    const fresh = await insertExtraction(db.admin, { status: 'falhou', criadaEm: real(2) }); // +28
    const calm = await insertExtraction(db.admin, { ...incompleto, criadaEm: real(30) }); // +90
    const alert = await insertExtraction(db.admin, {
      status: 'completo',
      alertas: [
        { codigo: 'valor_divergente', mensagem: 'O valor difere do texto.', valores_no_texto: [1] },
      ],
      criadaEm: real(5),
    }); // +115
    const byDeadline = [veryLate, late, near, fresh, calm, alert];
    const bridge = await startTestBridge({ deps: makeServiceDeps(db) });
    try {
      await openApp(page, bridge);
      const table = page.getByRole('table', { name: 'Pedidos abertos na fila de revisão' });
      const rowIds = () =>
        table
          .locator('[data-testid^="queue-row-"]')
          .evaluateAll((rs) => rs.map((r) => Number(r.getAttribute('data-testid')!.slice(10))));
      // The default order: by deadline, the sort shown on the Prazo header.
      await expect.poll(rowIds).toEqual(byDeadline);
      const prazo = table.getByRole('columnheader', { name: /Prazo/ });
      await expect(prazo).toHaveAttribute('aria-sort', 'ascending');
      const row = (id: number) => table.getByTestId(`queue-row-${id}`);
      // Marks in words (not colour only), the time left otherwise.
      await expect(row(veryLate).locator('[data-prazo="atrasado"]')).toHaveText(/atrasado há 1 h/);
      await expect(row(late).locator('[data-prazo="atrasado"]')).toHaveText(
        /atrasado há 1[45] min/,
      );
      await expect(row(near).locator('[data-prazo="vencendo"]')).toHaveText(/vence em [345] min/);
      await expect(row(calm)).toContainText(/falta 1 h (29|30) min/);
      await expect(row(calm).locator('[data-prazo]')).toHaveCount(0);
      await expect(row(fresh)).toContainText(/faltam 2\d min/);
      // The situation badge stays a situation: the deadline is in its own column.
      await expect(row(late).getByText('Falhou', { exact: true })).toBeVisible();
      expect(
        await page.evaluate(
          () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
        ),
      ).toBe(true);
      await page.screenshot({ path: `/tmp/fila-por-prazo-${width}x${height}.png` });

      // Another order (newest first, from the Recebido header), then back to the deadline.
      await table.getByRole('button', { name: /Recebido/ }).click();
      await expect.poll(rowIds).toEqual([fresh, alert, near, calm, late, veryLate]);
      await expect(prazo).not.toHaveAttribute('aria-sort', /.+/);
      await prazo.getByRole('button').click();
      await expect.poll(rowIds).toEqual(byDeadline);
      await expect(prazo).toHaveAttribute('aria-sort', 'ascending');
      expect(consoleErrors).toEqual([]);
    } finally {
      await bridge.close();
      await db.drop();
    }
  });
}
