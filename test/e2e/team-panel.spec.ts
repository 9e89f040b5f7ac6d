/**
 * #39.3 — the supervisor's "Equipe" tab (Relatório): the panel's figures from a crafted queue at
 * the app's fixed instant, the validation-failure alert, and a live refresh when an item arrives
 * elsewhere; at 1366×768 and 1920×1080 (pictures in /tmp). Roles without supervision never get
 * the tab (roles-walk.spec.ts lists each role's report tabs).
 */
import { startQueueListener } from '../../src-main/intake/live';
import { ensureMerchants, insertExtraction } from '../support/queue-fixtures';
import {
  E2E_NOW,
  expect,
  freshTestDatabase,
  makeServiceDeps,
  openApp,
  startTestBridge,
  test,
} from './support/fixtures';

const ago = (min: number) => new Date(E2E_NOW.getTime() - min * 60_000).toISOString();

for (const [width, height] of [
  [1366, 768],
  [1920, 1080],
] as const) {
  test(`painel da equipe at ${width}×${height}: figures, alert, live`, async ({
    page,
    consoleErrors,
  }) => {
    await page.setViewportSize({ width, height });
    const db = await freshTestDatabase();
    await ensureMerchants(db.admin, { 1: 'Padaria Central' });
    // Open: two failed (one past its 30 min), one incomplete; one charge created by the system.
    await insertExtraction(db.admin, { status: 'falhou', criadaEm: ago(10) });
    await insertExtraction(db.admin, { status: 'falhou', criadaEm: ago(45) });
    await insertExtraction(db.admin, { status: 'incompleto', criadaEm: ago(150) });
    const auto = await insertExtraction(db.admin, { status: 'completo', criadaEm: ago(60) });
    await db.admin.query(
      `UPDATE extracoes SET fila_estado = 'resolvida', resolvida_por = 'sistema' WHERE id = $1`,
      [auto],
    );
    // Ana's day: one item handled in 3 min 20 s.
    await db.admin.query(
      `INSERT INTO auditoria (operador, acao, extracao_id, ocorrido_em)
       VALUES ('Ana', 'assumiu', $1, $2), ('Ana', 'cobranca_criada', $1, $3)`,
      [auto, ago(30), new Date(E2E_NOW.getTime() - 30 * 60_000 + 200_000).toISOString()],
    );
    const bridge = await startTestBridge({ deps: makeServiceDeps(db) });
    const live = startQueueListener({
      connectionString: db.appUrl,
      onChange: (c) => bridge.broadcast('review/changed', c),
      coalesceMs: 50,
    });
    try {
      await expect.poll(() => live.connected()).toBe(true);
      await openApp(page, bridge, '#/relatorio/equipe');
      const tabs = page.getByRole('tablist', { name: 'Relatórios' });
      await expect(tabs.getByRole('tab', { name: 'Equipe' })).toHaveAttribute(
        'aria-selected',
        'true',
      );
      const panel = page.getByTestId('team-panel');
      // The page's own heading, in the frame every area uses (the panel's figures below it).
      await expect(page.getByRole('heading', { level: 1, name: 'Painel da equipe' })).toBeVisible();
      // The deadlines as people say them, not as minutes to convert.
      await expect(page.locator('.page-subtitle')).toContainText(
        'Prazos: falhou 30 min, incompleto 2 h, aguardando lojista 24 h.',
      );
      const kpi = (label: string) =>
        panel.locator('.report-kpi').filter({ has: page.getByText(label, { exact: true }) });
      await expect(kpi('Fila aberta')).toContainText('3');
      await expect(kpi('Atrasados')).toContainText('2');
      await expect(kpi('Criação automática (24 h)')).toContainText('25%');
      // 2 of 4 extractions failed: above the 5% threshold.
      await expect(page.getByTestId('alerta-falhas')).toContainText(
        'Falhas de validação acima do limite nas últimas 24 h: 50% de 4 extrações (limite 5%).',
      );
      const fila = page.getByTestId('painel-fila');
      await expect(fila.getByRole('row', { name: /Falhou/ })).toContainText('2');
      await expect(
        page.getByTestId('painel-agentes').getByRole('row', { name: /Ana/ }),
      ).toContainText('3 min 20 s');
      await expect(page.getByRole('img', { name: /Gráfico dos últimos 7 dias/ })).toBeVisible();
      // Nothing scrolls sideways.
      expect(
        await page.evaluate(
          () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
        ),
      ).toBe(true);
      await page.screenshot({ path: `/tmp/painel-equipe-${width}x${height}.png`, fullPage: true });

      // An item arrives elsewhere: the panel refreshes by itself.
      await insertExtraction(db.admin, { status: 'falhou' });
      await expect(kpi('Fila aberta')).toContainText('4', { timeout: 10_000 });
      expect(consoleErrors).toEqual([]);
    } finally {
      await live.close();
      await bridge.close();
      await db.drop();
    }
  });
}

for (const [width, height] of [
  [1366, 768],
  [1920, 1080],
] as const) {
  test(`queue marks near and late items at ${width}×${height}`, async ({ page, consoleErrors }) => {
    await page.setViewportSize({ width, height });
    const db = await freshTestDatabase();
    await ensureMerchants(db.admin, { 1: 'Padaria Central' });
    // The list's marks are relative to the window's own time, so these ages are from the real
    // clock. falhou has 30 min: 5 min old → no mark; 27 min old → a few minutes left (under
    // 25%); 45 min old → late.
    const real = (min: number) => new Date(Date.now() - min * 60_000).toISOString();
    const calm = await insertExtraction(db.admin, { status: 'falhou', criadaEm: real(5) });
    const near = await insertExtraction(db.admin, { status: 'falhou', criadaEm: real(27) });
    const late = await insertExtraction(db.admin, { status: 'falhou', criadaEm: real(45) });
    const bridge = await startTestBridge({ deps: makeServiceDeps(db) });
    try {
      await openApp(page, bridge);
      const table = page.getByRole('table', { name: 'Pedidos abertos na fila de revisão' });
      await expect(table.getByTestId(`queue-row-${near}`)).toContainText(/vence em \d+ min/);
      await expect(table.getByTestId(`queue-row-${late}`)).toContainText(/atrasado há \d+ min/);
      await expect(table.getByTestId(`queue-row-${calm}`)).not.toContainText(/vence em|atrasado/);
      expect(
        await page.evaluate(
          () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
        ),
      ).toBe(true);
      await page.screenshot({ path: `/tmp/fila-prazos-${width}x${height}.png` });
      expect(consoleErrors).toEqual([]);
    } finally {
      await bridge.close();
      await db.drop();
    }
  });
}
