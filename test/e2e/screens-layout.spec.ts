/**
 * #13 — every screen fits the window: no document overflow at 1366×768 (the status bar stays at
 * the bottom, pages scroll inside the content area), and at 1920×1080 the content uses the
 * width. Screenshots of every screen at both sizes are kept as CI artifacts (test-results/).
 */
import type { Page, TestInfo } from '@playwright/test';
import { test, expect } from './support/fixtures';

const SIZES = [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
] as const;

interface Screen {
  name: string;
  open: (page: Page) => Promise<void>;
}

async function go(page: Page, hash: string, heading: string | RegExp) {
  await page.evaluate((h) => (window.location.hash = h), hash);
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
}

function screens(itemId: number): Screen[] {
  return [
    {
      name: 'fila',
      open: async (page) => {
        await go(page, '#/fila', 'Fila de revisão');
        await expect(page.getByRole('row').nth(1)).toBeVisible();
      },
    },
    ...(['resolvida', 'descartada'] as const).map((view) => ({
      name: `fila-${view}s`,
      open: async (page: Page) => {
        await go(page, '#/fila', 'Fila de revisão');
        // The views are tabs (#42.9).
        await page
          .getByRole('tablist', { name: 'Pedidos da fila' })
          .getByTestId(`view-${view}`)
          .click();
        // Rows, or the view's own empty state (never the open queue's "Fila vazia").
        const empty = view === 'resolvida' ? 'Nenhum pedido resolvido' : 'Nenhum pedido descartado';
        await expect(page.getByRole('row').nth(1).or(page.getByText(empty)).first()).toBeVisible();
        await expect(page.getByText('Fila vazia')).toHaveCount(0);
      },
    })),
    {
      name: 'pedido',
      open: async (page) => {
        await go(page, `#/fila/${itemId}`, new RegExp(`Pedido #${itemId}`));
        await expect(page.getByTestId('attempt-1')).toBeVisible();
      },
    },
    {
      name: 'vendas-por-hora',
      open: async (page) => {
        await go(page, '#/vendas', 'Vendas');
        if (!(await page.getByTestId('sales-merchant').isVisible())) {
          const picker = page.getByRole('combobox', { name: 'Lojista' });
          await picker.fill('a');
          await expect(page.getByRole('option').first()).toBeVisible();
          await picker.press('Enter');
        }
        await page.getByTestId('chip-periodo').click();
        await page.getByTestId('preset-ultimos_30_dias').click();
        await page.getByTestId('chip-agrupar').selectOption('hora');
        await expect(page.getByTestId('result-chart')).toBeVisible();
        await expect(page.getByTestId('totals-row')).toBeVisible();
      },
    },
    {
      name: 'cobrancas',
      open: (page) => go(page, '#/cobrancas', 'Cobranças'),
    },
    {
      name: 'relatorio-falhas',
      open: async (page) => {
        await go(page, '#/relatorio', 'Falhas de validação');
        await expect(page.getByTestId('report-rules')).toBeVisible();
      },
    },
    {
      name: 'relatorio-perguntas',
      open: (page) => go(page, '#/relatorio/perguntas', 'Relatório: perguntas de vendas'),
    },
    {
      name: 'configuracoes',
      open: (page) => go(page, '#/configuracoes', 'Configurações'),
    },
  ];
}

async function measure(page: Page) {
  // Fonts, charts and late rows settle before measuring: no request in flight, fonts loaded,
  // and two frames painted after that.
  await page.waitForLoadState('networkidle');
  await page.evaluate(async () => {
    await document.fonts.ready;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  });
  return page.evaluate(() => {
    const doc = document.documentElement;
    const pageEl = document.querySelector('.page');
    const bar = document.querySelector('.statusbar');
    return {
      scrollHeight: Math.max(doc.scrollHeight, document.body.scrollHeight),
      scrollWidth: Math.max(doc.scrollWidth, document.body.scrollWidth),
      innerHeight: window.innerHeight,
      innerWidth: window.innerWidth,
      pageWidth: pageEl ? pageEl.getBoundingClientRect().width : 0,
      barBottom: bar ? bar.getBoundingClientRect().bottom : 0,
      // What sticks out below the window outside the scrolling content area (for the message).
      offenders: [...document.body.querySelectorAll('*')]
        .filter(
          (el) =>
            !el.closest('.content') ||
            el.classList.contains('content') ||
            getComputedStyle(el).position === 'absolute',
        )
        .filter((el) => el.getBoundingClientRect().bottom > window.innerHeight + 1)
        .slice(0, 3)
        .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`),
    };
  });
}

for (const size of SIZES) {
  test(`every screen fits ${size.width}×${size.height}; screenshots kept`, async ({
    page,
    testDb,
    consoleErrors,
  }, info: TestInfo) => {
    test.setTimeout(120_000);
    await page.setViewportSize(size);
    const item = (
      await testDb.admin.query<{ id: number }>(
        `SELECT e.id FROM extracoes e
          WHERE e.fila_estado = 'aberta'
            AND EXISTS (SELECT 1 FROM extracao_tentativas t WHERE t.extracao_id = e.id)
          ORDER BY e.tentativas DESC, e.id LIMIT 1`,
      )
    ).rows[0]!;
    const problems: string[] = [];
    for (const s of screens(item.id)) {
      await s.open(page);
      const m = await measure(page);
      await page.screenshot({
        path: info.outputPath(`${s.name}-${size.width}x${size.height}.png`),
      });
      if (m.scrollHeight > m.innerHeight) {
        problems.push(
          `${s.name}: documento com ${m.scrollHeight}px de altura (janela ${m.innerHeight}): ${m.offenders.join(', ')}`,
        );
      }
      if (m.scrollWidth > m.innerWidth) {
        problems.push(
          `${s.name}: documento com ${m.scrollWidth}px de largura (janela ${m.innerWidth})`,
        );
      }
      if (Math.round(m.barBottom) !== m.innerHeight) {
        problems.push(`${s.name}: barra de status termina em ${m.barBottom}px`);
      }
      // At 1920 the page uses the width (sidebar 212 px + padding), not a 1400 px column.
      if (size.width === 1920 && m.pageWidth < 1650) {
        problems.push(`${s.name}: conteúdo com só ${m.pageWidth}px de largura`);
      }
    }
    expect(problems).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
}
