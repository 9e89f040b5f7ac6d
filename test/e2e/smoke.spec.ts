import { createHandlers } from '../../src-main/ipc/handlers';
import { DEADLINE_ORDER_SQL } from '../support/queue-fixtures';
import { test, expect, openApp, startTestBridge } from './support/fixtures';

test.describe('shell', () => {
  test('opens on the review queue with demo data from PostgreSQL', async ({ page, testDb }) => {
    await expect(page.getByRole('heading', { level: 1, name: 'Fila de revisão' })).toBeVisible();
    // The most urgent open item in the database is the first row of the table (#13: the queue
    // opens on the SLA view; since #39.2 that is by deadline — past it first, then the nearest).
    const newest = await testDb.admin.query<{ texto: string; nome: string }>(
      `SELECT e.texto, m.nome FROM extracoes e JOIN merchants m ON m.id = e.merchant_id
        WHERE e.fila_estado = 'aberta' ORDER BY ${DEADLINE_ORDER_SQL} LIMIT 1`,
    );
    const row = newest.rows[0];
    expect(row, 'demo data has open queue items').toBeDefined();
    const table = page.getByRole('table', { name: 'Pedidos abertos na fila de revisão' });
    const first = table.getByRole('row').nth(1);
    await expect(first).toContainText(row!.nome);
    await expect(first).toContainText(row!.texto.slice(0, 30));
    // Counts on the filter buttons are the database's.
    const counts = await testDb.admin.query<{ status: string; n: number }>(
      `SELECT status, count(*)::int AS n FROM extracoes WHERE fila_estado = 'aberta' GROUP BY 1`,
    );
    const falhou = counts.rows.find((r) => r.status === 'falhou')?.n ?? 0;
    await expect(page.getByRole('button', { name: `Falhou (${falhou})` })).toBeVisible();
    await expect(page.getByText('PostgreSQL externo')).toBeVisible();
  });

  test('switches between the queue and the sales panel by mouse and keyboard', async ({
    page,
    testDb,
    consoleErrors,
    network,
  }) => {
    await page.getByRole('link', { name: /^Vendas/ }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Vendas' })).toBeVisible();
    await expect(page).toHaveURL(/#\/vendas$/);

    // The merchant picker searches the database.
    const m = (
      await testDb.admin.query<{ id: number; nome: string }>(
        'SELECT id, nome FROM merchants ORDER BY id LIMIT 1',
      )
    ).rows[0]!;
    const picker = page.getByRole('combobox', { name: 'Lojista' });
    await picker.fill(m.nome.slice(0, 6));
    await expect(page.getByRole('option', { name: new RegExp(m.nome) })).toBeVisible();
    await picker.fill(String(m.id));
    await expect(page.getByRole('option').first()).toContainText(m.nome);
    await picker.press('Enter');
    await expect(page.getByTestId('sales-merchant')).toContainText(`Lojista: ${m.nome} #${m.id}`);

    // Alt+1 goes back to the queue; Alt+2 to sales again; `?` lists the shortcuts.
    await page.getByRole('heading', { level: 1, name: 'Vendas' }).click();
    await page.keyboard.press('Alt+1');
    await expect(page.getByRole('heading', { level: 1, name: 'Fila de revisão' })).toBeVisible();
    await page.keyboard.press('Alt+2');
    await expect(page.getByRole('heading', { level: 1, name: 'Vendas' })).toBeVisible();
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Atalhos de teclado' });
    await expect(help).toBeVisible();
    await expect(help).toContainText('Ir para Fila de revisão');
    await expect(help).toContainText('Escolher o lojista');
    await page.keyboard.press('Escape');
    await expect(help).toBeHidden();

    for (const [link, heading] of [
      ['Cobranças', 'Cobranças'],
      ['Relatório', 'Falhas de validação'],
      ['Configurações', 'Configurações'],
    ] as const) {
      await page.getByRole('link', { name: new RegExp(`^${link}`) }).click();
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    }
    expect(consoleErrors).toEqual([]);
    expect(network.blocked).toEqual([]);
  });

  test('exposes only invoke and on, and refuses channels outside the contract', async ({
    page,
  }) => {
    const shape = await page.evaluate(() => ({
      keys: Object.keys(window.balcao).sort(),
      frozen: Object.isFrozen(window.balcao),
      node: typeof (window as unknown as { require?: unknown }).require,
      process: typeof (window as unknown as { process?: unknown }).process,
    }));
    expect(shape).toEqual({
      keys: ['invoke', 'on'],
      frozen: true,
      node: 'undefined',
      process: 'undefined',
    });
    const refused = await page.evaluate(() =>
      window.balcao.invoke('db/dropEverything' as never, {} as never).then(
        () => 'accepted',
        (e: Error) => e.message,
      ),
    );
    expect(refused).toMatch(/fora do contrato/);
    // Bad input is refused by main's zod schema with a pt-BR message.
    const bad = await page.evaluate(() =>
      window.balcao.invoke('review/list', { limit: 5000 } as never),
    );
    expect(bad).toMatchObject({ ok: false, error: { code: 'entrada_invalida' } });
  });

  test('cannot reach the network or navigate away', async ({ page, bridge, network }) => {
    const violations = await page.evaluate(async () => {
      const seen: string[] = [];
      document.addEventListener('securitypolicyviolation', (e) => seen.push(e.violatedDirective));
      const fetched = await fetch('https://example.com/').then(
        () => 'reached',
        () => 'blocked',
      );
      const img = new Image();
      img.src = 'https://example.com/pixel.png';
      await new Promise((r) => setTimeout(r, 200));
      return { fetched, seen };
    });
    expect(violations.fetched).toBe('blocked');
    expect(violations.seen).toEqual(expect.arrayContaining(['connect-src', 'img-src']));
    expect(network.blocked).toEqual([]); // the CSP stopped them before any request left

    // Every link in the app is an in-page route; following them never leaves our page.
    const hrefs = await page
      .locator('a[href]')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs.length).toBeGreaterThan(0);
    for (const h of hrefs) expect(h).toMatch(/^#/);
    expect(new URL(page.url()).origin).toBe(bridge.origin);
  });
});

test('a page that crashes shows an error and the shell keeps working', async ({
  page,
  serviceDeps,
}) => {
  // A handler answering malformed data (as a broken main could): the queue page throws.
  const handlers = createHandlers(serviceDeps);
  const bridge = await startTestBridge({
    handlers: { ...handlers, 'review/list': async () => ({ items: null }) as never },
  });
  try {
    await openApp(page, bridge, '#/fila');
    await expect(page.getByRole('alert')).toContainText('Esta tela encontrou um erro');
    await page.getByRole('link', { name: /^Vendas/ }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Vendas' })).toBeVisible();
    await page.getByRole('link', { name: /^Fila de revisão/ }).click();
    await expect(page.getByRole('alert')).toContainText('Esta tela encontrou um erro');
  } finally {
    await bridge.close();
  }
});
