/**
 * #13 — texts for agents and no dead end inside an item: rule codes, model hints, tokens and
 * cost stay out of the agent's way (tokens and cost behind a disclosure), and "Próximo pedido"
 * (J) moves on from any item.
 */
import { ruleLabel } from '@shared/rule-text';
import { DEADLINE_ORDER_SQL } from '../support/queue-fixtures';
import { expect, openSecondDesktop, test } from './support/fixtures';

test('agent texts, tokens and cost behind a disclosure, "Próximo pedido" with J', async ({
  page,
  testDb,
  consoleErrors,
}) => {
  // Earlier tests of this worker closed their desktops; a give-back of theirs may still be on
  // its way and would change which item is next while this test looks: leases are cleared first.
  await testDb.admin.query(
    `UPDATE extracoes SET lease_token = NULL, lease_operador = NULL, lease_expira_em = NULL
      WHERE lease_token IS NOT NULL`,
  );
  // An open item whose model attempts broke a rule, and the item the queue would open next.
  const items = (
    await testDb.admin.query<{ id: number; regra: string }>(
      `SELECT e.id, t.erros->0->>'regra' AS regra
         FROM extracoes e JOIN extracao_tentativas t ON t.extracao_id = e.id AND t.numero = 1
        WHERE e.fila_estado = 'aberta' AND jsonb_array_length(t.erros) > 0
          AND (e.lease_token IS NULL OR e.lease_expira_em <= now()) AND e.atribuida_a IS NULL
        ORDER BY e.criada_em DESC, e.id DESC LIMIT 1`,
    )
  ).rows;
  const item = items[0];
  expect(item, 'demo data has an open item with a failed rule').toBeDefined();
  await page.evaluate((id) => (window.location.hash = `#/fila/${id}`), item!.id);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(`Pedido #${item!.id}`);
  const attempt = page.getByTestId('attempt-1');
  await expect(attempt).toContainText(ruleLabel(item!.regra));
  await expect(attempt).not.toContainText(item!.regra);
  // Tokens and cost: not in the header, not on the attempts; one click away.
  await expect(page.locator('main')).not.toContainText(/\d tokens|US\$/, { useInnerText: true });
  const usage = page.getByTestId('usage-details');
  await usage.getByText('Detalhes técnicos (tokens e custo)').click();
  await expect(usage).toContainText(/US\$ \d/);

  // The amount rule, as the agent reads it at the field: no hint meant for the model.
  const valor = page.getByRole('form', { name: 'Dados da cobrança' }).getByLabel('Valor (R$)');
  await valor.fill('0,50');
  const alert = page.getByRole('alert').filter({ hasText: 'O valor deve ficar entre' });
  await expect(alert).toHaveText(
    'O valor deve ficar entre R$\u00a01,00 e R$\u00a0100.000,00; recebido R$\u00a00,50.',
  );

  // J: the next item as the server orders the queue (#39.2) — this agent's assigned items
  // first, then the nearest deadline; never one held by someone, assigned to someone else or
  // waiting for the merchant. Earlier tests of this worker may have claimed, assigned or resolved
  // items: the expectation is read from the database as it is now.
  await expect(page.getByRole('button', { name: /Descartar/ })).toBeEnabled();
  const me = (
    await testDb.admin.query<{ lease_operador: string }>(
      'SELECT lease_operador FROM extracoes WHERE id = $1',
      [item!.id],
    )
  ).rows[0]!.lease_operador;
  const next = (
    await testDb.admin.query<{ id: number }>(
      `SELECT e.id FROM extracoes e
        WHERE e.fila_estado = 'aberta' AND e.id <> $1
          AND (e.lease_token IS NULL OR e.lease_expira_em <= now())
          AND e.situacao <> 'aguardando_lojista'
          AND (e.atribuida_a IS NULL OR e.atribuida_a = $2)
        ORDER BY e.atribuida_a IS NOT NULL DESC, ${DEADLINE_ORDER_SQL}
        LIMIT 1`,
      [item!.id, me],
    )
  ).rows[0]!;
  await page.getByRole('heading', { level: 1 }).click();
  await page.keyboard.press('j');
  await expect(page).toHaveURL(new RegExp(`#/fila/${next.id}$`));
  await expect(page.getByRole('heading', { level: 1 })).toContainText(`Pedido #${next.id}`);
  await expect(page.getByTestId('next-item')).toBeVisible();
  expect(consoleErrors).toEqual([]);
});

test('two agents press J at the same moment: each lands on a different item, already theirs (#39.1)', async ({
  page,
  testDb,
  browser,
}) => {
  const open = (
    await testDb.admin.query<{ id: number }>(
      `SELECT id FROM extracoes WHERE fila_estado = 'aberta' AND situacao <> 'aguardando_lojista'
          AND (lease_expira_em IS NULL OR lease_expira_em <= now()) ORDER BY id LIMIT 1`,
    )
  ).rows[0]!;
  // Bia works in her own copy of the app against the same database.
  await page.evaluate((id) => (window.location.hash = `#/fila/${id}`), open.id);
  await expect(page.getByRole('button', { name: /Descartar/ })).toBeEnabled();
  const bia = await openSecondDesktop(browser, testDb, 'Bia', `#/fila/${open.id}`);
  const biaPage = bia.page;
  try {
    // Both look at the same item (this page holds it; Bia sees it held), then both press J at once.
    const eu = (
      await testDb.admin.query<{ lease_operador: string }>(
        'SELECT lease_operador FROM extracoes WHERE id = $1',
        [open.id],
      )
    ).rows[0]!.lease_operador;
    await expect(biaPage.getByTestId('lease-banner')).toContainText(`Em análise por ${eu}`);
    for (const p of [page, biaPage]) await p.getByRole('heading', { level: 1 }).click();
    await Promise.all([page.keyboard.press('j'), biaPage.keyboard.press('j')]);
    const idOf = async (p: typeof page) => {
      await expect(p).toHaveURL(/#\/fila\/\d+$/);
      await expect(p).not.toHaveURL(new RegExp(`#/fila/${open.id}$`));
      return Number(/(\d+)$/.exec(p.url())![1]);
    };
    const [ana, biaId] = [await idOf(page), await idOf(biaPage)];
    expect(ana).not.toBe(biaId);
    // Each one's item is theirs: no "em análise por", the actions enabled.
    for (const p of [page, biaPage]) {
      await expect(p.getByRole('button', { name: /Descartar/ })).toBeEnabled();
      await expect(p.getByTestId('lease-banner')).toBeHidden();
    }
    const held = await testDb.admin.query<{ id: number; lease_operador: string }>(
      'SELECT id, lease_operador FROM extracoes WHERE id = ANY($1::bigint[]) ORDER BY id',
      [[ana, biaId]],
    );
    expect(Object.fromEntries(held.rows.map((r) => [r.id, r.lease_operador]))).toEqual({
      [ana]: eu,
      [biaId]: 'Bia',
    });
  } finally {
    await bia.close();
  }
});
