/**
 * #42.9 — the command palette (Ctrl+K): navigation, the queue's views and the screen's actions,
 * searchable without accents, run with Enter; only what the current screens offer.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';

const palette = (page: Page) => page.getByRole('dialog', { name: 'Paleta de comandos' });

test('Ctrl+K: find a command by a word, run it with Enter; Esc closes', async ({
  page,
  consoleErrors,
}) => {
  await expect(page.getByRole('heading', { level: 1, name: 'Fila de revisão' })).toBeVisible();
  await page.keyboard.press('Control+k');
  const p = palette(page);
  await expect(p).toBeVisible();
  const box = p.getByRole('combobox', { name: 'Buscar um comando' });
  await expect(box).toBeFocused();
  const options = p.getByRole('option');
  // Navigation, the queue's views and its keys are all there.
  await expect(options.filter({ hasText: 'Ir para Vendas' })).toHaveCount(1);
  await expect(options.filter({ hasText: 'Fila: ver os descartados' })).toHaveCount(1);
  await expect(options.filter({ hasText: 'Recarregar a fila' })).toHaveCount(1);

  // A word picks the navigation first; Enter runs it.
  await box.fill('vendas');
  await expect(options.first()).toContainText('Ir para Vendas');
  await expect(options.first()).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(p).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1, name: 'Vendas' })).toBeVisible();

  // No accents needed; arrows move; a view of the queue from anywhere it is shown.
  await page.keyboard.press('Control+k');
  await box.fill('relatorio falhas');
  await expect(options).toHaveCount(1);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Relatório: falhas de validação',
  );
  await page.keyboard.press('Alt+1');
  await expect(page.getByRole('heading', { level: 1, name: 'Fila de revisão' })).toBeVisible();
  await page.keyboard.press('Control+k');
  await box.fill('descartados');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('tab', { name: 'Descartados' })).toHaveAttribute(
    'aria-selected',
    'true',
  );

  // Nothing found says so; Esc closes and gives the page back.
  await page.keyboard.press('Control+k');
  await box.fill('xyzzy');
  await expect(options).toHaveCount(0);
  await expect(p.getByRole('status')).toHaveText('Nenhum comando com “xyzzy”.');
  await page.keyboard.press('Escape');
  await expect(p).toHaveCount(0);
  expect(consoleErrors).toEqual([]);
});
