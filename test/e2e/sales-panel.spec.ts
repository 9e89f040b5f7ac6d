/**
 * The sales panel in Chromium through the test bridge, against real PostgreSQL. Besides the demo
 * data, merchant 901 has a handful of known sales (and merchant 902, whose values must never show
 * up); every expected number below is summed by hand from that list. "Today" is E2E_NOW:
 * Monday 30/11/2026, so "semana passada" is 23–29/11 and "últimos 7 dias" 24–30/11.
 */
import { readFile } from 'node:fs/promises';
import type { Page, TestInfo } from '@playwright/test';
import { statusReply, toolUseReply } from '../support/fake-anthropic';
import { createPool } from '../../src-main/db/pool';
import { withTenantReadOnly } from '../../src-main/db/tenant';
import type { ServiceDeps } from '../../src-main/deps';
import type { SalesExecutor } from '../../src-main/sales/execute';
import { TOOL_CONSULTAR_VENDAS } from '@shared/sales-dsl';
import { TOOL_ESCREVER_SQL } from '../../src-main/sales/free-sql/fallback';
import {
  test as base,
  expect,
  fakeApiFixtures,
  makeServiceDeps,
  openApp,
  startTestBridge,
  type FakeApiFixtures,
} from './support/fixtures';

const LOJA = { id: 901, nome: 'Empório Painel de Teste' };
const VIZINHA = { id: 902, nome: 'Loja Vizinha do Painel' };

/** [merchant, local time (-03:00), modalidade, bandeira, bruto centavos, status] */
const KNOWN: [number, string, string, string | null, number, string][] = [
  [901, '2026-11-16T10:00:00-03:00', 'debito', 'visa', 50_000, 'aprovada'],
  [901, '2026-11-23T10:00:00-03:00', 'pix', null, 10_000, 'aprovada'],
  [901, '2026-11-24T14:00:00-03:00', 'debito', 'visa', 25_050, 'aprovada'],
  [901, '2026-11-24T23:30:00-03:00', 'credito_parcelado', 'mastercard', 120_000, 'aprovada'],
  [901, '2026-11-27T09:00:00-03:00', 'credito_avista', 'elo', 8_000, 'aprovada'],
  [901, '2026-11-29T18:00:00-03:00', 'pix', null, 4_525, 'aprovada'],
  [901, '2026-11-29T19:00:00-03:00', 'pix', null, 99_999, 'negada'],
  [901, '2026-11-30T11:00:00-03:00', 'pix', null, 3_000, 'aprovada'],
  [902, '2026-11-24T12:00:00-03:00', 'pix', null, 7_777_700, 'aprovada'],
  [902, '2026-11-29T12:00:00-03:00', 'debito', 'visa', 3_333_300, 'aprovada'],
];

const test = base.extend<{ known: void }, { knownSales: void }>({
  knownSales: [
    async ({ testDb }, use) => {
      await testDb.admin.query(`INSERT INTO merchants (id, nome) VALUES ($1, $2), ($3, $4)`, [
        LOJA.id,
        LOJA.nome,
        VIZINHA.id,
        VIZINHA.nome,
      ]);
      for (const [m, at, mod, band, bruto, status] of KNOWN) {
        await testDb.admin.query(
          `INSERT INTO transacoes (merchant_id, status, modalidade, bandeira, parcelas,
             valor_bruto_centavos, valor_liquido_centavos, aprovada_em)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [m, status, mod, band, mod === 'credito_parcelado' ? 3 : 1, bruto, bruto - 100, at],
        );
      }
      await use();
    },
    { scope: 'worker' },
  ],
  known: [async ({ knownSales: _k }, use) => use(), { auto: true }],
});

async function shot(page: Page, info: TestInfo, name: string) {
  await page.screenshot({ path: info.outputPath(`${name}.png`), fullPage: true });
}

async function openSalesFor(page: Page) {
  await page.getByRole('link', { name: /^Vendas/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Vendas' })).toBeVisible();
  const picker = page.getByRole('combobox', { name: 'Lojista' });
  await picker.fill('Painel de');
  await expect(page.getByRole('option', { name: new RegExp(LOJA.nome) })).toBeVisible();
  await picker.press('Enter');
  await expect(page.getByTestId('sales-merchant')).toContainText(LOJA.nome);
}

/** The sum of merchant 901's approved sales over local days [from, to]. */
function expected(from: string, to: string, mods?: string[]): number {
  return KNOWN.filter(
    ([m, at, mod, , , st]) =>
      m === LOJA.id &&
      st === 'aprovada' &&
      at.slice(0, 10) >= from &&
      at.slice(0, 10) <= to &&
      (!mods || mods.includes(mod)),
  ).reduce((s, r) => s + r[4], 0);
}

const brl = (c: number) =>
  new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(c / 100);

test.describe('sales panel without an API key (query builder)', () => {
  test('chips build the query; grouped answer has chart, sortable table, totals and CSV', async ({
    page,
    consoleErrors,
  }, info) => {
    await openSalesFor(page);

    // The ask box says how to configure a key; the builder answers the default right away.
    await expect(page.getByTestId('ask-input')).toBeDisabled();
    await expect(
      page.getByText(/configure a chave da API da Anthropic em Configurações/),
    ).toBeVisible();
    const number = page.getByTestId('answer-number');
    await expect(number).toHaveText(brl(expected('2026-11-24', '2026-11-30')));
    await expect(page.getByTestId('interpretation')).toContainText(
      'Considerei vendas aprovadas de 24/11/2026 a 30/11/2026',
    );
    await shot(page, info, '1-builder-default');

    // Period preset.
    await page.getByTestId('chip-periodo').click();
    await page.getByTestId('preset-semana_passada').click();
    await expect(number).toHaveText(brl(expected('2026-11-23', '2026-11-29')));
    await expect(number).toHaveText('R$ 1.675,75');
    await expect(page.getByTestId('interpretation')).toContainText('de 23/11/2026 a 29/11/2026');

    // Modalities filter: credit only.
    await page.getByTestId('chip-modalidades').click();
    await page.getByTestId('mod-debito').uncheck();
    await expect(number).toHaveText(
      brl(expected('2026-11-23', '2026-11-29', ['credito_avista', 'credito_parcelado', 'pix'])),
    );
    await page.getByTestId('mod-pix').uncheck();
    await expect(number).toHaveText(
      brl(expected('2026-11-23', '2026-11-29', ['credito_avista', 'credito_parcelado'])),
    );
    await expect(page.getByTestId('interpretation')).toContainText(
      'modalidades: crédito à vista, crédito parcelado',
    );
    await page.getByTestId('mod-debito').check();
    await page.getByTestId('mod-pix').check();
    await page.keyboard.press('Escape');
    await expect(number).toHaveText('R$ 1.675,75');

    // Group by day: bar chart, 7 zero-filled rows, best day highlighted, totals row.
    await page.getByTestId('chip-agrupar').selectOption('dia');
    const table = page.getByTestId('result-table');
    await expect(table.locator('tbody tr')).toHaveCount(7);
    await expect(page.getByTestId('result-chart')).toHaveAttribute('data-chart-kind', 'barras');
    // One bar per day with sales (zero days have no bar), the axis has every day.
    await expect(page.getByTestId('result-chart').locator('.recharts-bar-rectangle')).toHaveCount(
      4,
    );
    await expect(page.getByTestId('best-row')).toContainText('24/11/2026');
    await expect(page.getByTestId('best-row')).toContainText('R$ 1.450,50');
    await expect(page.getByTestId('totals-row')).toContainText('R$ 1.675,75');
    await expect(page.getByTestId('answer-text')).toContainText('Melhor dia: 24/11/2026');
    await expect(table.locator('tbody tr').first()).toContainText('23/11/2026');
    // Sort by value: click the header (descending first), then again (ascending).
    await table.getByRole('button', { name: /Total bruto/ }).click();
    await expect(table.locator('tbody tr').first()).toContainText('24/11/2026');
    await expect(table.getByRole('columnheader', { name: /Total bruto/ })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    await table.getByRole('button', { name: /Total bruto/ }).click();
    await expect(table.locator('tbody tr').last()).toContainText('24/11/2026');
    await shot(page, info, '2-builder-by-day');

    // CSV, pt-BR numbers (default) — the file the user gets.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('csv-download').click(),
    ]);
    expect(download.suggestedFilename()).toBe(
      'vendas-lojista-901-total_bruto-2026-11-23-a-2026-11-29-por-dia.csv',
    );
    const csv = await readFile((await download.path())!, 'utf8');
    expect(csv).toBe(
      '\uFEFFLojista;Dia;Total bruto (R$)\r\n' +
        [
          '23/11/2026;100,00',
          '24/11/2026;1450,50',
          '25/11/2026;0,00',
          '26/11/2026;0,00',
          '27/11/2026;80,00',
          '28/11/2026;0,00',
          '29/11/2026;45,25',
          'Total do período;1675,75',
        ]
          .map((l) => `${LOJA.nome} (#${LOJA.id});${l}\r\n`)
          .join(''),
    );
    // The other format: commas and a decimal point.
    await page.getByTestId('csv-ptbr').uncheck();
    const [download2] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('csv-download').click(),
    ]);
    const csv2 = await readFile((await download2.path())!, 'utf8');
    expect(csv2.split('\r\n').slice(0, 3)).toEqual([
      'Lojista,Dia,Total bruto (R$)',
      `${LOJA.nome} (#${LOJA.id}),2026-11-23,100.00`,
      `${LOJA.nome} (#${LOJA.id}),2026-11-24,1450.50`,
    ]);

    // Group by modality: a share chart; the best modality is crédito parcelado.
    await page.getByTestId('chip-agrupar').selectOption('modalidade');
    await expect(page.getByTestId('result-chart')).toHaveAttribute(
      'data-chart-kind',
      'participacao',
    );
    await expect(page.getByTestId('best-row')).toContainText('crédito parcelado');
    await expect(page.getByTestId('totals-row')).toContainText('R$ 1.675,75');
    await shot(page, info, '3-builder-by-modality');

    // An explicit date range (the date picker), back to one number.
    await page.getByTestId('chip-agrupar').selectOption('nenhum');
    await page.getByTestId('chip-periodo').click();
    // Typed as people write dates here (dd/mm/aaaa), whatever the browser's own date format.
    await page.getByTestId('range-inicio').fill('16/11/2026');
    await page.getByTestId('range-fim').fill('16/11/2026');
    await page.getByTestId('range-apply').click();
    await expect(number).toHaveText(brl(50_000));
    await expect(page.getByTestId('interpretation')).toContainText('em 16/11/2026');

    // A range longer than 366 days is refused in place, in pt-BR.
    await page.getByTestId('chip-periodo').click();
    await page.getByTestId('range-inicio').fill('01/01/2024');
    await page.getByTestId('range-fim').fill('16/11/2026');
    await page.getByTestId('range-apply').click();
    await expect(page.getByRole('alert')).toContainText('o máximo é 366');
    await page.keyboard.press('Escape');

    // The neighbour's sales never appear.
    await expect(page.getByText(/77\.777|33\.333/)).toHaveCount(0);
    // The way to a key is one click away.
    await page.getByTestId('configure-key').click();
    await expect(page.getByRole('heading', { level: 1, name: 'Configurações' })).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });
});

test('database down: a clear pt-BR message in place, never a blank panel', async ({
  page,
  testDb,
}, info) => {
  // The analytics connection points at a port nobody listens on (PostgreSQL stopped).
  const dead = createPool('postgres://balcao_analytics@127.0.0.1:1/balcao', { max: 1 });
  const deps = makeServiceDeps(testDb);
  // A private bridge the fixture's network guard lets the page reach.
  const bridge = await startTestBridge({
    deps: { ...deps, dbs: { ...deps.dbs, analytics: dead } },
  });
  try {
    await openApp(page, bridge, '#/vendas');
    await openSalesFor(page);
    const err = page.getByTestId('sales-error');
    await expect(err).toContainText('Banco de dados indisponível');
    await expect(err).toContainText('Não foi possível falar com o banco de dados');
    await expect(err).not.toContainText('ECONNREFUSED');
    await expect(err.getByRole('button', { name: 'Tentar de novo' })).toBeVisible();
    // The chips stay, so the user can retry once the database is back.
    await expect(page.getByTestId('chip-periodo')).toBeVisible();
    await shot(page, info, '9-database-down');
  } finally {
    await bridge.close();
    await dead.end();
  }
});

test('a query over the time limit: a clear pt-BR message in place', async ({
  page,
  testDb,
}, info) => {
  // The real tenant transaction and statement timeout (300 ms), with a statement that is slow.
  const slow: SalesExecutor = (pool, _q, c) =>
    withTenantReadOnly(pool, { merchantId: c.merchantId, timeoutMs: c.timeoutMs }, async (cl) => {
      await cl.query(
        'SELECT count(*) FROM generate_series(1, 10000) a, generate_series(1, 10000) b',
      );
      return [];
    });
  const base = makeServiceDeps(testDb, { settings: { queryTimeoutMs: 300 } });
  // The sales engine takes an optional executor next to the services' dependencies.
  const deps: ServiceDeps & { executor: SalesExecutor } = { ...base, executor: slow };
  const bridge = await startTestBridge({ deps });
  try {
    await openApp(page, bridge, '#/vendas');
    await openSalesFor(page);
    const err = page.getByTestId('sales-error');
    await expect(err).toHaveAttribute('data-code', 'tempo_esgotado');
    await expect(err).toContainText('A consulta demorou demais');
    await expect(err).toContainText('Tente um período menor');
    await expect(page.getByTestId('chip-periodo')).toBeVisible();
    await shot(page, info, '9b-timeout');
  } finally {
    await bridge.close();
  }
});

/** Same panel with an API key: the model is the fake Messages API over real HTTP. */
const withKey = test.extend<object, FakeApiFixtures>(fakeApiFixtures);

withKey.describe('sales panel with the model', () => {
  withKey(
    'ask → number and interpretation; editing a chip re-runs without the model',
    async ({ page, fakeApi, consoleErrors }, info) => {
      fakeApi.reset();
      await openSalesFor(page);
      const before = fakeApi.requests.length;
      fakeApi.enqueue(
        toolUseReply(
          'consultar_vendas',
          { metrica: 'total_bruto', periodo: 'semana_passada' },
          // Long enough for the in-progress state to be seen on a loaded CI machine (at 700 ms
          // the answer once arrived before the first look).
          { delayMs: 3_000 },
        ),
      );
      // "/" focuses the ask box from anywhere; Enter asks.
      await page.getByRole('heading', { level: 1, name: 'Vendas' }).focus();
      await page.keyboard.press('/');
      const ask = page.getByTestId('ask-input');
      await expect(ask).toBeFocused();
      await ask.fill('quanto vendi semana passada?');
      await ask.press('Enter');
      await expect(page.getByTestId('ask-progress')).toContainText('interpretando a pergunta…');
      await expect(page.getByTestId('ask-cancel')).toBeVisible();
      const number = page.getByTestId('answer-number');
      await expect(number).toHaveText('R$ 1.675,75');
      await expect(page.getByTestId('answer')).toHaveAttribute('data-origem', 'pergunta');
      await expect(page.getByTestId('interpretation')).toHaveText(
        'Considerei vendas aprovadas de 23/11/2026 a 29/11/2026 (semana passada), modalidades: todas. Métrica: total bruto (valor vendido, antes das taxas).',
      );
      expect(fakeApi.requests.length - before).toBe(1);
      // The model never sees the merchant.
      expect(JSON.stringify(fakeApi.requests.at(-1)!.body)).not.toContain(LOJA.nome);
      await shot(page, info, '4-ask-answer');

      // Period chip → new number from the database, no model request.
      await page.getByTestId('chip-periodo').click();
      await page.getByTestId('preset-ultimos_7_dias').click();
      await expect(number).toHaveText(brl(expected('2026-11-24', '2026-11-30')));
      await expect(page.getByTestId('interpretation')).toContainText('de 24/11/2026 a 30/11/2026');
      await page.getByTestId('chip-metrica').selectOption('quantidade');
      await expect(number).toHaveText('5 vendas');
      expect(fakeApi.requests.length - before).toBe(1);
      expect(fakeApi.unexpected).toEqual([]);

      // History: ↑ brings the last question back.
      await ask.focus();
      await ask.press('ArrowUp');
      await expect(ask).toHaveValue('quanto vendi semana passada?');
      await ask.press('ArrowDown');
      await expect(ask).toHaveValue('');
      // …and the list of this window's questions puts one back in the box.
      const history = page.getByTestId('ask-history');
      await history.getByText('Perguntas desta janela (1)').click();
      await history.getByRole('button', { name: 'quanto vendi semana passada?' }).click();
      await expect(ask).toHaveValue('quanto vendi semana passada?');
      await expect(ask).toBeFocused();

      // Leaving Vendas and coming back: same merchant (held by main), same query, fresh numbers.
      await page.keyboard.press('Alt+1');
      await expect(page.getByRole('heading', { level: 1, name: 'Fila de revisão' })).toBeVisible();
      await page.keyboard.press('Alt+2');
      await expect(page.getByTestId('sales-merchant')).toContainText(LOJA.nome);
      await expect(page.getByTestId('answer-number')).toHaveText('5 vendas');
      await expect(page.getByTestId('ask-history')).toContainText('Perguntas desta janela (1)');
      expect(fakeApi.requests.length - before).toBe(1);
      expect(consoleErrors).toEqual([]);
    },
  );

  withKey('a grouped question renders a chart and a table', async ({ page, fakeApi }, info) => {
    fakeApi.reset();
    await openSalesFor(page);
    fakeApi.enqueue(
      toolUseReply('consultar_vendas', {
        metrica: 'total_bruto',
        periodo: 'semana_passada',
        agrupar_por: 'dia',
      }),
    );
    const ask = page.getByTestId('ask-input');
    await ask.fill('quanto vendi por dia na semana passada?');
    await ask.press('Enter');
    await expect(page.getByTestId('result-chart')).toHaveAttribute('data-chart-kind', 'barras');
    await expect(page.getByTestId('result-chart').locator('.recharts-bar-rectangle')).toHaveCount(
      4,
    );
    await expect(page.getByTestId('result-table').locator('tbody tr')).toHaveCount(7);
    await expect(page.getByTestId('best-row')).toContainText('24/11/2026');
    await expect(page.getByTestId('totals-row')).toContainText('R$ 1.675,75');
    await expect(page.getByTestId('answer-text')).toContainText(
      'Melhor dia: 24/11/2026 (terça-feira), com R$ 1.450,50.',
    );
    await shot(page, info, '5-ask-grouped');
  });

  withKey(
    'correction progress, clarification, cancel and model errors, all in place',
    async ({ page, fakeApi }, info) => {
      fakeApi.reset();
      await openSalesFor(page);
      const ask = page.getByTestId('ask-input');

      // A correction round: the second attempt is shown while it runs.
      fakeApi.enqueue(
        toolUseReply('consultar_vendas', { metrica: 'total_bruto' }),
        toolUseReply(
          'consultar_vendas',
          { metrica: 'total_bruto', periodo: 'ontem' },
          { delayMs: 3_000 },
        ),
      );
      await ask.fill('quanto vendi ontem?');
      await ask.press('Enter');
      await expect(page.getByTestId('ask-progress')).toContainText(
        'corrigindo a consulta — tentativa 2 de 3',
      );
      await shot(page, info, '6-ask-correcting');
      await expect(page.getByTestId('answer-number')).toHaveText(
        brl(expected('2026-11-29', '2026-11-29')),
      );

      // A clarification: shown as a question; the text stays in the box for rephrasing.
      fakeApi.enqueue(
        toolUseReply('consultar_vendas', {
          pergunta_esclarecimento: 'Você quer o total bruto ou o líquido?',
        }),
      );
      await ask.fill('quanto deu?');
      await ask.press('Enter');
      await expect(page.getByTestId('clarification')).toContainText(
        'Você quer o total bruto ou o líquido?',
      );
      await expect(ask).toHaveValue('quanto deu?');
      await shot(page, info, '7-ask-clarification');

      // Cancel while the model works (Esc in the box).
      fakeApi.enqueue(
        toolUseReply(
          'consultar_vendas',
          { metrica: 'total_bruto', periodo: 'hoje' },
          { delayMs: 10_000 },
        ),
      );
      await ask.fill('quanto vendi hoje?');
      await ask.press('Enter');
      await expect(page.getByTestId('ask-cancel')).toBeVisible();
      await ask.press('Escape');
      await expect(page.getByText('Pergunta cancelada.')).toBeVisible({ timeout: 5_000 });
      await expect(ask).toHaveValue('quanto vendi hoje?');

      // A period too long, three times: refused with the reason, in place.
      const longo = { metrica: 'total_bruto', data_inicio: '2024-01-01', data_fim: '2026-11-29' };
      fakeApi.enqueue(
        toolUseReply('consultar_vendas', longo),
        toolUseReply('consultar_vendas', longo),
        toolUseReply('consultar_vendas', longo),
      );
      await ask.fill('quanto vendi desde 2024?');
      await ask.press('Enter');
      const refused = page.getByTestId('sales-error');
      await expect(refused).toContainText('Consulta recusada');
      await expect(refused).toContainText('o máximo é 366 dias');
      await expect(ask).toHaveValue('quanto vendi desde 2024?');
      // The chips under the failure are the builder's default, not "ontem" of the question
      // answered before (#42.4).
      await expect(page.getByTestId('chip-periodo')).toContainText(/últimos 7 dias/i);

      // Model unavailable: a clear pt-BR message in place; the chips still answer.
      fakeApi.enqueue(statusReply(529, { message: 'Overloaded' }));
      await ask.fill('quanto vendi no pix?');
      await ask.press('Enter');
      const err = page.getByTestId('sales-error');
      await expect(err).toContainText('O modelo não está disponível');
      await expect(err).toContainText('Os filtros abaixo continuam funcionando sem o modelo.');
      await expect(err).not.toContainText('Overloaded');
      await shot(page, info, '8-model-unavailable');
      await page.getByTestId('chip-periodo').click();
      await page.getByTestId('preset-semana_passada').click();
      await expect(page.getByTestId('answer-number')).toHaveText('R$ 1.675,75');
      await expect(err).toBeHidden();
    },
  );

  withKey(
    'free-SQL fallback (when enabled): SQL shown, labelled to double-check, rows as a table',
    async ({ page, fakeApi, serviceDeps }, info) => {
      fakeApi.reset();
      serviceDeps.settings.update({ freeSqlEnabled: true });
      try {
        await openSalesFor(page);
        const sql =
          'select modalidade, count(*) as vendas, sum(valor_bruto_centavos) as total_bruto_centavos ' +
          "from vendas_ia where aprovada_em >= '2026-11-23' and aprovada_em < '2026-11-30' " +
          'group by modalidade order by modalidade';
        fakeApi.enqueue(
          toolUseReply(TOOL_CONSULTAR_VENDAS, { nao_expressavel: true }),
          toolUseReply(TOOL_ESCREVER_SQL, { sql }, { text: 'Você vendeu muito!' }),
        );
        const ask = page.getByTestId('ask-input');
        await ask.fill('quantas vendas e quanto em cada modalidade na semana passada?');
        await ask.press('Enter');
        const free = page.getByTestId('free-result');
        await expect(free).toContainText('consulta livre — confira');
        await expect(page.getByTestId('free-sql')).toHaveText(sql);
        const rows = page.getByTestId('free-table').locator('tbody tr');
        await expect(rows).toHaveCount(4);
        await expect(rows.nth(1)).toContainText('credito_parcelado');
        await expect(rows.nth(1)).toContainText('R$ 1.200,00');
        await expect(rows.nth(3)).toContainText('pix');
        await expect(rows.nth(3)).toContainText('R$ 145,25');
        // The model's prose is never shown; the neighbour's sales never appear.
        await expect(free).not.toContainText('Você vendeu muito');
        await expect(page.getByText(/77\.777|33\.333/)).toHaveCount(0);
        await shot(page, info, '10-free-sql');
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          free.getByTestId('csv-download').click(),
        ]);
        const csv = await readFile((await download.path())!, 'utf8');
        expect(csv.split('\r\n').slice(0, 3)).toEqual([
          '\uFEFFmodalidade;vendas;total_bruto_centavos',
          'credito_avista;1;8000',
          'credito_parcelado;1;120000',
        ]);
        expect(fakeApi.requests).toHaveLength(2);
      } finally {
        serviceDeps.settings.update({ freeSqlEnabled: false });
      }
    },
  );

  withKey(
    'free-SQL output keeps every column and value: __proto__, repeated names, exact big numbers',
    async ({ page, fakeApi, serviceDeps }) => {
      fakeApi.reset();
      serviceDeps.settings.update({ freeSqlEnabled: true });
      try {
        await openSalesFor(page);
        const sql =
          'select count(*) as "__proto__", 1 as a, 2 as a_2, 3 as a, ' +
          '12345678901234567.89 as grande, 9007199254740993 as inteiro from vendas_ia';
        fakeApi.enqueue(
          toolUseReply(TOOL_CONSULTAR_VENDAS, { nao_expressavel: true }),
          toolUseReply(TOOL_ESCREVER_SQL, { sql }),
        );
        const ask = page.getByTestId('ask-input');
        await ask.fill('mostre colunas repetidas e números grandes');
        await ask.press('Enter');
        const table = page.getByTestId('free-table');
        await expect(table.locator('thead th')).toHaveText([
          '__proto__',
          'a',
          'a_2',
          'a',
          'grande',
          'inteiro',
        ]);
        const cells = table.locator('tbody tr').first().locator('td');
        await expect(cells.nth(1)).toHaveText('1');
        await expect(cells.nth(2)).toHaveText('2');
        await expect(cells.nth(3)).toHaveText('3');
        await expect(cells.nth(4)).toHaveText('12.345.678.901.234.567,89');
        await expect(cells.nth(5)).toHaveText('9.007.199.254.740.993');
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          page.getByTestId('free-result').getByTestId('csv-download').click(),
        ]);
        const csv = await readFile((await download.path())!, 'utf8');
        const [head, row] = csv.split('\r\n');
        expect(head).toBe('\uFEFF__proto__;a;a_2;a;grande;inteiro');
        expect(row?.split(';').slice(1)).toEqual([
          '1',
          '2',
          '3',
          '12345678901234567,89',
          '9007199254740993',
        ]);
      } finally {
        serviceDeps.settings.update({ freeSqlEnabled: false });
      }
    },
  );
});
