/**
 * #13 — pt-BR everywhere: dates typed and shown as dd/mm/aaaa by the app's own date field (the
 * browser's date input says mm/dd/yyyy here), one period control on both reports, money axes and
 * tooltips in R$, months as "jan/2026", every hour labelled; Configurações picks time zones and
 * models from lists and tests the key against the Messages API (fake, over real HTTP).
 */
import { startFakeAnthropic, statusReply, textReply } from '../support/fake-anthropic';
import { test, expect, makeServiceDeps, openApp, startTestBridge } from './support/fixtures';

test('dates are dd/mm/aaaa; both reports share the period control', async ({
  page,
  bridge,
  consoleErrors,
}) => {
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('pt-BR');
  // No native date input anywhere (Debian Chromium draws them as mm/dd/yyyy).
  for (const [hash, title] of [
    ['#/relatorio', 'Relatório: falhas de validação'],
    ['#/relatorio/perguntas', 'Relatório: perguntas de vendas'],
  ] as const) {
    await page.evaluate((h) => (window.location.hash = h), hash);
    // The reports' code loads on first use (a loaded machine can take a while).
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible({
      timeout: 30_000,
    });
    const de = page.getByTestId('period-de');
    const ate = page.getByTestId('period-ate');
    await expect(ate).toHaveValue('30/11/2026');
    await expect(de).toHaveValue(/^\d{2}\/11\/2026$/);
    await expect(page.locator('input[type="date"]')).toHaveCount(0);
  }

  // Falhas de validação: typing a day, the report follows (ISO only on the wire).
  await page.evaluate(() => (window.location.hash = '#/relatorio'));
  await expect(page.getByTestId('report')).toBeVisible();
  const de = page.getByTestId('period-de');
  await de.fill('');
  await de.pressSequentially('20112026');
  await expect(de).toHaveValue('20/11/2026');
  await expect
    .poll(() =>
      bridge.calls.some(
        (c) =>
          c.channel === 'review/failureReport' &&
          (c.input as { de?: string }).de === '2026-11-20' &&
          (c.input as { ate?: string }).ate === '2026-11-30',
      ),
    )
    .toBe(true);
  // ↑ moves a day.
  await de.press('ArrowUp');
  await expect(de).toHaveValue('21/11/2026');
  // (That day's request goes out after the field settles: wait for it before counting.)
  await expect
    .poll(() =>
      bridge.calls.some(
        (c) =>
          c.channel === 'review/failureReport' && (c.input as { de?: string }).de === '2026-11-21',
      ),
    )
    .toBe(true);
  // An impossible date and a reversed period are said in place, and nothing is asked for.
  const before = bridge.calls.length;
  await de.fill('31/02/2026');
  await de.blur();
  await expect(page.getByRole('alert').filter({ hasText: 'Essa data não existe' })).toBeVisible();
  await de.fill('05/12/2026');
  await expect(
    page
      .getByRole('alert')
      .filter({ hasText: 'A data inicial deve ser anterior ou igual à final.' }),
  ).toBeVisible();
  expect(bridge.calls.slice(before).filter((c) => c.channel === 'review/failureReport')).toEqual(
    [],
  );
  // Presets still work and fill the fields.
  await page.getByRole('button', { name: 'Últimos 30 dias' }).click();
  await expect(de).toHaveValue('01/11/2026');
  // The cost axis is in US$ with a decimal comma, never "$0.10".
  const chart = page.getByRole('img', { name: /Gráfico de extrações/ });
  await expect(chart.locator('.recharts-yAxis-tick-labels').last()).toContainText('US$ 0,');
  await expect(chart).not.toContainText('$0.');
  expect(consoleErrors).toEqual([]);
});

test('sales charts: R$ axes and tooltips, months as "jan/2026", every hour labelled', async ({
  page,
}) => {
  await page.getByRole('link', { name: /^Vendas/ }).click();
  const picker = page.getByRole('combobox', { name: 'Lojista' });
  await picker.fill('a');
  await expect(page.getByRole('option').first()).toBeVisible();
  await picker.press('Enter');
  await expect(page.getByTestId('sales-merchant')).toBeVisible();

  await page.getByTestId('chip-periodo').click();
  await page.getByTestId('preset-este_ano').click();
  await page.getByTestId('chip-agrupar').selectOption('mes');
  const chart = page.getByTestId('result-chart');
  const xTicks = chart.locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value');
  await expect(xTicks.first()).toHaveText('jan/2026');
  await expect(xTicks).toContainText(['jan/2026', 'fev/2026', 'mar/2026']);
  const yTicks = await chart
    .locator('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value')
    .allTextContents();
  expect(yTicks.length).toBeGreaterThan(2);
  for (const t of yTicks) expect(t).toMatch(/^R\$\s/);
  const bar = chart.locator('.recharts-bar-rectangle').first();
  await bar.hover();
  const tip = chart.locator('.recharts-tooltip-wrapper');
  await expect(tip).toContainText(/Total bruto: R\$\s[\d.]+,\d{2}/);
  await expect(tip).not.toContainText(/\s:\s/);

  await page.getByTestId('chip-periodo').click();
  await page.getByTestId('preset-ultimos_30_dias').click();
  await page.getByTestId('chip-agrupar').selectOption('hora');
  await expect(xTicks).toHaveCount(24);
  await expect(xTicks.nth(0)).toHaveText('0h');
  await expect(xTicks.nth(2)).toHaveText('2h');
  await expect(xTicks.nth(23)).toHaveText('23h');
});

test('Configurações: zones and models from lists, "testar chave" against the Messages API', async ({
  page,
  testDb,
}) => {
  const fake = await startFakeAnthropic();
  const deps = makeServiceDeps(testDb, {
    settings: { anthropicBaseUrl: fake.url, maxRetries: 0 },
    apiKey: 'sk-ant-teste-0000000000000000000000',
  });
  const bridge = await startTestBridge({ deps });
  try {
    await openApp(page, bridge, '#/configuracoes');
    const prefs = page.getByRole('region', { name: 'Preferências' });
    const zone = prefs.getByLabel('Fuso horário');
    await expect(zone.locator('option')).toContainText([/Brasília/, /Manaus/, /Rio Branco/]);
    await zone.selectOption({ label: 'Manaus (AM leste) — UTC−4' });
    const model = prefs.getByLabel('Modelo', { exact: true });
    await model.selectOption('outro…');
    await prefs.getByLabel('Nome do modelo').fill('claude-teste-1');
    await prefs.getByRole('button', { name: 'Salvar preferências' }).click();
    await expect.poll(() => deps.settings.get().model).toBe('claude-teste-1');
    expect(deps.settings.get().timeZone).toBe('America/Manaus');
    // The status bar names the zone as people do.
    await expect(page.getByRole('contentinfo', { name: 'Estado do aplicativo' })).toContainText(
      'fuso de Manaus',
    );

    const key = page.getByRole('region', { name: 'Chave da API da Anthropic' });
    fake.enqueue(textReply('ok'));
    await key.getByRole('button', { name: 'Testar chave' }).click();
    await expect(key.getByTestId('apikey-test')).toContainText(
      'A chave funciona: o modelo claude-teste-1 respondeu',
    );
    const sent = fake.requests.at(-1)!;
    expect((sent.body as { model?: string }).model).toBe('claude-teste-1');
    expect(JSON.stringify(sent.headers)).toContain('sk-ant-teste-0000000000000000000000');
    // A refused key: said in pt-BR, without the API's English text.
    fake.enqueue(statusReply(401, { message: 'invalid x-api-key' }));
    await key.getByRole('button', { name: 'Testar chave' }).click();
    await expect(key.getByTestId('apikey-test')).toContainText('recusou a chave');
    await expect(key.getByTestId('apikey-test')).not.toContainText('invalid x-api-key');
  } finally {
    await bridge.close();
    await fake.close();
  }
});
