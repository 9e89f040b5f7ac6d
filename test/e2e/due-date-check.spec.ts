/**
 * #42.1 — a due date the merchant never wrote: the item shows the text's phrase and its date
 * beside the vencimento field (never written into it without the agent), and "Confirmar" asks
 * for the date's explicit confirmation while the charge's date differs from the text's — at
 * 1366×768 and 1920×1080.
 */
import { dueDateAlert } from '@shared/due-dates';
import { dados, ensureMerchants, insertExtraction } from '../support/queue-fixtures';
import {
  E2E_NOW,
  expect,
  freshTestDatabase,
  makeServiceDeps,
  openApp,
  startTestBridge,
  test,
} from './support/fixtures';

/** Arrived at E2E_NOW (Monday 30/11/2026): "dia 4" is 04/12/2026; the model wrote 10/12. */
const TEXTO = 'pix de R$ 300 pra Ana Souza, vencimento dia 4';
const MODELO = '2026-12-10';

async function setup() {
  const db = await freshTestDatabase();
  await ensureMerchants(db.admin, { 1: 'Padaria Sol Nascente' });
  const alert = dueDateAlert([{ texto: TEXTO, chegada: E2E_NOW }], MODELO);
  if (!alert) throw new Error('o texto deveria divergir do vencimento do modelo');
  const id = await insertExtraction(db.admin, {
    merchantId: 1,
    status: 'completo',
    texto: TEXTO,
    dados: dados({
      valor_centavos: 30000,
      parcelas: 1,
      metodo: 'pix',
      cliente_nome: 'Ana Souza',
      vencimento: MODELO,
    }),
    alertas: [alert],
  });
  const bridge = await startTestBridge({ deps: makeServiceDeps(db) });
  return {
    db,
    bridge,
    id,
    close: async () => {
      await bridge.close();
      await db.drop();
    },
  };
}

for (const size of [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
]) {
  test(`the text's date beside the field, and the date confirmed before the charge, at ${size.width}×${size.height}`, async ({
    page,
    consoleErrors,
  }) => {
    const s = await setup();
    try {
      await page.setViewportSize(size);
      await openApp(page, s.bridge, `#/fila/${s.id}`);
      await expect(page.getByRole('heading', { level: 1 })).toContainText(`Pedido #${s.id}`);
      await expect(page.getByRole('button', { name: /^Descartar/ })).toBeEnabled();

      // Beside the vencimento field: the phrase and its date; the field keeps the model's date.
      const form = page.getByRole('form', { name: 'Dados da cobrança' });
      const field = form.locator('.field').filter({ has: page.getByLabel('Vencimento') });
      const note = field.getByTestId('due-date-note');
      await expect(note).toContainText('Na mensagem: «dia 4» → 04/12/2026');
      await expect(note).toContainText('O vencimento do formulário (10/12/2026) é outro');
      await expect(form.getByLabel('Vencimento')).toHaveValue('10/12/2026');
      const [input, box] = await Promise.all([
        form.getByLabel('Vencimento').boundingBox(),
        note.boundingBox(),
      ]);
      // Right under the field, inside the window.
      expect(box!.y).toBeGreaterThan(input!.y);
      expect(box!.y - (input!.y + input!.height)).toBeLessThan(80);
      expect(box!.x + box!.width).toBeLessThanOrEqual(size.width);
      await page.screenshot({ path: `/tmp/due-date-field-${size.width}.png` });

      // Confirmar: the dialog names the phrase and both dates; "Criar cobrança" waits for the
      // date's explicit confirmation.
      await page.getByRole('button', { name: /Confirmar e criar cobrança/ }).click();
      const dialog = page.getByRole('dialog', { name: 'Criar esta cobrança?' });
      const ask = dialog.getByTestId('confirm-due-date');
      await expect(ask).toContainText('A mensagem diz «dia 4» → 04/12/2026');
      await expect(ask).toContainText('10/12/2026');
      const create = dialog.getByRole('button', { name: 'Criar cobrança' });
      await expect(create).toBeDisabled();
      await page.screenshot({ path: `/tmp/due-date-confirm-${size.width}.png` });
      const check = dialog.getByLabel(/Confirmo o vencimento em/);
      await check.check();
      await expect(create).toBeEnabled();
      await check.uncheck();
      await expect(create).toBeDisabled();
      await check.check();
      await create.click();
      await expect(page.getByTestId('created-charge')).toContainText('Cobrança #');

      // The agent decided: the charge keeps the date they confirmed.
      const c = await s.db.admin.query<{ vencimento: string }>(
        `SELECT vencimento::text FROM cobrancas WHERE extracao_id = $1`,
        [s.id],
      );
      expect(c.rows).toEqual([{ vencimento: MODELO }]);
      expect(consoleErrors).toEqual([]);
    } finally {
      await s.close();
    }
  });
}

test("taking the text's date is the agent's click; then no date confirmation is asked", async ({
  page,
  consoleErrors,
}) => {
  const s = await setup();
  try {
    await openApp(page, s.bridge, `#/fila/${s.id}`);
    await expect(page.getByRole('button', { name: /^Descartar/ })).toBeEnabled();
    const form = page.getByRole('form', { name: 'Dados da cobrança' });
    await form.getByRole('button', { name: 'Usar 04/12/2026' }).click();
    await expect(form.getByLabel('Vencimento')).toHaveValue('04/12/2026');
    await expect(form.getByTestId('due-date-note')).toContainText(
      'O vencimento do formulário bate com a mensagem.',
    );
    await page.getByRole('button', { name: /Confirmar e criar cobrança/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Criar esta cobrança?' });
    await expect(dialog.getByTestId('confirm-changes')).toContainText('Vencimento');
    await expect(dialog.getByTestId('confirm-due-date')).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Criar cobrança' }).click();
    await expect(page.getByTestId('created-charge')).toContainText('Cobrança #');
    const c = await s.db.admin.query<{ vencimento: string }>(
      `SELECT vencimento::text FROM cobrancas WHERE extracao_id = $1`,
      [s.id],
    );
    expect(c.rows).toEqual([{ vencimento: '2026-12-04' }]);
    expect(consoleErrors).toEqual([]);
  } finally {
    await s.close();
  }
});
