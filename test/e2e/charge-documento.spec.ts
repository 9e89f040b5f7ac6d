/**
 * #36.4 — the payer's document in the review form: a boleto without it is missing ("Faltando")
 * and cannot be confirmed; a CPF/CNPJ with wrong check digits is refused at the field in pt-BR
 * with the engine's validator; an alphanumeric CNPJ is accepted, shown formatted, and the charge
 * is created with it (stored canonical) — at 1366×768 and 1920×1080.
 */
import { dados, ensureMerchants, insertExtraction } from '../support/queue-fixtures';
import {
  expect,
  freshTestDatabase,
  makeServiceDeps,
  openApp,
  startTestBridge,
  test,
} from './support/fixtures';

for (const size of [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
]) {
  test(`a boleto asks for the payer's CPF/CNPJ, checks its digits and creates the charge with it, at ${size.width}×${size.height}`, async ({
    page,
    consoleErrors,
  }) => {
    const db = await freshTestDatabase();
    await ensureMerchants(db.admin, { 1: 'Padaria Sol Nascente' });
    const id = await insertExtraction(db.admin, {
      merchantId: 1,
      status: 'incompleto',
      texto: 'boleto de R$ 300 pra Construtora Alfa, vence dia 10',
      dados: dados({
        valor_centavos: 30000,
        parcelas: 1,
        metodo: 'boleto',
        cliente_nome: 'Construtora Alfa',
        vencimento: '2026-12-10',
        faltando: ['cliente_documento'],
      }),
    });
    const bridge = await startTestBridge({ deps: makeServiceDeps(db) });
    try {
      await page.setViewportSize(size);
      await openApp(page, bridge, `#/fila/${id}`);
      await expect(page.getByRole('button', { name: /^Descartar/ })).toBeEnabled();
      const form = page.getByRole('form', { name: 'Dados da cobrança' });
      const doc = form.getByLabel('CPF/CNPJ do pagador (obrigatório no boleto)');
      const field = form.locator('.field').filter({
        has: page.getByLabel('CPF/CNPJ do pagador (obrigatório no boleto)'),
      });
      const confirm = page.getByRole('button', { name: /Confirmar e criar cobrança/ });

      // Missing on a boleto: marked at the field, and no charge can be created.
      await expect(doc).toHaveValue('');
      await expect(field).toContainText('Faltando: pergunte ao lojista ou preencha.');
      await expect(confirm).toBeDisabled();
      await expect(
        page.getByText('Preencha CPF/CNPJ do pagador para criar a cobrança.'),
      ).toBeVisible();
      await expect(page.getByText('Motivo: Faltando: CPF/CNPJ do pagador')).toBeVisible();

      // Wrong check digits: the engine's rule at the field, in words for people.
      await doc.fill('12.ABC.345/01DE-36');
      await expect(field.getByRole('alert')).toContainText('CPF ou CNPJ inválido');
      await expect(doc).toHaveAttribute('aria-invalid', 'true');
      await expect(confirm).toBeDisabled();

      // The alphanumeric CNPJ with the right digits: read back formatted; confirm is offered.
      await doc.fill('12abc34501de35');
      await expect(field.getByRole('alert')).toHaveCount(0);
      await expect(field).toContainText('CNPJ 12.ABC.345/01DE-35');
      await expect(confirm).toBeEnabled();
      const box = await doc.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(size.width);
      await page.screenshot({ path: `/tmp/charge-documento-${size.width}.png` });

      await confirm.click();
      const dialog = page.getByRole('dialog', { name: 'Criar esta cobrança?' });
      await expect(dialog.getByTestId('confirm-changes')).toContainText('CPF/CNPJ do pagador');
      await dialog.getByRole('button', { name: 'Criar cobrança' }).click();
      await expect(page.getByTestId('created-charge')).toContainText('Cobrança #');
      const c = await db.admin.query<{ cliente_documento: string; metodo: string }>(
        'SELECT cliente_documento, metodo FROM cobrancas WHERE extracao_id = $1',
        [id],
      );
      expect(c.rows).toEqual([{ cliente_documento: '12ABC34501DE35', metodo: 'boleto' }]);
      expect(consoleErrors).toEqual([]);
    } finally {
      await bridge.close();
      await db.drop();
    }
  });
}
