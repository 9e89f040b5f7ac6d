/**
 * #42.6 "Words for people, not operators": every screen, in each role, read as the person sees it
 * (the visible text of the page). No raw code (`parcelas_pix_boleto`, `balcao_app`), no
 * environment variable, no database URL, no `balcao …` command, no "safeStorage"; the model's
 * dollar costs only for supervisors, labelled; merchants by name; counts in the right number.
 */
import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { seedDemo } from '../../src-main/db/seed';
import { urlForRole } from '../../src-main/db/urls';
import { createHandlers } from '../../src-main/ipc/handlers';
import { createPerson } from '../../src-main/people/admin';
import { createAccess } from '../../src-main/people/session';
import { routed } from '../../src-main/start-services';
import {
  E2E_NOW,
  E2E_TIME_ZONE,
  expect,
  freshTestDatabase,
  makeServiceDeps,
  startTestBridge,
  test,
} from './support/fixtures';

const P = `w${randomBytes(3).toString('hex')}`;
const SENHA = 'senha-e2e-12345';

/** What must never reach a person's eyes, each with why. */
const OPERATOR_WORDS: [RegExp, string][] = [
  [/\b[a-z]+_[a-z_]+\b/g, 'código cru'],
  [/\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/g, 'variável de ambiente'],
  [/\bpostgres(?:ql)?:\/\/\S*/gi, 'URL de banco'],
  [/\bbalcao [a-z]+/g, 'comando do balcao'],
  [/safeStorage/g, 'safeStorage'],
  [/\(s\)/g, 'plural com (s)'],
  [/lojista #\d+/gi, 'lojista sem nome'],
];

/** The offending words in the page's visible text (with US$ for everyone but supervisors). */
async function offences(page: Page, screen: string, opts: { usd: boolean }): Promise<string[]> {
  const text = await page.locator('body').innerText();
  const rules: [RegExp, string][] = opts.usd
    ? OPERATOR_WORDS
    : [...OPERATOR_WORDS, [/US\$/g, 'custo em dólar para quem não é supervisor']];
  return rules.flatMap(([re, why]) =>
    [...text.matchAll(re)].map((m) => `${screen}: ${why}: "${m[0]}"`),
  );
}

test('every screen in each role speaks to people: no codes, variables, URLs, commands; US$ only for supervisors', async ({
  page,
  consoleErrors,
}) => {
  // Three real sign-ins (SCRAM) and every screen of three shells on a shared, loaded machine.
  test.setTimeout(180_000);
  const db = await freshTestDatabase();
  await seedDemo(db.admin, {
    now: E2E_NOW,
    timeZone: E2E_TIME_ZONE,
    merchants: 2,
    transactions: 400,
  });
  // Sales questions of the period, so Relatório → Perguntas names their merchants.
  const merchant = (
    await db.admin.query<{ nome: string }>('SELECT nome FROM merchants WHERE id = 1')
  ).rows[0]!.nome;
  for (const [pergunta, resultado, dia] of [
    ['qual foi a maior venda?', 'esclarecimento', '2026-11-28T10:00:00-03:00'],
    ['quanto vendi ontem?', 'respondida', '2026-11-29T10:00:00-03:00'],
  ] as const) {
    await db.admin.query(
      `INSERT INTO consultas_vendas (merchant_id, operador, origem, pergunta, dsl, consulta,
         resultado, duracao_ms, criada_em)
       VALUES (1, 'ana', 'pergunta', $1, '{"nao_expressavel":true}', NULL, $2, 5, $3)`,
      [pergunta, resultado, dia],
    );
  }
  const people = {
    supervisor: `${P}sara`,
    suporte: `${P}ana`,
    financeiro: `${P}fabio`,
  } as const;
  for (const [papel, nome] of Object.entries(people)) {
    await createPerson(db.admin, {
      nome,
      papel: papel as keyof typeof people,
      senha: SENHA,
    });
  }
  const access = createAccess({
    modo: 'pessoal',
    base: makeServiceDeps(db),
    makeHandlers: createHandlers,
    personUrl: (u, p) => urlForRole(db.adminUrl, u, p),
  });
  const bridge = await startTestBridge({ handlers: routed(access), gate: access.gate });
  const found: string[] = [];
  const nav = page.getByRole('navigation', { name: 'Áreas' });
  const signIn = async (nome: string) => {
    const form = page.getByRole('form', { name: 'Entrar no Balcão' });
    await expect(form).toBeVisible();
    found.push(...(await offences(page, 'entrada', { usd: false })));
    await form.getByLabel('Usuário').fill(nome);
    await form.getByLabel('Senha').fill(SENHA);
    await form.getByRole('button', { name: 'Entrar' }).click();
    await expect(nav).toBeVisible();
  };
  const area = async (link: RegExp) => {
    await nav.getByRole('link', { name: link }).click();
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  };
  try {
    await page.goto(bridge.loginUrl);
    for (const papel of ['suporte', 'supervisor', 'financeiro'] as const) {
      const usd = papel === 'supervisor';
      await signIn(people[papel]);
      const read = async (screen: string) =>
        found.push(...(await offences(page, `${papel} · ${screen}`, { usd })));

      if (papel !== 'financeiro') {
        // The queue, one failed item with its rules, its technical details opened.
        await area(/Fila de revisão/);
        const table = page.getByRole('table', { name: 'Pedidos abertos na fila de revisão' });
        await expect(table.getByRole('row').nth(1)).toBeVisible();
        await read('fila');
        const failed = (
          await db.admin.query<{ id: number }>(
            `SELECT id FROM extracoes WHERE fila_estado = 'aberta' AND status = 'falhou'
              ORDER BY id LIMIT 1`,
          )
        ).rows[0]!.id;
        await page.evaluate((id) => (window.location.hash = `#/fila/${id}`), failed);
        await expect(page.getByRole('button', { name: /^Descartar/ })).toBeEnabled();
        await page.getByTestId('usage-details').locator('summary').click();
        await expect(page.getByTestId('usage-details').getByRole('table')).toBeVisible();
        await read('pedido');
        if (usd) {
          await expect(page.getByTestId('usage-details')).toContainText('Custo do modelo (US$)');
        }
        await page.keyboard.press('Escape');

        await area(/Cobranças/);
        await read('cobranças');

        await area(/Relatório/);
        await expect(page.getByTestId('report')).toBeVisible();
        await expect(page.getByTestId('report-rules')).toContainText('Parcelamento em Pix');
        await read('relatório · falhas');
      }
      if (papel !== 'suporte') {
        await area(/Relatório/);
        await page.getByRole('tab', { name: 'Perguntas' }).click();
        const recent = page.getByTestId('questions-recent');
        await expect(recent).toContainText('qual foi a maior venda?');
        await expect(recent).toContainText(merchant);
        await read('relatório · perguntas');

        await area(/Vendas/);
        await read('vendas');
      }
      await area(/Configurações/);
      await expect(page.getByRole('region', { name: 'Quem está usando' })).toBeVisible();
      await read('configurações');

      await nav.getByRole('button', { name: 'Sair' }).click();
    }
    expect(found).toEqual([]);
    expect(consoleErrors).toEqual([]);
  } finally {
    await access.close();
    await bridge.close();
    for (const r of Object.values(people)) {
      await db.admin.query(`DROP ROLE IF EXISTS ${r}`).catch(() => 0);
    }
    await db.drop();
  }
});
