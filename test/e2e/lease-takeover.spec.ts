import { seedDemo } from '../../src-main/db/seed';
import { startQueueListener } from '../../src-main/intake/live';
import { queueFor } from '../support/queue-fixtures';
import {
  E2E_NOW,
  E2E_TIME_ZONE,
  expect,
  freshTestDatabase,
  makeServiceDeps,
  openApp,
  startTestBridge,
  test,
} from './support/fixtures';

/**
 * #42.3: a lease lost is a form no longer editable. Ana holds an item and types; Sílvia (a
 * supervisor, in her own copy of the app on the same database) takes it over. Ana's screen hears
 * it through the live queue (LISTEN/NOTIFY → review/changed with `reservas`) and becomes
 * read-only at once — well before the next scheduled renewal (a third of the 90 s lease, more
 * than the 10 s these expectations wait) — with what she typed kept as her draft.
 */
test('a supervisor takes an item over: the first agent’s form becomes read-only at once, her draft kept', async ({
  page,
  browser,
  consoleErrors,
}) => {
  const db = await freshTestDatabase();
  await seedDemo(db.admin, {
    now: E2E_NOW,
    timeZone: E2E_TIME_ZONE,
    merchants: 2,
    transactions: 200,
  });
  const ana = await startTestBridge({
    deps: makeServiceDeps(db, { settings: { operator: 'Ana' } }),
  });
  const silvia = await startTestBridge({
    deps: makeServiceDeps(db, { settings: { operator: 'Sílvia' } }),
  });
  // What main does in startServices for Ana's app: one LISTEN connection, pushed to her window.
  const live = startQueueListener({
    connectionString: db.appUrl,
    onChange: (c) => ana.broadcast('review/changed', c),
    coalesceMs: 50,
  });
  const silviaContext = await browser.newContext({
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
    viewport: { width: 1360, height: 860 },
  });
  try {
    await expect.poll(() => live.connected()).toBe(true);
    const id = (
      await db.admin.query<{ id: number }>(
        `SELECT id FROM extracoes WHERE fila_estado = 'aberta' AND lease_token IS NULL
            AND situacao <> 'aguardando_lojista' ORDER BY id LIMIT 1`,
      )
    ).rows[0]!.id;

    // Ana opens the item, holds it, and types without saving.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: ana.origin,
    });
    await openApp(page, ana, `#/fila/${id}`);
    const form = page.getByRole('form', { name: 'Dados da cobrança' });
    await expect(page.getByRole('button', { name: /^Descartar/ })).toBeEnabled();
    await form.getByLabel('Cliente').fill('Fulana Rascunho da Silva');
    await form.getByLabel('Valor (R$)').fill('321,09');
    await form.getByLabel('Descrição (opcional)').fill('anotação que ela não salvou');

    // Sílvia opens it: Ana has it; she takes it over.
    const silviaPage = await silviaContext.newPage();
    await openApp(silviaPage, silvia, `#/fila/${id}`);
    const banner = silviaPage.getByTestId('lease-banner');
    await expect(banner).toContainText('Em análise por Ana');
    await banner.getByRole('button', { name: 'Assumir de Ana (supervisor)' }).click();
    await expect(silviaPage.getByRole('button', { name: /^Descartar/ })).toBeEnabled();

    // Ana's screen: the banner says who has it, every field and action is off.
    await expect(page.getByTestId('lease-banner')).toContainText(
      'Este item está em análise por Sílvia',
    );
    for (const label of ['Valor (R$)', 'Parcelas', 'Forma de pagamento', 'Cliente']) {
      await expect(form.getByLabel(label, { exact: true })).toBeDisabled();
    }
    for (const name of [
      /^Confirmar e criar cobrança/,
      /^Perguntar ao lojista/,
      /^Salvar rascunho/,
      /^Reprocessar/,
      /^Descartar/,
    ]) {
      await expect(page.getByRole('button', { name })).toBeDisabled();
    }
    // The form shows the item as it is; what she typed is her draft, to read and copy.
    await expect(form.getByLabel('Cliente')).not.toHaveValue('Fulana Rascunho da Silva');
    const draft = page.getByTestId('draft-box');
    await expect(draft.getByRole('heading', { name: 'Seu rascunho' })).toBeVisible();
    await expect(draft).toContainText('Cliente: Fulana Rascunho da Silva');
    await expect(draft).toContainText('Valor (R$): 321,09');
    await expect(draft).toContainText('Descrição: anotação que ela não salvou');
    await draft.getByRole('button', { name: 'Copiar rascunho' }).click();
    await expect(page.getByText('Rascunho copiado.')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(
      'Cliente: Fulana Rascunho da Silva',
    );
    // Nothing she typed reached the database.
    const row = await db.admin.query<{ dados_revisados: unknown; lease_operador: string }>(
      'SELECT dados_revisados, lease_operador FROM extracoes WHERE id = $1',
      [id],
    );
    expect(row.rows[0]).toEqual({ dados_revisados: null, lease_operador: 'Sílvia' });
    expect(consoleErrors).toEqual([]);
  } finally {
    await silviaContext.close();
    await live.close();
    await ana.close();
    await silvia.close();
    await db.drop();
  }
});

test('without the live event, the next refused action is enough: read-only at once, her draft kept', async ({
  page,
  consoleErrors,
}) => {
  const db = await freshTestDatabase();
  await seedDemo(db.admin, {
    now: E2E_NOW,
    timeZone: E2E_TIME_ZONE,
    merchants: 2,
    transactions: 200,
  });
  // No LISTEN connection here (a pooler, a dropped session): only the answers of her calls.
  const ana = await startTestBridge({
    deps: makeServiceDeps(db, { settings: { operator: 'Ana' } }),
  });
  try {
    const id = (
      await db.admin.query<{ id: number }>(
        `SELECT id FROM extracoes WHERE fila_estado = 'aberta' AND lease_token IS NULL
            AND situacao <> 'aguardando_lojista' ORDER BY id DESC LIMIT 1`,
      )
    ).rows[0]!.id;
    await openApp(page, ana, `#/fila/${id}`);
    const form = page.getByRole('form', { name: 'Dados da cobrança' });
    await expect(page.getByRole('button', { name: /^Descartar/ })).toBeEnabled();
    await form.getByLabel('Cliente').fill('Beltrana Sem Aviso');

    // Sílvia takes it over from her own app (the same channel the banner's button calls).
    const silvia = queueFor(db.app, { operator: 'Sílvia' });
    await silvia.takeOver(id);

    // Ana saves: refused, and her screen knows at once that the item is no longer hers.
    await page.getByRole('button', { name: /^Salvar rascunho/ }).click();
    await expect(page.getByTestId('lease-banner')).toContainText(
      'Este item está em análise por Sílvia',
    );
    await expect(form.getByLabel('Cliente')).toBeDisabled();
    await expect(page.getByRole('button', { name: /^Salvar rascunho/ })).toBeDisabled();
    await expect(page.getByTestId('draft-box')).toContainText('Cliente: Beltrana Sem Aviso');
    const row = await db.admin.query<{ dados_revisados: unknown }>(
      'SELECT dados_revisados FROM extracoes WHERE id = $1',
      [id],
    );
    expect(row.rows[0]).toEqual({ dados_revisados: null });
    expect(consoleErrors).toEqual([]);
  } finally {
    await ana.close();
    await db.drop();
  }
});
