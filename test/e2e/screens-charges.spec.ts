/**
 * #13 — the charges list: search, number, situation (due vs today), period and a CSV of the
 * whole match; the filtering happens in main (parameterized SQL), the page only shows it.
 */
import { readFile } from 'node:fs/promises';
import { test, expect } from './support/fixtures';

test('charges: search, number, situation and period, CSV of the match', async ({
  page,
  testDb,
  bridge,
}) => {
  const m = (
    await testDb.admin.query<{ id: number }>('SELECT id FROM merchants ORDER BY id LIMIT 1')
  ).rows[0]!.id;
  const mk = async (cliente: string, vencimento: string, criadaEm: string) => {
    const e = await testDb.admin.query<{ id: number }>(
      `INSERT INTO extracoes (merchant_id, texto, status, fila_estado, criada_em)
       VALUES ($1, $2, 'completo', 'resolvida', $3) RETURNING id`,
      [m, `cobrar ${cliente}`, criadaEm],
    );
    const c = await testDb.admin.query<{ id: number }>(
      `INSERT INTO cobrancas (extracao_id, merchant_id, valor_centavos, parcelas, metodo,
         cliente_nome, vencimento, criada_por, criada_em)
       VALUES ($1, $2, 15000, 1, 'pix', $3, $4, 'agente.teste', $5) RETURNING id`,
      [e.rows[0]!.id, m, cliente, vencimento, criadaEm],
    );
    return c.rows[0]!.id;
  };
  const vencida = await mk('Zuleica Vencida', '2026-11-20', '2026-11-18T15:00:00Z');
  const aVencer = await mk('Zuleica Futura', '2026-12-20', '2026-11-29T15:00:00Z');

  await page.evaluate(() => (window.location.hash = '#/cobrancas'));
  const table = page.getByTestId('charges-table');
  await expect(table.getByTestId(`charge-${aVencer}`)).toContainText(`#${aVencer}`);
  await page.getByRole('searchbox', { name: /Buscar por cliente/ }).fill('zuleica');
  await expect(table.locator('tbody tr')).toHaveCount(2);
  await expect(table.getByTestId(`charge-${vencida}`)).toContainText('Vencida');
  await page.getByLabel('Situação').selectOption({ label: 'A vencer' });
  await expect(table.locator('tbody tr')).toHaveCount(1);
  await expect(table.getByTestId(`charge-${aVencer}`)).toContainText('A vencer');
  await page.getByLabel('Situação').selectOption({ label: 'Todas' });
  await page.getByLabel('Número da cobrança').fill(String(vencida));
  await expect(table.locator('tbody tr')).toHaveCount(1);
  await page.getByLabel('Número da cobrança').fill('');
  // Created in the last 7 days (24–30/11): only the newer one.
  await page.getByRole('button', { name: 'Últimos 7 dias' }).click();
  await expect(table.locator('tbody tr')).toHaveCount(1);
  await expect(table.getByTestId(`charge-${aVencer}`)).toBeVisible();
  const last = bridge.calls.filter((c) => c.channel === 'review/charges').at(-1)!;
  expect(last.input).toMatchObject({ search: 'zuleica', de: '2026-11-24', ate: '2026-11-30' });

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('charges-csv').click(),
  ]);
  const csv = await readFile((await download.path())!, 'utf8');
  const lines = csv
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
  expect(lines).toHaveLength(2);
  expect(lines[0]).toContain('Número;Criada em;Por;Lojista;Cliente;Valor (R$)');
  expect(lines[1]).toContain(`${aVencer};`);
  expect(lines[1]).toContain(';Zuleica Futura;150,00;Pix;1;20/12/2026;A vencer;');
});
