/**
 * #13 — the review queue people trust: the situation badge and the counters come from one
 * definition ("Com alerta" only with an alert), "Perguntar ao lojista" follows the form, the
 * item waits visibly for the merchant (with its age), resolved and discarded views have their
 * own columns, a supervisor reopens (with why) and takes over, every final action lands on
 * "Próximo pedido", and the queue opens oldest first with one click.
 */
import type { Page } from '@playwright/test';
import { SITUACAO_LABELS, type Situacao } from '@shared/extraction-types';
import { DEADLINE_ORDER_SQL } from '../support/queue-fixtures';
import { test, expect } from './support/fixtures';

async function toQueue(page: Page) {
  await page.evaluate(() => (window.location.hash = '#/fila'));
  await expect(page.getByRole('heading', { level: 1, name: 'Fila de revisão' })).toBeVisible();
}

async function openItem(page: Page, id: number) {
  await page.evaluate((i) => (window.location.hash = `#/fila/${i}`), id);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(`Pedido #${id}`);
}

/** The queue's filter menus ("Fila", "Lojista"…): a select inside its label. */
const menu = (page: Page, label: string) =>
  page.locator('label.field-inline', { hasText: new RegExp(`^${label}`) }).locator('select');

const form = (page: Page) => page.getByRole('form', { name: 'Dados da cobrança' });

test('"Com alerta" only with an alert: header, list and counters share the situation', async ({
  page,
  testDb,
  consoleErrors,
}) => {
  // A complete item that came back with no alert (as after the merchant answered).
  const item = (
    await testDb.admin.query<{ id: number }>(
      `UPDATE extracoes SET alertas = '[]'::jsonb
        WHERE id = (SELECT id FROM extracoes WHERE fila_estado = 'aberta' AND status = 'completo'
                     ORDER BY id LIMIT 1)
        RETURNING id`,
    )
  ).rows[0];
  expect(item, 'demo data has an open complete item').toBeDefined();
  const n = (
    await testDb.admin.query<{ alerta: number; completo: number }>(
      `SELECT count(*) FILTER (WHERE jsonb_array_length(alertas) > 0)::int AS alerta,
              count(*) FILTER (WHERE jsonb_array_length(alertas) = 0)::int AS completo
         FROM extracoes WHERE fila_estado = 'aberta' AND status = 'completo'`,
    )
  ).rows[0]!;
  await page.reload();
  await toQueue(page);
  await expect(page.getByTestId('count-com_alerta')).toHaveText(`Com alerta (${n.alerta})`);
  await expect(page.getByTestId('count-completo')).toHaveText(`Completo (${n.completo})`);
  await page.getByTestId('count-completo').click();
  const row = page.getByTestId(`queue-row-${item!.id}`);
  await expect(row).toContainText('Completo');
  await expect(row).not.toContainText('Com alerta');
  await openItem(page, item!.id);
  await expect(page.getByTestId('item-situacao')).toHaveText('Completo');
  await expect(page.locator('main')).not.toContainText('Com alerta');
  // Parcelas: no placeholder that reads like data.
  await expect(form(page).getByLabel('Parcelas')).not.toHaveAttribute('placeholder', '1');
  expect(consoleErrors).toEqual([]);
});

test('"Perguntar ao lojista" follows the form; the item waits for the merchant with its age', async ({
  page,
  testDb,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const item = (
    await testDb.admin.query<{ id: number }>(
      // (free it: an earlier test of this file may have left its lease to expire)
      `UPDATE extracoes SET lease_operador = NULL, lease_token = NULL, lease_expira_em = NULL
        WHERE id = (SELECT id FROM extracoes WHERE fila_estado = 'aberta' AND status = 'completo'
                     ORDER BY id DESC LIMIT 1)
        RETURNING id`,
    )
  ).rows[0]!;
  await openItem(page, item.id);
  const ask = page.getByRole('button', { name: /Perguntar ao lojista/ });
  await expect(ask).toBeDisabled();
  await form(page).getByLabel('Cliente').fill('');
  await expect(page.getByText(/Preencha cliente para criar a cobrança/)).toBeVisible();
  await expect(ask).toBeEnabled();
  await ask.click();
  const dialog = page.getByRole('dialog', { name: 'Perguntar ao lojista' });
  await expect(dialog.getByTestId('question')).toHaveText('Qual o nome do cliente?');
  await dialog.getByRole('button', { name: 'Copiar pergunta' }).click();
  await expect(page.getByTestId('item-situacao')).toHaveText('Aguardando lojista · agora');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  // A final action: the next step is the next item.
  await expect(page.getByTestId('next-item')).toBeFocused();
  const asked = await testDb.admin.query<{ detalhes: { pergunta: string; faltando: string[] } }>(
    `SELECT detalhes FROM auditoria WHERE extracao_id = $1 AND acao = 'pergunta_ao_lojista'`,
    [item.id],
  );
  expect(asked.rows.map((r) => r.detalhes)).toEqual([
    { pergunta: 'Qual o nome do cliente?', faltando: ['cliente_nome'] },
  ]);

  // Two hours later, in the list: the state, its age, a filter of its own.
  await testDb.admin.query(
    `UPDATE extracoes SET aguardando_desde = now() - interval '2 hours 5 minutes' WHERE id = $1`,
    [item.id],
  );
  await toQueue(page);
  await page.getByTestId('count-aguardando_lojista').click();
  await expect(page.getByTestId('count-aguardando_lojista')).toHaveText('Aguardando lojista (1)');
  const rows = page.getByRole('table', { name: 'Pedidos abertos na fila de revisão' });
  await expect(rows.getByRole('row')).toHaveCount(2);
  await expect(page.getByTestId(`queue-row-${item.id}`)).toContainText(
    'Aguardando lojista · há 2 h',
  );

  // The answer comes: recorded, the item leaves the waiting state.
  await page.getByTestId(`queue-row-${item.id}`).click();
  await expect(page.getByTestId('item-situacao')).toHaveText('Aguardando lojista · há 2 h');
  // The item's keys act once the agent holds it (the claim is one round trip after opening).
  await expect(page.getByRole('button', { name: /^Descartar/ })).toBeEnabled();
  await page.keyboard.press('p');
  await dialog.getByLabel('Resposta do lojista').fill('o cliente é Jorge Amado');
  await dialog.getByRole('button', { name: 'Registrar resposta e refazer' }).click();
  await expect(dialog.getByRole('status')).toContainText('preencha os campos à mão');
  await page.keyboard.press('Escape');
  const after = (
    await testDb.admin.query<{ aguardando_desde: Date | null; situacao: Situacao }>(
      'SELECT aguardando_desde, situacao FROM extracoes WHERE id = $1',
      [item.id],
    )
  ).rows[0]!;
  expect(after.aguardando_desde).toBeNull();
  expect(['com_alerta', 'completo']).toContain(after.situacao);
  await expect(page.getByTestId('item-situacao')).toHaveText(SITUACAO_LABELS[after.situacao]);
});

test('Resolvidos and Descartados have their own columns', async ({ page, testDb }) => {
  const [a, b] = (
    await testDb.admin.query<{ id: number; merchant_id: number }>(
      `SELECT id, merchant_id FROM extracoes WHERE fila_estado = 'aberta' AND status = 'falhou'
        ORDER BY id LIMIT 2`,
    )
  ).rows;
  const charge = (
    await testDb.admin.query<{ id: number }>(
      `INSERT INTO cobrancas (extracao_id, merchant_id, valor_centavos, parcelas, metodo,
         cliente_nome, vencimento, descricao, alteracoes, criada_por)
       VALUES ($1, $2, 15000, 1, 'pix', 'Ana', '2026-12-20', null, '{}', 'Carla')
       RETURNING id`,
      [a!.id, a!.merchant_id],
    )
  ).rows[0]!;
  await testDb.admin.query(
    `UPDATE extracoes SET fila_estado = 'resolvida', resolvida_por = 'Carla',
       resolvida_em = '2026-11-30T14:10:00Z' WHERE id = $1`,
    [a!.id],
  );
  await testDb.admin.query(
    `UPDATE extracoes SET fila_estado = 'descartada', resolvida_por = 'Davi',
       resolvida_em = '2026-11-30T13:20:00Z', descarte_motivo = 'duplicada',
       descarte_detalhe = 'mesmo pedido das 9h' WHERE id = $1`,
    [b!.id],
  );
  await toQueue(page);
  // The views are tabs (#42.9), and the open view's situation counters belong to it alone (#42.4).
  const views = page.getByRole('tablist', { name: 'Pedidos da fila' });
  // #36.7 adds the charges the PSP refused as a fourth view.
  await expect(views.getByRole('tab')).toHaveText([
    'Abertos',
    'Resolvidos',
    'Descartados',
    'Falhas no PSP',
  ]);
  const situations = page.getByRole('group', { name: 'Filtrar por status' });
  await expect(situations).toBeVisible();
  await views.getByRole('tab', { name: 'Resolvidos' }).click();
  await expect(situations).toHaveCount(0);
  const resolved = page.getByRole('table', { name: 'Pedidos resolvidos na fila de revisão' });
  await expect(resolved.getByRole('columnheader')).toHaveText([
    /Recebido/,
    'Lojista',
    'Mensagem',
    'Cobrança',
    'Resolvido por',
    'Resolvido em',
  ]);
  const r = resolved.getByTestId(`queue-row-${a!.id}`);
  await expect(r).toContainText(`#${charge.id}`);
  await expect(r).toContainText('Carla');
  await expect(r).toContainText('30/11/2026, 11:10');
  await expect(r).not.toContainText('Falhou');

  await views.getByRole('tab', { name: 'Descartados' }).click();
  await expect(situations).toHaveCount(0);
  const discarded = page.getByRole('table', { name: 'Pedidos descartados na fila de revisão' });
  // A supervisor (the bridge's login) selects discarded items to reopen them (#39.5).
  await expect(discarded.getByRole('columnheader')).toHaveText([
    'Seleção',
    /Recebido/,
    'Lojista',
    'Mensagem',
    'Descartado por',
    'Descartado em',
    'Motivo do descarte',
  ]);
  const d = discarded.getByTestId(`queue-row-${b!.id}`);
  await expect(d).toContainText('Davi');
  await expect(d).toContainText('30/11/2026, 10:20');
  await expect(d).toContainText('Pedido duplicado: mesmo pedido das 9h');
  await expect(d).not.toContainText('Falhou');

  // A closed item's header says how it left the queue, not the situation it had (#42.4).
  await openItem(page, a!.id);
  await expect(page.getByTestId('item-situacao')).toHaveText('Cobrança criada');
  await openItem(page, b!.id);
  await expect(page.getByTestId('item-situacao')).toHaveText('Descartado');
});

test('a supervisor reopens a discarded item (why, audited) and takes over a lease', async ({
  page,
  testDb,
}) => {
  const id = (
    await testDb.admin.query<{ id: number }>(
      `UPDATE extracoes SET fila_estado = 'descartada', resolvida_por = 'Davi', resolvida_em = now(),
         descarte_motivo = 'teste'
        WHERE id = (SELECT id FROM extracoes WHERE fila_estado = 'aberta' AND status = 'falhou'
                     ORDER BY id DESC LIMIT 1) RETURNING id`,
    )
  ).rows[0]!.id;
  await openItem(page, id);
  await page.getByRole('button', { name: 'Reabrir pedido' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reabrir este pedido?' });
  const submit = dialog.getByRole('button', { name: 'Reabrir pedido' });
  await expect(submit).toBeDisabled();
  await dialog.getByLabel('Por que reabrir?').fill('descartado por engano');
  await submit.click();
  await expect(page.getByText(`Pedido #${id} reaberto: de volta à fila.`)).toBeVisible();
  await expect(page.getByRole('button', { name: /Descartar/ })).toBeEnabled();
  const audit = await testDb.admin.query<{ operador: string; detalhes: Record<string, unknown> }>(
    `SELECT operador, detalhes FROM auditoria WHERE extracao_id = $1 AND acao = 'reaberta'`,
    [id],
  );
  expect(audit.rows).toHaveLength(1);
  expect(audit.rows[0]).toMatchObject({
    operador: 'agente.teste',
    detalhes: { motivo: 'descartado por engano' },
  });
  expect(
    (await testDb.admin.query('SELECT fila_estado FROM extracoes WHERE id = $1', [id])).rows[0],
  ).toEqual({ fila_estado: 'aberta' });

  // Another person holds an item: the supervisor takes it over from the banner.
  const held = (
    await testDb.admin.query<{ id: number }>(
      `UPDATE extracoes SET lease_operador = 'Bia', lease_token = gen_random_uuid(),
         lease_expira_em = now() + interval '10 minutes'
        WHERE id = (SELECT id FROM extracoes WHERE fila_estado = 'aberta' AND lease_token IS NULL
                     ORDER BY id LIMIT 1) RETURNING id`,
    )
  ).rows[0]!.id;
  await openItem(page, held);
  const banner = page.getByTestId('lease-banner');
  await expect(banner).toContainText('Em análise por Bia');
  await banner.getByRole('button', { name: 'Assumir de Bia (supervisor)' }).click();
  await expect(banner).toBeHidden();
  await expect(page.getByRole('button', { name: /Descartar/ })).toBeEnabled();
  const took = await testDb.admin.query<{ detalhes: { de: string } }>(
    `SELECT detalhes FROM auditoria WHERE extracao_id = $1 AND acao = 'assumiu_de'`,
    [held],
  );
  expect(took.rows.map((r) => r.detalhes.de)).toHaveLength(1);
});

test('most urgent first, one click opens; discard lands on "Próximo pedido"; merchants without items are not offered', async ({
  page,
  testDb,
}) => {
  await testDb.admin.query(
    `INSERT INTO merchants (id, nome) VALUES (9901, 'Loja Sem Pedidos') ON CONFLICT DO NOTHING`,
  );
  // The default order (#39.2): by deadline, past it first (was: oldest first).
  const oldest = (
    await testDb.admin.query<{ id: number }>(
      `SELECT e.id FROM extracoes e WHERE e.fila_estado = 'aberta' ORDER BY ${DEADLINE_ORDER_SQL} LIMIT 2`,
    )
  ).rows;
  await page.reload();
  await toQueue(page);
  const table = page.getByRole('table', { name: 'Pedidos abertos na fila de revisão' });
  await expect(table.getByRole('row').nth(1)).toHaveAttribute(
    'data-testid',
    `queue-row-${oldest[0]!.id}`,
  );
  const merchant = menu(page, 'Lojista');
  await expect(merchant.locator('option')).not.toContainText(['Loja Sem Pedidos']);
  await expect(merchant).not.toContainText('(0)');

  // One click on the row (not on the text link, nor on the selection box #39.5) opens the item.
  await table.getByRole('row').nth(1).getByRole('cell').nth(1).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(`Pedido #${oldest[0]!.id}`);
  // The item's keys act once the agent holds it (the claim is one round trip after opening).
  await expect(page.getByRole('button', { name: /^Descartar/ })).toBeEnabled();
  await page.keyboard.press('d');
  const discard = page.getByRole('dialog', { name: 'Descartar este pedido?' });
  await discard.getByLabel('Mensagem de teste').check();
  await discard.getByRole('button', { name: 'Descartar' }).click();
  await expect(page.getByTestId('discarded')).toBeVisible();
  await expect(page.getByTestId('next-item')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).not.toContainText(
    `Pedido #${oldest[0]!.id}`,
  );
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Pedido #');
  // J inside an item opens the next one.
  const here = await page.getByRole('heading', { level: 1 }).textContent();
  await page.getByRole('heading', { level: 1 }).click();
  await page.keyboard.press('j');
  await expect(page.getByRole('heading', { level: 1 })).not.toHaveText(here ?? '');
});
