/**
 * #13 — Vendas people can trust: the merchant picker chooses only what was typed (fast typing +
 * Enter), the merchant is on every answer, each question starts clean and is shown above its
 * answer, and a database that is down says so instead of "Escolha um lojista".
 */
import type { Page } from '@playwright/test';
import { createPool } from '../../src-main/db/pool';
import { statusReply, toolUseReply } from '../support/fake-anthropic';
import {
  test,
  expect,
  fakeApiFixtures,
  makeServiceDeps,
  openApp,
  startTestBridge,
  type FakeApiFixtures,
} from './support/fixtures';

async function openSales(page: Page) {
  await page.getByRole('link', { name: /^Vendas/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Vendas' })).toBeVisible();
  return page.getByRole('combobox', { name: 'Lojista' });
}

test('fast typing + Enter chooses the merchant typed, never a stale suggestion', async ({
  page,
  testDb,
  consoleErrors,
}) => {
  await testDb.admin.query(
    `INSERT INTO merchants (id, nome) VALUES
       (9301, 'Açaí Estrela do Norte'), (9302, 'Padaria Pão Quente'),
       (9303, 'Ótica Visão Clara'), (9304, 'Farmácia Boa Vista')
     ON CONFLICT (id) DO NOTHING`,
  );
  const picker = await openSales(page);
  // The first merchant of the unfiltered list: what the old picker took on a fast Enter.
  const first = (
    await testDb.admin.query<{ nome: string }>(
      'SELECT nome FROM merchants ORDER BY nome, id LIMIT 1',
    )
  ).rows[0]!.nome;
  for (const word of ['padaria', 'ótica', 'farm']) {
    const want = (
      await testDb.admin.query<{ id: number; nome: string }>(
        `SELECT id, nome FROM merchants WHERE nome ILIKE '%' || $1 || '%' ORDER BY nome, id LIMIT 1`,
        [word],
      )
    ).rows[0];
    expect(want, `demo data has a merchant matching "${word}"`).toBeDefined();
    expect(want!.nome).not.toBe(first);
    await picker.click();
    // As a person types at speed: no pause between the keys and Enter.
    await picker.pressSequentially(word);
    await picker.press('Enter');
    await expect(page.getByTestId('sales-merchant')).toContainText(`${want!.nome} #${want!.id}`);
    // Every answer says whose sales it is.
    await expect(page.getByTestId('answer-merchant')).toContainText(`${want!.nome} #${want!.id}`);
  }
  // A text that matches nobody chooses nobody.
  await picker.click();
  await picker.pressSequentially('zzzz nenhum');
  await picker.press('Enter');
  await expect(page.getByRole('listbox')).toContainText('Nenhum lojista encontrado');
  await expect(page.getByTestId('sales-merchant')).toContainText('farm', { ignoreCase: true });
  expect(consoleErrors).toEqual([]);
});

test('database down: Vendas says so instead of "Escolha um lojista"', async ({
  page,
  testDb,
}, info) => {
  const dead = createPool('postgres://balcao_app@127.0.0.1:1/balcao', { max: 1 });
  const deps = makeServiceDeps(testDb);
  const bridge = await startTestBridge({
    deps: { ...deps, dbs: { ...deps.dbs, app: dead, analytics: dead } },
  });
  try {
    await openApp(page, bridge, '#/vendas');
    await expect(page.getByRole('heading', { level: 1, name: 'Vendas' })).toBeVisible();
    const err = page.getByTestId('sales-error');
    await expect(err).toContainText('Banco de dados indisponível');
    await expect(err.getByRole('button', { name: 'Tentar de novo' })).toBeVisible();
    await expect(page.getByText('Escolha um lojista', { exact: true })).toHaveCount(0);
    await page.screenshot({ path: info.outputPath('vendas-banco-fora.png') });
  } finally {
    await bridge.close();
    await dead.end();
  }
});

const withKey = test.extend<object, FakeApiFixtures>(fakeApiFixtures);

withKey('each question starts clean and is shown above its answer', async ({ page, fakeApi }) => {
  fakeApi.reset();
  const picker = await openSales(page);
  await picker.fill('padaria');
  await expect(page.getByRole('option').first()).toContainText(/padaria/i);
  await picker.press('Enter');
  const ask = page.getByTestId('ask-input');

  fakeApi.enqueue(
    toolUseReply('consultar_vendas', { pergunta_esclarecimento: 'Bruto ou líquido?' }),
  );
  await ask.fill('quanto deu?');
  await ask.press('Enter');
  await expect(page.getByTestId('clarification')).toContainText('Bruto ou líquido?');
  await expect(page.getByTestId('asked-question')).toHaveText('Pergunta: “quanto deu?”');
  // No chips of an unrelated earlier query under a clarification.
  await expect(page.getByTestId('chip-periodo')).toHaveCount(0);

  // An error after a clarification: the clarification is gone, the new question is shown.
  fakeApi.enqueue(statusReply(529, { message: 'Overloaded' }));
  await ask.fill('quanto vendi no pix?');
  await ask.press('Enter');
  await expect(page.getByTestId('sales-error')).toContainText('O modelo não está disponível');
  await expect(page.getByTestId('clarification')).toHaveCount(0);
  await expect(page.getByTestId('asked-question')).toHaveText('Pergunta: “quanto vendi no pix?”');

  // An answer: the question stays above it (the box is cleared for the next one).
  fakeApi.enqueue(
    toolUseReply('consultar_vendas', { metrica: 'total_bruto', periodo: 'semana_passada' }),
  );
  await ask.fill('quanto vendi semana passada?');
  await ask.press('Enter');
  await expect(page.getByTestId('answer-number')).toBeVisible();
  await expect(page.getByTestId('sales-error')).toHaveCount(0);
  await expect(page.getByTestId('asked-question')).toHaveText(
    'Pergunta: “quanto vendi semana passada?”',
  );
  await expect(ask).toHaveValue('');
  await expect(page.getByTestId('answer-merchant')).toContainText(/padaria/i);
});
