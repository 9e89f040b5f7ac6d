import { dados, insertExtraction } from '../support/queue-fixtures';
import { expect, test } from './support/fixtures';

/**
 * One round trip per action (#14 part 4): "Confirmar" costs one IPC call for the item — the
 * confirm returns the updated item and the lease state, so the screen neither asks for the
 * item again nor releases a lease the confirm already ended. Counted at the test bridge, which
 * sees every `window.balcao.invoke` of the page.
 */
test('"Confirmar" is one call for the item: no review/get after it, no review/release on leaving', async ({
  page,
  testDb,
  bridge,
}) => {
  const merchant = (await testDb.admin.query<{ id: number }>('SELECT min(id) AS id FROM merchants'))
    .rows[0]!;
  const id = await insertExtraction(testDb.admin, {
    merchantId: merchant.id,
    texto: 'cobra 150 reais da Joana Prado em 3x no cartão, vence dia 10',
    status: 'completo',
    dados: dados({ cliente_nome: 'Joana Prado', vencimento: '2026-12-10' }),
  });
  await page.evaluate((i) => (window.location.hash = `#/fila/${i}`), id);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(`Pedido #${id}`);
  const confirm = page.getByRole('button', { name: /Confirmar e criar cobrança/ });
  await expect(confirm).toBeEnabled();
  // Opening is claim + the item fetched again once the claim settles; under load that second
  // fetch can still be on its way when the button is already enabled. Count from after it.
  await expect
    .poll(() => {
      const mine = bridge.calls
        .filter((c) => (c.input as { id?: unknown } | undefined)?.id === id)
        .map((c) => c.channel);
      return mine.lastIndexOf('review/get') > mine.indexOf('review/claim');
    })
    .toBe(true);

  const from = bridge.calls.length;
  await confirm.click();
  await page
    .getByRole('dialog', { name: 'Criar esta cobrança?' })
    .getByRole('button', { name: 'Criar cobrança' })
    .click();
  await expect(page.getByTestId('created-charge')).toContainText('Cobrança #');
  // Back to the queue: the item view unmounts (where a held lease would be released).
  await page.keyboard.press('Escape');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Fila de revisão');
  // Let anything fired on unmount or by the lease state reach the bridge.
  await page.waitForTimeout(1_000);

  const forItem = bridge.calls
    .slice(from)
    .filter((c) => (c.input as { id?: unknown } | undefined)?.id === id)
    // The periodic lease renewal is a timer, not part of the action.
    .map((c) => c.channel)
    .filter((ch) => ch !== 'review/renew');
  console.log(`IPC calls for the item per "Confirmar": ${forItem.length} (${forItem.join(', ')})`);
  expect(forItem).toEqual(['review/confirm']);
});
