/**
 * #38.1 — a card number is never stored: the item's message keeps [CARTAO_1] and the screen says
 * that a card number was removed; an item without one says nothing of the kind.
 */
import { CARD_REMOVED_NOTICE } from '@shared/pii';
import { test, expect } from './support/fixtures';

test('an item whose message had a card number removed says so', async ({ page, testDb }) => {
  const m = (
    await testDb.admin.query<{ id: number }>('SELECT id FROM merchants ORDER BY id LIMIT 1')
  ).rows[0]!.id;
  const mk = async (texto: string) =>
    (
      await testDb.admin.query<{ id: number }>(
        `INSERT INTO extracoes (merchant_id, texto, status, erros, tentativas)
         VALUES ($1, $2, 'falhou', '[]', 1) RETURNING id`,
        [m, texto],
      )
    ).rows[0]!.id;
  const withCard = await mk('cobra 150 reais da Lúcia no cartão [CARTAO_1] em 3x');
  const without = await mk('cobra 150 reais da Lúcia no cartão em 3x');

  await page.evaluate((id) => (window.location.hash = `#/fila/${id}`), withCard);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(`Pedido #${withCard}`);
  await expect(page.getByTestId('original-text')).toHaveText(
    'cobra 150 reais da Lúcia no cartão [CARTAO_1] em 3x',
  );
  await expect(page.getByTestId('card-removed')).toHaveText(CARD_REMOVED_NOTICE);

  await page.evaluate((id) => (window.location.hash = `#/fila/${id}`), without);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(`Pedido #${without}`);
  await expect(page.getByTestId('original-text')).toHaveText(
    'cobra 150 reais da Lúcia no cartão em 3x',
  );
  await expect(page.getByTestId('card-removed')).toHaveCount(0);
});
