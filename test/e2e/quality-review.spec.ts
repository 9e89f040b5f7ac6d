/**
 * #39.4 — "Revisão de qualidade" and the accuracy it measures, in Chromium (pt-BR) through the
 * test bridge on real PostgreSQL, at 1366×768 and 1920×1080: charges confirmed by the queue's own
 * service are sampled (the first of their model/prompt version), a supervisor judges one with
 * the keyboard (C/E, Enter) and one with the mouse, and Relatório → Qualidade shows the accuracy
 * per field with its Wilson 95% interval. Screenshots in /tmp.
 */
import type { Bridge } from '../bridge/server';
import { dados, insertExtraction, queueFor } from '../support/queue-fixtures';
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
const TEXTO = 'manda um link de 150 reais pro João Silva no cartão em 3x, vence dia 4';

test.beforeAll(async () => {
  db = await freshTestDatabase();
  await db.admin.query(`INSERT INTO merchants (id, nome) VALUES (1, 'Padaria Central')`);
  const ana = queueFor(db.app, { operator: 'ana' });
  for (const d of [dados({ parcelas: 2 }), dados()]) {
    const id = await insertExtraction(db.admin, { status: 'completo', texto: TEXTO });
    await db.admin.query(
      `UPDATE extracoes SET modelo = 'claude-sonnet-4-6', versao_prompt = 'p-e2e' WHERE id = $1`,
      [id],
    );
    const r = await ana.claim(id);
    if (!r.claimed) throw new Error(r.mensagem);
    await ana.confirm({ id, token: r.token, dados: d });
  }
  bridge = await startTestBridge({ deps: makeServiceDeps(db) });
});

test.afterAll(async () => {
  await bridge?.close();
  await db?.drop();
});

test('a supervisor judges two samples (keyboard and mouse) and sees the accuracy', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1366, height: 768 });
  await openApp(page, bridge, '#/relatorio/revisao-qualidade');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Revisão de qualidade');
  await expect(page.getByRole('tab', { name: 'Revisão de qualidade' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  const sample = page.getByTestId('quality-sample');
  await expect(page.getByTestId('quality-message')).toHaveText(TEXTO);
  await expect(page.getByTestId('quality-pending')).toHaveText('2 amostras pendentes');
  await expect(sample).toContainText('Confirmada por agente');
  await expect(page.getByTestId('quality-row-valor_centavos')).toContainText('R$ 150,00');
  // The model said 3x, the agent charged 2x.
  await expect(page.getByTestId('quality-row-parcelas').locator('td').nth(0)).toHaveText('3x');
  await expect(page.getByTestId('quality-row-parcelas').locator('td').nth(1)).toHaveText('2x');
  await expect(page.getByTestId('quality-row-vencimento')).toContainText('04/12/2026');
  const save = page.getByRole('button', { name: 'Salvar e ir para a próxima' });
  await expect(save).toBeDisabled();
  // Keyboard only: the first field has the focus; C/E mark it and move on; Enter saves.
  await page.getByRole('radio', { name: 'Certo' }).first().focus();
  for (const k of ['c', 'e', 'c', 'c', 'c', 'c']) await page.keyboard.press(k);
  await expect(
    page.getByTestId('quality-row-parcelas').getByRole('radio', { name: 'Errado' }),
  ).toBeChecked();
  await expect(save).toBeEnabled();
  await expect(save).toBeFocused();
  await page.screenshot({ path: '/tmp/quality-review-1366.png' });
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('quality-notice')).toHaveText(/julgada: 1 campo errado\./);
  await expect(page.getByTestId('quality-pending')).toHaveText('1 amostra pendente');

  await page.setViewportSize({ width: 1920, height: 1080 });
  for (const row of await page.getByTestId('quality-fields').locator('tbody tr').all()) {
    await row.getByText('Certo').click();
  }
  await page.screenshot({ path: '/tmp/quality-review-1920.png' });
  await save.click();
  await expect(page.getByText('Nenhuma amostra esperando')).toBeVisible();

  await page.getByRole('tab', { name: 'Qualidade', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Relatório: qualidade da extração',
  );
  const card = page.getByTestId('quality-version-claude-sonnet-4-6-p-e2e');
  await expect(card).toContainText('2 de 2 amostras julgadas');
  const parcelas = card.getByTestId('quality-accuracy-parcelas');
  await expect(parcelas.locator('td').nth(0)).toHaveText('50,0%');
  await expect(parcelas.locator('td').nth(1)).toHaveText('9,5%–90,5%');
  await expect(parcelas.locator('td').nth(2)).toHaveText('2');
  await expect(
    card.getByTestId('quality-accuracy-valor_centavos').locator('td').first(),
  ).toHaveText('100,0%');
  await page.screenshot({ path: '/tmp/quality-report-1920.png' });
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.screenshot({ path: '/tmp/quality-report-1366.png' });
  // Judged with who, and audited.
  const j = await db.admin.query<{ julgada_por: string }>(
    'SELECT julgada_por FROM qualidade_amostras ORDER BY cobranca_id',
  );
  expect(j.rows.map((r) => r.julgada_por)).toEqual(['agente.teste', 'agente.teste']);
  const a = await db.admin.query(`SELECT 1 FROM auditoria WHERE acao = 'qualidade_julgada'`);
  expect(a.rowCount).toBe(2);
});
