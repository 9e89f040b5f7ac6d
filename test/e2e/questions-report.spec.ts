/**
 * Relatório → Perguntas in Chromium (pt-BR) through the test bridge on real PostgreSQL: the
 * outcomes, the unanswered questions grouped by text, the chips corrected after an answer, the
 * CSV, and the one-click path from a logged question to an eval case appended to a file.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Bridge } from '../bridge/server';
import type { TestDatabase } from '../support/testdb';
import {
  expect,
  freshTestDatabase,
  makeServiceDeps,
  openApp,
  startTestBridge,
  test,
} from './support/fixtures';

let db: TestDatabase;
let bridge: Bridge;
let evalsDir: string;

const consulta = (over: Record<string, unknown> = {}) =>
  JSON.stringify({
    metrica: 'total_bruto',
    agrupar_por: 'nenhum',
    periodo: 'ontem',
    data_inicio: '2026-11-29',
    data_fim: '2026-11-29',
    modalidades: [],
    ordem: null,
    limite: null,
    ...over,
  });

test.beforeAll(async () => {
  db = await freshTestDatabase();
  await db.admin.query(
    `INSERT INTO merchants (id, nome) VALUES (1, 'Padaria'), (2, 'Farmácia'), (3, 'Ótica')`,
  );
  const rows: [
    number,
    string,
    string | null,
    string,
    string | null,
    string | null,
    string | null,
    string,
  ][] = [
    // merchant, origem, pergunta, resultado, dsl, consulta, sessao, criada_em
    [
      1,
      'pergunta',
      'quanto vendi ontem?',
      'respondida',
      '{"metrica":"total_bruto","periodo":"ontem"}',
      consulta(),
      'w1',
      '2026-11-30T10:00:00-03:00',
    ],
    [
      1,
      'dsl',
      null,
      'respondida',
      null,
      consulta({ metrica: 'total_liquido' }),
      'w1',
      '2026-11-30T10:01:00-03:00',
    ],
    [
      1,
      'pergunta',
      'Qual foi a MAIOR venda?',
      'esclarecimento',
      '{"nao_expressavel":true}',
      null,
      null,
      '2026-11-20T10:00:00-03:00',
    ],
    [
      2,
      'pergunta',
      'qual foi a maior vénda',
      'esclarecimento',
      '{"nao_expressavel":true}',
      null,
      null,
      '2026-11-25T10:00:00-03:00',
    ],
    [
      3,
      'pergunta',
      'qual foi a maior venda',
      'esclarecimento',
      '{"nao_expressavel":true}',
      null,
      null,
      '2026-11-28T10:00:00-03:00',
    ],
    [
      2,
      'pergunta',
      'quanto vou receber',
      'invalida',
      null,
      null,
      null,
      '2026-11-27T10:00:00-03:00',
    ],
  ];
  for (const r of rows) {
    await db.admin.query(
      `INSERT INTO consultas_vendas (merchant_id, operador, origem, pergunta, dsl, consulta,
         resultado, duracao_ms, sessao, criada_em) VALUES ($1, 'ana', $2, $3, $5, $6, $4, 5, $7, $8)`,
      r,
    );
  }
  evalsDir = mkdtempSync(join(tmpdir(), 'balcao-e2e-evals-'));
  writeFileSync(join(evalsDir, 'consultas.jsonl'), '');
  bridge = await startTestBridge({ deps: makeServiceDeps(db, { settings: { evalsDir } }) });
});

test.afterAll(async () => {
  await bridge?.close();
  await db?.drop();
  if (evalsDir) rmSync(evalsDir, { recursive: true, force: true });
});

test('Perguntas: outcomes, unanswered groups, chip corrections, CSV and a new eval case', async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000);
  await openApp(page, bridge, '#/relatorio/perguntas');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Relatório: perguntas de vendas',
  );
  await expect(page.getByRole('tab', { name: 'Perguntas' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(page.getByRole('button', { name: 'Últimos 30 dias' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  const report = page.getByTestId('questions-report');
  await expect(report.locator('.report-kpi').first()).toContainText('Perguntas5');
  await expect(report.locator('.report-kpi').nth(1)).toContainText('20,0%');

  const outcomes = page.getByTestId('questions-outcomes');
  await expect(
    outcomes.getByRole('row', { name: /Fora da consulta pronta \(SQL livre desligado\) 3 60,0%/ }),
  ).toBeVisible();

  const unanswered = page.getByTestId('questions-unanswered');
  const group = unanswered.getByRole('row').filter({ hasText: 'qual foi a maior venda' }).first();
  await expect(group).toContainText('Qual foi a MAIOR venda?');
  await expect(group).toContainText('qual foi a maior vénda');
  await expect(group.locator('td.num').first()).toHaveText('3');
  await expect(group.locator('td.num').nth(1)).toHaveText('3');

  await expect(page.getByTestId('questions-edits')).toContainText('total bruto → total líquido');
  await expect(
    report
      .getByRole('img', { name: /Gráfico de perguntas/ })
      .locator('.recharts-bar-rectangle')
      .first(),
  ).toBeVisible();

  // CSV of what the screen shows.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('questions-csv').click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^perguntas-2026-11-01-a-2026-11-30\.csv$/);
  const csv = readFileSync((await download.path())!, 'utf8');
  expect(csv).toContain('sem_resposta;qual foi a maior venda;');
  expect(csv).toContain('edicao_de_chip;Métrica;total bruto → total líquido;1');

  await page.setViewportSize({ width: 1366, height: 768 });
  await page.screenshot({ path: testInfo.outputPath('perguntas-1366x768.png') });
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.screenshot({ path: testInfo.outputPath('perguntas-1920x1080.png') });

  // A logged question becomes an eval case: confirm or correct what it should produce.
  await group
    .getByRole('button', { name: /Criar caso de avaliação com "Qual foi a MAIOR venda\?"/ })
    .click();
  const dialog = page.getByTestId('eval-case-dialog');
  await expect(dialog).toContainText('perguntada em 20/11/2026');
  const json = dialog.getByRole('textbox', { name: /O que a pergunta deve produzir/ });
  await expect(json).toHaveValue(/"nao_expressavel": true/);
  await expect(dialog.getByTestId('eval-case-check')).toContainText('Fora da consulta pronta');
  await json.fill('{"metrica": "total_bruto", "data_inicio": "2026-11-01"}');
  await expect(dialog.getByTestId('eval-case-check')).toContainText('data_fim');
  await expect(dialog.getByRole('button', { name: 'Gravar caso' })).toBeDisabled();
  await json.fill(
    '{"metrica": "total_bruto", "periodo": "este_mes", "agrupar_por": "dia", "ordem": "decrescente", "limite": 1}',
  );
  await expect(dialog.getByTestId('eval-case-check')).toContainText('total bruto');
  await page.screenshot({ path: testInfo.outputPath('perguntas-caso.png') });
  await dialog.getByRole('button', { name: 'Gravar caso' }).click();
  await expect(page.getByText(/Caso gravado em .*consultas\.jsonl \(linha 1\)/)).toBeVisible();
  await expect(dialog).toBeHidden();
  const lines = readFileSync(join(evalsDir, 'consultas.jsonl'), 'utf8').trim().split('\n');
  expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual([
    {
      pergunta: 'Qual foi a MAIOR venda?',
      hoje: '2026-11-20',
      esperado: {
        metrica: 'total_bruto',
        periodo: 'este_mes',
        agrupar_por: 'dia',
        ordem: 'decrescente',
        limite: 1,
      },
    },
  ]);

  // The other report is one tab away, by keyboard too.
  // The closing dialog hands focus back on its own schedule; move between tabs only once the
  // arrow key has landed on the tab list (under CI load the hand-back came after our focus).
  const falhasTab = page.getByRole('tab', { name: 'Falhas de validação' });
  await expect(async () => {
    await page.getByRole('tab', { name: 'Perguntas' }).focus();
    await page.keyboard.press('ArrowLeft');
    await expect(falhasTab).toBeFocused({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Relatório: falhas de validação',
  );
  await expect(page).toHaveURL(/#\/relatorio$/);
});

test('Perguntas: an empty period says so', async ({ page }) => {
  test.setTimeout(90_000);
  await openApp(page, bridge, '#/relatorio/perguntas');
  await page.getByRole('button', { name: 'Últimos 7 dias' }).click();
  await page.getByRole('textbox', { name: 'De' }).fill('2026-01-01');
  await page.getByRole('textbox', { name: 'Até' }).fill('2026-01-31');
  await expect(page.getByText('Nenhuma pergunta neste período')).toBeVisible({ timeout: 30_000 });
});
