/**
 * #42.2 and #42.8 — the merchant at the moment of money, notices that never outlive their item,
 * destructive actions that look destructive, one quiet notice with undo where undo exists, and
 * the item's actions in even rows at 1366×768 and 1920×1080.
 */
import type { Page } from '@playwright/test';
import { dados, ensureMerchants, insertExtraction } from '../support/queue-fixtures';
import {
  expect,
  freshTestDatabase,
  makeServiceDeps,
  openApp,
  startTestBridge,
  test,
} from './support/fixtures';

const DANGER = 'rgb(180, 35, 24)'; // --danger

async function setup() {
  const db = await freshTestDatabase();
  await ensureMerchants(db.admin, { 1: 'Padaria Sol Nascente', 2: 'Oficina Lua Cheia' });
  const item = (merchantId: number, cliente: string) =>
    insertExtraction(db.admin, {
      merchantId,
      status: 'completo',
      texto: `manda um pix de 150 reais pro ${cliente}, vence dia 4`,
      dados: dados({ cliente_nome: cliente, metodo: 'pix', parcelas: 1 }),
    });
  const a = await item(1, 'Lucas Pereira');
  const b = await item(2, 'Marta Dias');
  const c = await item(2, 'Rui Barros');
  const bridge = await startTestBridge({ deps: makeServiceDeps(db) });
  return {
    db,
    bridge,
    ids: { a, b, c },
    close: async () => {
      await bridge.close();
      await db.drop();
    },
  };
}

const notices = (page: Page) => page.getByRole('region', { name: 'Notificações' });

async function openItem(page: Page, id: number) {
  await page.evaluate((i) => (window.location.hash = `#/fila/${i}`), id);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(`Pedido #${id}`);
  // Held (the actions are enabled once the claim answered).
  await expect(page.getByRole('button', { name: /^Descartar/ })).toBeEnabled();
}

test('the merchant is named at the moment of money; a notice never outlives its item; discard is red with undo', async ({
  page,
  consoleErrors,
}) => {
  const s = await setup();
  try {
    await openApp(page, s.bridge, `#/fila/${s.ids.a}`);
    await openItem(page, s.ids.a);
    await page.keyboard.press('Control+Enter');
    const dialog = page.getByRole('dialog', { name: 'Criar esta cobrança?' });
    await expect(dialog.getByTestId('confirm-merchant')).toHaveText(
      'Lojista: Padaria Sol Nascente',
    );
    await dialog.getByRole('button', { name: 'Criar cobrança' }).click();
    await expect(notices(page)).toContainText(
      /^Cobrança #\d+ criada \(lojista Padaria Sol Nascente\): R\$\s150,00 para Lucas Pereira\./,
    );

    // The next item is another merchant's: the notice about the first one is gone at once.
    await openItem(page, s.ids.b);
    await expect(notices(page)).not.toContainText('Padaria Sol Nascente');
    await expect(notices(page).getByRole('status')).toHaveCount(0);

    // Destructive actions look destructive: outlined red among the others, solid red to confirm.
    const discard = page.getByRole('button', { name: /^Descartar/ });
    expect(await discard.evaluate((el) => getComputedStyle(el).color)).toBe(DANGER);
    await page.keyboard.press('d');
    const dd = page.getByRole('dialog', { name: 'Descartar este pedido?' });
    await dd.getByLabel('Mensagem de teste').check();
    const confirmDiscard = dd.getByRole('button', { name: 'Descartar' });
    expect(await confirmDiscard.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
      DANGER,
    );
    await confirmDiscard.click();

    // One quiet notice, with undo (a supervisor may reopen): undo brings the item back.
    await expect(notices(page).getByRole('status')).toHaveCount(1);
    await expect(notices(page)).toContainText(`Pedido #${s.ids.b} descartado (Mensagem de teste).`);
    await notices(page).getByRole('button', { name: 'Desfazer' }).click();
    await expect(notices(page).getByRole('status')).toHaveCount(1);
    await expect(notices(page)).toContainText(`Pedido #${s.ids.b} reaberto: de volta à fila.`);
    const row = await s.db.admin.query<{ fila_estado: string }>(
      'SELECT fila_estado FROM extracoes WHERE id = $1',
      [s.ids.b],
    );
    expect(row.rows[0]?.fila_estado).toBe('aberta');
    expect(consoleErrors).toEqual([]);
  } finally {
    await s.close();
  }
});

for (const size of [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
]) {
  test(`the item's actions sit in even rows at ${size.width}×${size.height}`, async ({
    page,
  }, testInfo) => {
    const s = await setup();
    try {
      await page.setViewportSize(size);
      await openApp(page, s.bridge, `#/fila/${s.ids.c}`);
      await openItem(page, s.ids.c);
      const boxes = await page
        .getByRole('group', { name: 'Outras ações' })
        .getByRole('button')
        .evaluateAll((els) =>
          els.map((el) => {
            const r = el.getBoundingClientRect();
            return {
              top: Math.round(r.top),
              height: Math.round(r.height),
              width: Math.round(r.width),
              clipped: el.scrollWidth > el.clientWidth,
            };
          }),
        );
      await page.screenshot({ path: testInfo.outputPath(`acoes-${size.width}.png`) });
      expect(boxes).toHaveLength(4);
      // At most two rows, each full (2 × 2 or 1 × 4): never a ragged last row.
      const rows = [...new Set(boxes.map((b) => b.top))];
      expect(rows.length).toBeLessThanOrEqual(2);
      for (const top of rows)
        expect(boxes.filter((b) => b.top === top).length).toBe(4 / rows.length);
      // Same size everywhere, no label cut.
      expect(new Set(boxes.map((b) => b.height)).size).toBe(1);
      expect(new Set(boxes.map((b) => b.width)).size).toBe(1);
      expect(boxes.filter((b) => b.clipped)).toEqual([]);
    } finally {
      await s.close();
    }
  });
}
