import { startBridge } from '../bridge/server';
import {
  expect,
  freshTestDatabase,
  makeServiceDeps,
  openApp,
  openSecondDesktop,
  test,
} from './support/fixtures';

const PIX_TEXT = 'faz um pix de R$ 1.200 parcelado em 4x pra Ana Costa, vencimento dia 20';
const PIX_RULE = 'Pix e boleto aceitam só 1 parcela. Parcelamento só no cartão.';

/** Intl writes a no-break space after "R$"; read text as people do. */
const plain = (s: string | null) => (s ?? '').replace(/\u00a0/g, ' ');

test.describe('review queue', () => {
  test('triage: open, read the attempt timeline, fix a field that breaks a rule, confirm, see the charge', async ({
    page,
    testDb,
    consoleErrors,
    network,
  }, testInfo) => {
    const item = (
      await testDb.admin.query<{ id: number; nome: string; vencimento: string }>(
        `SELECT e.id, m.nome, e.dados->>'vencimento' AS vencimento
           FROM extracoes e JOIN merchants m ON m.id = e.merchant_id WHERE e.texto = $1`,
        [PIX_TEXT],
      )
    ).rows[0]!;

    // Find it in the queue by searching the text, open it from the keyboard.
    const search = page.getByRole('searchbox', { name: 'Buscar no texto das mensagens' });
    await search.fill('Ana Costa');
    const table = page.getByRole('table', { name: 'Pedidos abertos na fila de revisão' });
    await expect(table.getByRole('row')).toHaveCount(2);
    const row = table.getByTestId(`queue-row-${item.id}`);
    await expect(row).toContainText(item.nome);
    await expect(row).toContainText(PIX_RULE);
    await search.press('Enter');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`#/fila/${item.id}$`));
    await expect(page.getByRole('heading', { level: 1 })).toContainText(`Pedido #${item.id}`);
    await expect(page.getByTestId('original-text')).toHaveText(PIX_TEXT);

    // The timeline: three attempts, each rejected by the Pix rule; the third changed parcelas.
    const timeline = page.getByRole('list', { name: 'Tentativas do modelo' });
    await expect(timeline.locator(':scope > li')).toHaveCount(3);
    // Tokens and cost sit behind a disclosure (agents do not need them to work the item).
    const usage = page.getByTestId('usage-details');
    await usage.getByText('Detalhes técnicos (tokens e custo)').click();
    for (const n of [1, 2, 3]) {
      await expect(page.getByTestId(`attempt-${n}`)).toContainText(PIX_RULE);
      await expect(usage.getByRole('row').nth(n)).toContainText(/^\s*\d.*US\$ 0,0\d{3}/);
    }
    await expect(page.getByTestId('attempt-2')).toContainText('O modelo repetiu a mesma resposta.');
    await expect(page.getByTestId('attempt-3')).toContainText('Parcelas 4x → 2x');

    // The form holds the model's last version and shows the broken rule at its field, live.
    const form = page.getByRole('form', { name: 'Dados da cobrança' });
    const parcelas = form.getByLabel('Parcelas');
    await expect(parcelas).toHaveValue('2');
    await expect(parcelas).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByRole('alert').filter({ hasText: PIX_RULE })).toBeVisible();
    const confirm = page.getByRole('button', { name: /Confirmar e criar cobrança/ });
    await expect(confirm).toBeDisabled();

    // Typing an amount below the minimum shows the engine's range rule at the amount.
    const valor = form.getByLabel('Valor (R$)');
    await valor.fill('0,50');
    await expect(
      form
        .getByRole('alert')
        .filter({ hasText: 'O valor deve ficar entre R$ 1,00 e R$ 100.000,00' }),
    ).toBeVisible();
    await valor.fill('1.200,00');
    await expect(form.getByText(/O valor deve ficar entre/)).toHaveCount(0);

    // Fix the installments: the message goes away and the charge can be created.
    await parcelas.fill('1');
    await expect(form.getByText(PIX_RULE)).toHaveCount(0);
    await expect(parcelas).not.toHaveAttribute('aria-invalid', 'true');
    await expect(confirm).toBeEnabled();

    // The confirmation reads the charge as a person would and lists what the agent changed.
    await page.keyboard.press('Control+Enter');
    const dialog = page.getByRole('dialog', { name: 'Criar esta cobrança?' });
    await expect(dialog).toBeVisible();
    const weekday = new Intl.DateTimeFormat('pt-BR', { weekday: 'short', timeZone: 'UTC' }).format(
      new Date(`${item.vencimento}T12:00:00Z`),
    );
    const [y, mo, d] = item.vencimento.split('-');
    expect(plain(await dialog.getByTestId('charge-line').textContent())).toBe(
      `R$ 1.200,00 no Pix · Ana Costa · vence ${weekday}, ${d}/${mo}/${y}`,
    );
    await expect(dialog.getByTestId('confirm-changes')).toHaveText('Parcelas: 2x → 1x');
    await page.screenshot({ path: testInfo.outputPath('triagem-confirmacao.png') });
    await dialog.getByRole('button', { name: 'Criar cobrança' }).click();

    await expect(page.getByTestId('created-charge')).toContainText('Cobrança #');
    await expect(page.getByTestId('created-charge')).toContainText('Por agente.teste');
    await expect(page.getByTestId('created-charge')).toContainText('Parcelas: 2x → 1x');

    // Exactly one charge, with the override diff, and its audit entry.
    const charges = await testDb.admin.query(
      'SELECT valor_centavos, parcelas, metodo, alteracoes, criada_por FROM cobrancas WHERE extracao_id = $1',
      [item.id],
    );
    expect(charges.rows).toEqual([
      {
        valor_centavos: 120000,
        parcelas: 1,
        metodo: 'pix',
        alteracoes: { parcelas: { modelo: 2, agente: 1 } },
        criada_por: 'agente.teste',
      },
    ]);
    const audit = await testDb.admin.query<{ acao: string }>(
      `SELECT acao FROM auditoria WHERE extracao_id = $1 AND acao = 'cobranca_criada'`,
      [item.id],
    );
    expect(audit.rowCount).toBe(1);

    // The charges list shows it: who, merchant, amount, method, due date, overridden field.
    await page.getByRole('link', { name: /^Cobranças/ }).click();
    const list = page.getByTestId('charges-table');
    const chargeRow = list.getByRole('row').filter({ hasText: 'Ana Costa' });
    await expect(chargeRow).toHaveCount(1);
    const text = plain(await chargeRow.textContent());
    expect(text).toContain('agente.teste');
    expect(text).toContain(item.nome);
    expect(text).toContain('R$ 1.200,00');
    expect(text).toContain('Pix');
    expect(text).toContain(`${d}/${mo}/${y}`);
    expect(text).toContain('Parcelas: 2x → 1x');
    await page.screenshot({ path: testInfo.outputPath('triagem-cobrancas.png'), fullPage: true });
    await testInfo.attach('triagem-cobrancas', {
      path: testInfo.outputPath('triagem-cobrancas.png'),
      contentType: 'image/png',
    });

    // Back in the queue, the item is gone from the open list.
    await page.keyboard.press('Alt+1');
    await page.getByRole('searchbox', { name: 'Buscar no texto das mensagens' }).fill('Ana Costa');
    await expect(page.getByText('Nenhum pedido com esses filtros')).toBeVisible();
    expect(consoleErrors).toEqual([]);
    expect(network.blocked).toEqual([]);
  });

  test('another agent sees "em análise por" and cannot act; discard with a reason from the keyboard', async ({
    page,
    testDb,
    browser,
  }) => {
    const item = (
      await testDb.admin.query<{ id: number }>(
        `SELECT id FROM extracoes WHERE texto LIKE 'cobra a Fernanda%'`,
      )
    ).rows[0]!;
    // Bia works in her own copy of the app against the same database.
    const bia = await openSecondDesktop(browser, testDb, 'Bia', `#/fila/${item.id}`, {
      width: 1360,
      height: 860,
    });
    const biaPage = bia.page;
    try {
      await expect(biaPage.getByRole('heading', { level: 1 })).toContainText(`Pedido #${item.id}`);
      await expect(biaPage.getByRole('button', { name: /Descartar/ })).toBeEnabled();

      // Ana (this page) opens the same item: Bia has it.
      await page.evaluate((id) => (window.location.hash = `#/fila/${id}`), item.id);
      await expect(page.getByTestId('lease-banner')).toContainText('Em análise por Bia');
      await expect(page.getByRole('button', { name: /Descartar/ })).toBeDisabled();
      await expect(
        page.getByRole('form', { name: 'Dados da cobrança' }).getByLabel('Cliente'),
      ).toBeDisabled();
      // In the list too.
      await page.keyboard.press('Escape');
      await page.getByRole('searchbox', { name: 'Buscar no texto das mensagens' }).fill('Fernanda');
      await expect(page.getByTestId(`queue-row-${item.id}`)).toContainText('em análise por Bia');

      // Bia asks the merchant: the question comes from `faltando`.
      await biaPage.keyboard.press('p');
      const ask = biaPage.getByRole('dialog', { name: 'Perguntar ao lojista' });
      await expect(ask.getByTestId('question')).toHaveText(
        'Qual o valor da cobrança, o número de parcelas e a data de vencimento?',
      );
      await ask.getByLabel('Resposta do lojista').fill('são 90 reais em 2x, vence dia 10');
      await ask.getByRole('button', { name: 'Registrar resposta e refazer' }).click();
      // No API key in this app: said clearly; the agent fills the fields by hand.
      await expect(ask.getByRole('status')).toContainText(
        'Nenhuma chave da API da Anthropic configurada',
      );
      await expect(ask.getByRole('status')).toContainText('preencha os campos à mão');
      await biaPage.keyboard.press('Escape');
      await expect(ask).toBeHidden();

      // Bia discards it, from the keyboard, with a reason.
      await biaPage.keyboard.press('d');
      const discard = biaPage.getByRole('dialog', { name: 'Descartar este pedido?' });
      await discard.getByLabel('Outro motivo').check();
      await discard.getByRole('button', { name: 'Descartar' }).click();
      await expect(
        discard.getByText('Descreva o motivo quando escolher "Outro motivo".'),
      ).toBeVisible();
      await discard.getByLabel(/Detalhe/).fill('lojista pediu por telefone');
      await discard.getByRole('button', { name: 'Descartar' }).click();
      // A final action stays on the item, its outcome shown, with "Próximo pedido" focused (#13).
      await expect(biaPage.getByTestId('discarded')).toBeVisible();
      await expect(biaPage.getByTestId('next-item')).toBeFocused();

      const row = (
        await testDb.admin.query(
          'SELECT fila_estado, descarte_motivo, descarte_detalhe, resolvida_por FROM extracoes WHERE id = $1',
          [item.id],
        )
      ).rows[0];
      expect(row).toEqual({
        fila_estado: 'descartada',
        descarte_motivo: 'outro',
        descarte_detalhe: 'lojista pediu por telefone',
        resolvida_por: 'Bia',
      });
      const trail = await testDb.admin.query<{ operador: string; acao: string }>(
        `SELECT operador, acao FROM auditoria WHERE extracao_id = $1 AND acao <> 'liberou' ORDER BY id`,
        [item.id],
      );
      expect(trail.rows.map((r) => `${r.operador}:${r.acao}`)).toEqual([
        'Bia:assumiu',
        'Bia:resposta_registrada',
        'Bia:descartada',
      ]);
    } finally {
      await bia.close();
    }
  });

  test('keyboard: move through the list, open, close; the help overlay lists the queue keys', async ({
    page,
  }) => {
    const table = page.getByRole('table', { name: 'Pedidos abertos na fila de revisão' });
    await expect(table.getByRole('row').nth(1)).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('k');
    const second = table.getByRole('row').nth(2);
    await expect(second).toHaveAttribute('aria-selected', 'true');
    const id = (await second.getAttribute('data-testid'))!.replace('queue-row-', '');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`#/fila/${id}$`));
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Atalhos de teclado' });
    for (const t of [
      'Confirmar e criar cobrança',
      'Descartar com motivo',
      'Perguntar ao lojista',
      'Fechar o pedido e voltar à fila',
      'Editar os campos',
    ]) {
      await expect(help).toContainText(t);
    }
    await page.keyboard.press('Escape');
    await expect(help).toBeHidden();

    // Edit from the keyboard and keep a draft: e, type, Ctrl+S; Esc leaves the field, Esc closes.
    await page.keyboard.press('e');
    const valor = page.getByRole('form', { name: 'Dados da cobrança' }).getByLabel('Valor (R$)');
    await expect(valor).toBeFocused();
    await valor.fill('777');
    await page.keyboard.press('Control+s');
    await expect(page.getByText('Rascunho salvo.', { exact: false })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(valor).not.toBeFocused();
    await expect(page).toHaveURL(new RegExp(`#/fila/${id}$`));
    await page.keyboard.press('Escape');
    await expect(page.getByRole('heading', { level: 1, name: 'Fila de revisão' })).toBeVisible();
    await expect(table.getByRole('row').nth(2)).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Enter');
    await expect(
      page.getByRole('form', { name: 'Dados da cobrança' }).getByLabel('Valor (R$)'),
    ).toHaveValue('777,00');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('heading', { level: 1, name: 'Fila de revisão' })).toBeVisible();
    await page.keyboard.press('?');
    for (const t of [
      'Próximo pedido',
      'Pedido anterior',
      'Abrir o pedido selecionado',
      'Buscar no texto',
    ]) {
      await expect(help).toContainText(t);
    }
  });

  test('Falhas de validação: extractions of the period by status, failing rules with examples, a chart', async ({
    page,
    testDb,
  }, testInfo) => {
    const db = (
      await testDb.admin.query<{ total: number; falhou: number }>(
        `SELECT count(*)::int AS total, count(*) FILTER (WHERE status = 'falhou')::int AS falhou
           FROM extracoes
          WHERE criada_em >= '2026-11-01T03:00:00Z' AND criada_em < '2026-12-01T03:00:00Z'`,
      )
    ).rows[0]!;
    expect(db.total).toBeGreaterThan(0);
    await page.getByRole('link', { name: /^Relatório/ }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Relatório: falhas de validação',
    );
    // One default for every report (#42.9): the last 30 days, here and in "Perguntas".
    await expect(page.getByRole('button', { name: 'Últimos 30 dias' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    const report = page.getByTestId('report');
    await expect(report.locator('.report-kpi').first()).toContainText('Extrações');
    await expect(report.locator('.report-kpi').first()).toContainText(String(db.total));
    await expect(report.locator('.report-kpi').nth(1)).toContainText(String(db.falhou));
    // The chart drew bars for the days with extractions.
    const chart = report.getByRole('img', { name: /Gráfico de extrações/ });
    await expect(chart.locator('.recharts-bar-rectangle').first()).toBeVisible();
    await expect(chart.locator('.recharts-legend-wrapper')).toContainText('Falhou');
    const rules = page.getByTestId('report-rules');
    // #42.6: the rule by its name for people, never its code.
    await expect(rules).toContainText('Parcelamento em Pix ou boleto');
    await expect(rules).not.toContainText('parcelas_pix_boleto');
    await expect(rules).toContainText('Pix e boleto aceitam só 1 parcela');
    await expect(rules.getByRole('link').first()).toHaveAttribute('href', /#\/fila\/\d+$/);
    await page.screenshot({ path: testInfo.outputPath('relatorio.png'), fullPage: true });
    // A period chosen in one tab is the period of the other.
    await page.getByRole('button', { name: 'Últimos 7 dias' }).click();
    await page.getByRole('tab', { name: 'Perguntas' }).click();
    await expect(page.getByRole('button', { name: 'Últimos 7 dias' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  });

  test('a long queue: rows are virtualized and keyset pages load while scrolling', async ({
    browser,
  }) => {
    const db = await freshTestDatabase();
    const bridge = await startBridge({ deps: makeServiceDeps(db) });
    const context = await browser.newContext({
      locale: 'pt-BR',
      viewport: { width: 1360, height: 860 },
    });
    try {
      await db.admin.query(`INSERT INTO merchants (id, nome) VALUES (1, 'Loja Longa')`);
      await db.admin.query(
        `INSERT INTO extracoes (merchant_id, texto, status, erros, tentativas, criada_em)
         SELECT 1, 'pedido número ' || i, 'falhou',
                '[{"campo":"parcelas","regra":"parcelas_faixa","mensagem":"Parcelas fora da faixa."}]', 3,
                now() - i * interval '1 minute'
           FROM generate_series(1, 1200) i`,
      );
      const page = await context.newPage();
      await openApp(page, bridge);
      await expect(page.getByRole('button', { name: 'Todos (1200)' })).toBeVisible();
      const table = page.getByRole('table', { name: 'Pedidos abertos na fila de revisão' });
      await expect(table).toHaveAttribute('aria-rowcount', '50');
      const scroller = page.getByTestId('queue-table');
      for (let i = 0; i < 60; i++) {
        if ((await table.getAttribute('aria-rowcount')) === '1200') break;
        await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight));
        await page.waitForTimeout(100);
      }
      await expect(table).toHaveAttribute('aria-rowcount', '1200');
      await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight));
      // Only the rows in view (plus overscan) are in the DOM, and the last one is there.
      expect(await table.locator('tbody tr').count()).toBeLessThan(60);
      // (oldest first by default since #13: the last row is the newest, "pedido número 1")
      await expect(
        table.getByRole('row').filter({ hasText: /pedido número 1(?!\d)/ }),
      ).toBeVisible();
      // Every page after the first came from a keyset cursor, none repeated.
      const cursors = bridge.calls
        .filter((c) => c.channel === 'review/list')
        .map((c) => (c.input as { cursor?: string | null }).cursor ?? null);
      const pages = cursors.filter((c) => c !== null);
      expect(pages.length).toBe(23);
      expect(new Set(pages).size).toBe(pages.length);
    } finally {
      await context.close();
      await bridge.close();
      await db.drop();
    }
  });
});
