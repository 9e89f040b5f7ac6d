/**
 * #40.3, #42.5 — dense tables fit at 1366×768 and 1920×1080: on every table of the app (queue
 * views, Cobranças, the sales result, the reports, an item's tokens) and in every row, no cell's
 * content reaches into its neighbour, every cell lies inside the table's visible box (nothing
 * needs a horizontal scroll to be seen), no column is empty, and a cell whose text is cut shows
 * an ellipsis and carries the full text in its title. Also the #42.5 cases: the "Aguardando
 * lojista · há N h" badge shows the age, every select shows its whole chosen text, and table
 * headers are never cut. Screenshots of every screen at both sizes are kept (test-results/).
 */
import type { Page, TestInfo } from '@playwright/test';
import { TOOL_CONSULTAR_VENDAS } from '@shared/sales-dsl';
import { TOOL_ESCREVER_SQL } from '../../src-main/sales/free-sql/fallback';
import { toolUseReply } from '../support/fake-anthropic';
import type { TestDatabase } from '../support/testdb';
import {
  test as demoTest,
  expect,
  fakeApiFixtures,
  ownDatabase,
  type FakeApiFixtures,
} from './support/fixtures';

// This spec holds, discards and renames demo items: it runs on a database of its own, so the
// other specs' picks of "the open item with a failed rule" never meet its held item.
const test = demoTest.extend(ownDatabase);

const SIZES = [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
] as const;

/** Long, real-looking values: what makes a column too narrow. */
const LONG_MERCHANT = 'Distribuidora de Materiais de Construção Irmãos Albuquerque Ltda';
const LONG_AGENT = 'maria.fernanda.albuquerque';
const LONG_CLIENT = 'Maria Aparecida dos Santos Oliveira Cavalcanti';

interface Seeded {
  waitingId: number;
}

async function seed(db: TestDatabase): Promise<Seeded> {
  const q = <T extends object>(sql: string, values: unknown[] = []) =>
    db.admin.query<T>(sql, values).then((r) => r.rows);
  // A merchant with a long name, with open items in the queue.
  const [m] = await q<{ id: number }>(
    `SELECT merchant_id AS id FROM extracoes WHERE fila_estado = 'aberta'
      GROUP BY merchant_id ORDER BY count(*) DESC, merchant_id LIMIT 1`,
  );
  await q('UPDATE merchants SET nome = $2 WHERE id = $1', [m!.id, LONG_MERCHANT]);
  const open = await q<{ id: number }>(
    `SELECT id FROM extracoes WHERE fila_estado = 'aberta' ORDER BY criada_em DESC, id DESC`,
  );
  // One item waits for the merchant (the badge says for how long), one is held by an agent.
  const waitingId = open[0]!.id;
  await q(
    `UPDATE extracoes SET aguardando_desde = now() - interval '5 hours 10 minutes' WHERE id = $1`,
    [waitingId],
  );
  await q(
    `UPDATE extracoes SET lease_operador = $2, lease_token = gen_random_uuid(),
            lease_expira_em = now() + interval '1 hour' WHERE id = $1`,
    [open[1]!.id, LONG_AGENT],
  );
  // One discarded with a long detail.
  await q(
    `UPDATE extracoes SET fila_estado = 'descartada', descarte_motivo = 'outro',
            descarte_detalhe = $2, resolvida_por = $3, resolvida_em = now() WHERE id = $1`,
    [
      open[2]!.id,
      'O lojista pediu por telefone para cancelar; a cobrança foi feita na maquininha da loja.',
      LONG_AGENT,
    ],
  );
  // Charges, created from resolved items: long names, installments, the agent's changes.
  const charges: [string, number, number, string, string, string, object][] = [
    // cliente, valor, parcelas, metodo, vencimento, criada_em, alteracoes
    [
      LONG_CLIENT,
      123456,
      12,
      'cartao',
      '2026-12-25',
      '2026-11-27T18:56:00Z',
      {
        valor_centavos: { modelo: 12345, agente: 123456 },
        vencimento: { modelo: '2026-12-04', agente: '2026-12-25' },
        cliente_nome: { modelo: 'Maria', agente: LONG_CLIENT },
      },
    ],
    ['João Silva', 15000, 1, 'pix', '2026-12-04', '2026-11-28T12:00:00Z', {}],
    [
      'Ana',
      9876543,
      3,
      'cartao',
      '2026-11-20',
      '2026-11-18T15:00:00Z',
      { parcelas: { modelo: 1, agente: 3 } },
    ],
  ];
  for (const [cliente, valor, parcelas, metodo, vencimento, criadaEm, alteracoes] of charges) {
    const [e] = await q<{ id: number }>(
      `INSERT INTO extracoes (merchant_id, texto, status, fila_estado, criada_em, resolvida_por,
         resolvida_em)
       VALUES ($1, $2, 'completo', 'resolvida', $3, $4, $3) RETURNING id`,
      [
        m!.id,
        `cobra ${cliente}, ${parcelas}x no ${metodo}, vence ${vencimento}`,
        criadaEm,
        LONG_AGENT,
      ],
    );
    await q(
      `INSERT INTO cobrancas (extracao_id, merchant_id, valor_centavos, parcelas, metodo,
         cliente_nome, vencimento, descricao, alteracoes, criada_por, criada_em)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        e!.id,
        m!.id,
        valor,
        parcelas,
        metodo,
        cliente,
        vencimento,
        'Material de construção: cimento, areia e tijolos',
        JSON.stringify(alteracoes),
        LONG_AGENT,
        criadaEm,
      ],
    );
  }
  // Quality samples (#39.4): every charge above sampled; all but the last judged (one wrong
  // field), so the review shows one and the "Qualidade" report has figures.
  await q(
    `INSERT INTO qualidade_amostras (cobranca_id, extracao_id, modelo, versao_prompt, origem,
       ordem, motivo, julgada_por, julgada_em)
     SELECT id, extracao_id, 'claude-sonnet-4-6', 'p-3f9a1c2b7d', 'agente',
            row_number() OVER (ORDER BY id), 'inicial',
            CASE WHEN id < max(id) OVER () THEN $1 END,
            CASE WHEN id < max(id) OVER () THEN now() END
       FROM cobrancas`,
    [LONG_AGENT],
  );
  await q(
    `INSERT INTO qualidade_julgamentos (cobranca_id, campo, certo)
     SELECT a.cobranca_id, f.campo, NOT (f.campo = 'cliente_nome' AND a.ordem = 1)
       FROM qualidade_amostras a,
            unnest(ARRAY['valor_centavos', 'parcelas', 'metodo', 'cliente_nome', 'vencimento',
                         'descricao']) AS f (campo)
      WHERE a.julgada_em IS NOT NULL`,
  );
  // Sales questions for the "Perguntas" report: answered, unanswered, a chip corrected.
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
  const questions: [string, string | null, string, string | null, string | null, string][] = [
    // origem, pergunta, resultado, consulta, sessao, criada_em
    [
      'pergunta',
      'quanto vendi ontem?',
      'respondida',
      consulta(),
      'w1',
      '2026-11-29T10:00:00-03:00',
    ],
    [
      'dsl',
      null,
      'respondida',
      consulta({ metrica: 'total_liquido', modalidades: ['credito_parcelado', 'pix'] }),
      'w1',
      '2026-11-29T10:01:00-03:00',
    ],
    [
      'pergunta',
      'qual foi a maior venda no crédito parcelado em doze vezes do mês passado, por bandeira e por hora do dia?',
      'esclarecimento',
      null,
      null,
      '2026-11-28T10:00:00-03:00',
    ],
  ];
  for (const [origem, pergunta, resultado, c, sessao, criadaEm] of questions) {
    await q(
      `INSERT INTO consultas_vendas (merchant_id, operador, origem, pergunta, dsl, consulta,
         resultado, duracao_ms, sessao, criada_em)
       VALUES ($1, 'ana', $2, $3, NULL, $4, $5, 5, $6, $7)`,
      [m!.id, origem, pergunta, c, resultado, sessao, criadaEm],
    );
  }
  return { waitingId };
}

async function go(page: Page, hash: string, heading: string | RegExp) {
  await page.evaluate((h) => (window.location.hash = h), hash);
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
}

interface Screen {
  name: string;
  open: (page: Page) => Promise<void>;
  /** How many tables the screen shows at least. */
  tables: number;
}

async function chooseMerchant(page: Page) {
  if (!(await page.getByTestId('sales-merchant').isVisible())) {
    const picker = page.getByRole('combobox', { name: 'Lojista' });
    await picker.fill('a');
    await expect(page.getByRole('option').first()).toBeVisible();
    await picker.press('Enter');
  }
}

function screens(itemId: number, waitingId: number): Screen[] {
  const queueView = (view: 'aberta' | 'resolvida' | 'descartada'): Screen => ({
    name: `fila-${view}`,
    tables: 1,
    open: async (page) => {
      await go(page, '#/fila', 'Fila de revisão');
      await page
        .getByRole('tablist', { name: 'Pedidos da fila' })
        .getByTestId(`view-${view}`)
        .click();
      await expect(page.getByRole('row').nth(1)).toBeVisible();
      if (view === 'aberta') {
        // The waiting item's badge says how long (#42.5); the walk below checks it is not cut.
        await expect(page.getByTestId(`queue-row-${waitingId}`).locator('.badge')).toHaveText(
          'Aguardando lojista · há 5 h',
        );
      }
    },
  });
  return [
    queueView('aberta'),
    queueView('resolvida'),
    queueView('descartada'),
    {
      name: 'cobrancas',
      tables: 1,
      open: async (page) => {
        await go(page, '#/cobrancas', 'Cobranças');
        await expect(page.getByTestId('charges-table').locator('tbody tr')).toHaveCount(3);
      },
    },
    {
      name: 'pedido-tokens',
      tables: 1,
      open: async (page) => {
        await go(page, `#/fila/${itemId}`, new RegExp(`Pedido #${itemId}`));
        await page.getByText('Detalhes técnicos (tokens e custo)').click();
        await expect(page.getByTestId('usage-details').locator('table')).toBeVisible();
      },
    },
    ...(['hora', 'modalidade'] as const).map((g): Screen => ({
      name: `vendas-por-${g}`,
      tables: 1,
      open: async (page) => {
        await go(page, '#/vendas', 'Vendas');
        await chooseMerchant(page);
        await page.getByTestId('chip-periodo').click();
        await page.getByTestId('preset-ultimos_30_dias').click();
        await page.getByTestId('chip-agrupar').selectOption(g);
        await expect(page.getByTestId('result-table')).toBeVisible();
        await expect(page.getByTestId('totals-row')).toBeVisible();
      },
    })),
    {
      name: 'relatorio-falhas',
      tables: 3,
      open: async (page) => {
        await go(page, '#/relatorio', 'Relatório: falhas de validação');
        await expect(page.getByTestId('report-rules')).toBeVisible();
      },
    },
    {
      name: 'relatorio-perguntas',
      tables: 4,
      open: async (page) => {
        await go(page, '#/relatorio/perguntas', 'Relatório: perguntas de vendas');
        await expect(page.getByTestId('questions-recent')).toBeVisible();
      },
    },
    {
      name: 'relatorio-qualidade',
      tables: 1,
      open: async (page) => {
        await go(page, '#/relatorio/qualidade', 'Relatório: qualidade da extração');
        await expect(page.getByTestId('quality-accuracy')).toBeVisible();
      },
    },
    {
      name: 'revisao-qualidade',
      tables: 1,
      open: async (page) => {
        await go(page, '#/relatorio/revisao-qualidade', 'Revisão de qualidade');
        await expect(page.getByTestId('quality-fields')).toBeVisible();
      },
    },
    {
      name: 'configuracoes',
      tables: 0,
      open: (page) => go(page, '#/configuracoes', 'Configurações'),
    },
  ];
}

/** Everything wrong with the tables, selects and badges of the page as it stands. */
async function layoutProblems(page: Page): Promise<{ tables: number; problems: string[] }> {
  await page.waitForLoadState('networkidle');
  await page.evaluate(async () => {
    await document.fonts.ready;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  });
  return page.evaluate(() => {
    const problems: string[] = [];
    const TOL = 1;
    const txt = (el: Element) => (el.textContent ?? '').replace(/\s+/g, ' ').trim();
    const clips = (el: Element) => {
      const s = getComputedStyle(el);
      return s.overflowX !== 'visible' || s.overflowY !== 'visible';
    };
    /** The visible box of what a cell paints: its text and boxes, cut by clipping ancestors. */
    const inkOf = (cell: Element) => {
      let left = Infinity;
      let right = -Infinity;
      const add = (r: DOMRect, node: Node) => {
        if (r.width === 0 && r.height === 0) return;
        let l = r.left;
        let rr = r.right;
        // Cut by every clipping ancestor up to (and including) the cell.
        for (
          let a: Element | null = node instanceof Element ? node.parentElement : node.parentElement;
          a && cell.contains(a);
          a = a.parentElement
        ) {
          if (clips(a)) {
            const b = a.getBoundingClientRect();
            l = Math.max(l, b.left);
            rr = Math.min(rr, b.right);
          }
        }
        if (rr > l) {
          left = Math.min(left, l);
          right = Math.max(right, rr);
        }
      };
      const walker = document.createTreeWalker(
        cell,
        NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT,
      );
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (n.nodeType === Node.TEXT_NODE) {
          if (!(n.textContent ?? '').trim()) continue;
          const range = document.createRange();
          range.selectNodeContents(n);
          for (const r of range.getClientRects()) add(r, n);
        } else if (n instanceof HTMLElement && n !== cell) {
          const s = getComputedStyle(n);
          if (s.display === 'inline' || s.visibility === 'hidden') continue;
          if (n.closest('.visually-hidden')) continue;
          add(n.getBoundingClientRect(), n);
        }
      }
      return Number.isFinite(left) ? { left, right } : null;
    };
    const label = (table: Element) =>
      table.getAttribute('data-testid') ??
      table.getAttribute('aria-label') ??
      table.closest('section')?.querySelector('h2')?.textContent ??
      'tabela';

    const tables = [...document.querySelectorAll('table')].filter(
      (t) => t.getBoundingClientRect().width > 0,
    );
    for (const table of tables) {
      const name = label(table);
      // The box the table is seen through: its scrolling wrapper, or the table itself.
      let box: Element = table;
      for (
        let a = table.parentElement;
        a && !a.classList.contains('content');
        a = a.parentElement
      ) {
        if (getComputedStyle(a).overflowX !== 'visible') {
          box = a;
          break;
        }
      }
      const boxRect = box.getBoundingClientRect();
      const content = document.querySelector('.content')!.getBoundingClientRect();
      if (boxRect.right > content.right + TOL || boxRect.left < content.left - TOL) {
        problems.push(`${name}: a tabela passa da área visível da página`);
      }
      if (box !== table && box.scrollWidth > box.clientWidth + TOL) {
        problems.push(
          `${name}: rolagem horizontal escondida (${box.scrollWidth}px em ${box.clientWidth}px)`,
        );
      }
      const visibleRight = boxRect.left + (box.clientLeft || 0) + box.clientWidth;
      const columnsWithText = new Map<number, boolean>();
      const rows = [...table.querySelectorAll('tr')];
      for (const [ri, row] of rows.entries()) {
        const cells = [...row.children].filter(
          (c): c is HTMLElement =>
            c instanceof HTMLElement && (c.tagName === 'TD' || c.tagName === 'TH'),
        );
        const where = (ci: number) => `${name}, linha ${ri + 1}, coluna ${ci + 1}`;
        for (const [ci, cell] of cells.entries()) {
          const rect = cell.getBoundingClientRect();
          const ink = inkOf(cell);
          const isHead = cell.closest('thead') !== null;
          if (!isHead && row.closest('tbody') && ink) columnsWithText.set(ci, true);
          else if (!isHead && row.closest('tbody') && !columnsWithText.has(ci))
            columnsWithText.set(ci, false);
          if (rect.left < boxRect.left - TOL || rect.right > visibleRight + TOL) {
            problems.push(`${where(ci)} ("${txt(cell).slice(0, 30)}"): fora da caixa visível`);
          }
          if (ink && (ink.left < rect.left - TOL || ink.right > rect.right + TOL)) {
            problems.push(`${where(ci)} ("${txt(cell).slice(0, 30)}"): o texto passa da célula`);
          }
          const next = cells[ci + 1];
          if (next && rect.right > next.getBoundingClientRect().left + TOL) {
            problems.push(`${where(ci)}: a célula cobre a vizinha`);
          }
          // Cut text: an ellipsis and the full text in a title (itself or an ancestor in the cell).
          for (const el of [cell, ...cell.querySelectorAll('*')]) {
            if (!(el instanceof HTMLElement) || !clips(el)) continue;
            if (el.closest('.visually-hidden')) continue;
            if (el.scrollWidth <= el.clientWidth + TOL) continue;
            const full = txt(el);
            if (isHead) {
              problems.push(`${where(ci)}: título da coluna cortado ("${full}")`);
              continue;
            }
            if (getComputedStyle(el).textOverflow !== 'ellipsis') {
              problems.push(`${where(ci)}: texto cortado sem reticências ("${full}")`);
            }
            // The title on the cut element, around it in the cell, or on the text inside it.
            const titles = [el.closest('[title]'), ...el.querySelectorAll('[title]')]
              .filter((t) => t !== null && cell.contains(t))
              .map((t) => t!.getAttribute('title') ?? '');
            if (!titles.some((t) => t.includes(full))) {
              problems.push(
                `${where(ci)}: texto cortado sem o texto inteiro no título ("${full}")`,
              );
            }
          }
        }
      }
      for (const [ci, has] of columnsWithText) {
        if (!has) problems.push(`${name}: a coluna ${ci + 1} está vazia em todas as linhas`);
      }
    }
    // Every select shows its whole chosen text (#42.5: "Claude Sonnet 4.6 (recomendado").
    const probe = document.createElement('span');
    probe.style.cssText = 'position:absolute;visibility:hidden;white-space:pre';
    document.body.append(probe);
    for (const sel of document.querySelectorAll('select')) {
      if (sel.getBoundingClientRect().width === 0) continue;
      const s = getComputedStyle(sel);
      probe.style.font = s.font;
      probe.textContent = sel.selectedOptions[0]?.textContent ?? '';
      // The dropdown arrow takes about 20 px inside the padding box.
      const room = sel.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight) - 20;
      if (probe.getBoundingClientRect().width > room + TOL) {
        problems.push(
          `seleção "${sel.getAttribute('aria-label') ?? sel.id ?? ''}" corta "${probe.textContent}"`,
        );
      }
    }
    probe.remove();
    // Badges are never cut (the age of "Aguardando lojista · há N h").
    for (const b of document.querySelectorAll('.badge')) {
      const r = b.getBoundingClientRect();
      if (r.width === 0) continue;
      let cut = b instanceof HTMLElement && b.scrollWidth > b.clientWidth + TOL;
      for (let a = b.parentElement; a && !cut; a = a.parentElement) {
        if (!clips(a)) continue;
        const ar = a.getBoundingClientRect();
        cut = r.right > ar.right + TOL || r.left < ar.left - TOL;
        if (a.tagName === 'TD' || a.tagName === 'TH') break;
      }
      if (cut) problems.push(`selo cortado: "${txt(b)}"`);
    }
    return { tables: tables.length, problems };
  });
}

/** The screen, then each of its tables (scrolled into view), for people to look at. */
async function shots(page: Page, info: TestInfo, name: string) {
  await page.screenshot({ path: info.outputPath(`${name}.png`) });
  const tables = page.locator('table');
  for (let i = 0; i < (await tables.count()); i++) {
    await tables.nth(i).screenshot({ path: info.outputPath(`${name}-tabela-${i + 1}.png`) });
  }
}

let seeded: Seeded;
test.beforeAll(async ({ testDb }) => {
  seeded = await seed(testDb);
});

for (const size of SIZES) {
  test(`tables, selects and badges fit at ${size.width}×${size.height}`, async ({
    page,
    testDb,
    consoleErrors,
  }, info: TestInfo) => {
    test.setTimeout(120_000);
    await page.setViewportSize(size);
    const [item] = (
      await testDb.admin.query<{ id: number }>(
        `SELECT e.id FROM extracoes e
          WHERE e.fila_estado = 'aberta' AND e.lease_operador IS NULL
            AND EXISTS (SELECT 1 FROM extracao_tentativas t WHERE t.extracao_id = e.id)
          ORDER BY e.tentativas DESC, e.id LIMIT 1`,
      )
    ).rows;
    const problems: string[] = [];
    for (const s of screens(item!.id, seeded.waitingId)) {
      await s.open(page);
      const m = await layoutProblems(page);
      await shots(page, info, `${s.name}-${size.width}x${size.height}`);
      if (m.tables < s.tables)
        problems.push(`${s.name}: ${m.tables} tabela(s), esperava ${s.tables}`);
      problems.push(...m.problems.map((p) => `${s.name}: ${p}`));
    }
    expect(problems).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
}

// The model's free SQL (when enabled): its rows as a table, however many and wide the columns.
const withKey = test.extend<object, FakeApiFixtures>(fakeApiFixtures);
for (const size of SIZES) {
  withKey(
    `the free-SQL result table fits at ${size.width}×${size.height}`,
    async ({ page, fakeApi, serviceDeps, consoleErrors }, info) => {
      test.setTimeout(90_000);
      await page.setViewportSize(size);
      fakeApi.reset();
      serviceDeps.settings.update({ freeSqlEnabled: true });
      try {
        await go(page, '#/vendas', 'Vendas');
        await chooseMerchant(page);
        const sql =
          'select modalidade, bandeira, parcelas, count(*) as vendas, ' +
          'sum(valor_bruto_centavos) as total_bruto_centavos, ' +
          'sum(valor_liquido_centavos) as total_liquido_centavos, ' +
          'min(aprovada_em) as primeira_venda_aprovada_no_periodo, ' +
          'max(aprovada_em) as ultima_venda_aprovada_no_periodo ' +
          "from vendas_ia where aprovada_em >= '2026-11-01' " +
          'group by modalidade, bandeira, parcelas order by modalidade, bandeira, parcelas';
        fakeApi.enqueue(
          toolUseReply(TOOL_CONSULTAR_VENDAS, { nao_expressavel: true }),
          toolUseReply(TOOL_ESCREVER_SQL, { sql }),
        );
        const ask = page.getByTestId('ask-input');
        await ask.fill('quantas vendas por modalidade, bandeira e parcelas neste mês?');
        await ask.press('Enter');
        await expect(page.getByTestId('free-table').locator('tbody tr').first()).toBeVisible();
        const m = await layoutProblems(page);
        await page.getByTestId('free-table').screenshot({
          path: info.outputPath(`vendas-sql-livre-${size.width}x${size.height}.png`),
        });
        expect(m.tables).toBeGreaterThanOrEqual(1);
        expect(m.problems).toEqual([]);
        expect(consoleErrors).toEqual([]);
      } finally {
        serviceDeps.settings.update({ freeSqlEnabled: false });
      }
    },
  );
}
