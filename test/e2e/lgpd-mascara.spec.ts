/**
 * #38.2 — CPF/CNPJ on the screens: main sends them masked. A suporte login sees
 * `***.982.247-**` in the merchant's message with nothing to click; a supervisor clicks the mask,
 * sees the text in clear (lgpd/revelar) and the audit has the row saying who saw which field —
 * at 1366×768 and 1920×1080, through real sign-ins on the bridge.
 */
import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { urlForRole } from '../../src-main/db/urls';
import { createHandlers } from '../../src-main/ipc/handlers';
import { createPerson } from '../../src-main/people/admin';
import { createAccess } from '../../src-main/people/session';
import { routed } from '../../src-main/start-services';
import { dados, ensureMerchants, insertExtraction } from '../support/queue-fixtures';
import {
  expect,
  freshTestDatabase,
  makeServiceDeps,
  startTestBridge,
  test,
} from './support/fixtures';

const SENHA = 'senha-e2e-lgpd-123';
const TEXTO = 'boleto de 200 reais pra Maria Souza, CPF 529.982.247-25, vence dia 10';
const MASCARADO = 'boleto de 200 reais pra Maria Souza, CPF ***.982.247-**, vence dia 10';

async function signIn(page: Page, login: string, id: number): Promise<void> {
  const form = page.getByRole('form', { name: 'Entrar no Balcão' });
  await expect(form).toBeVisible();
  await form.getByLabel('Usuário').fill(login);
  await form.getByLabel('Senha').fill(SENHA);
  await form.getByRole('button', { name: 'Entrar' }).click();
  await expect(page.getByRole('navigation', { name: 'Áreas' })).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.location.hash)).not.toBe('');
  await page.evaluate((h) => (window.location.hash = `#/fila/${h}`), id);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(`Pedido #${id}`);
}

for (const size of [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
]) {
  test(`suporte sees the CPF masked; a supervisor reveals it and it is audited, at ${size.width}×${size.height}`, async ({
    page,
  }) => {
    const P = `x${randomBytes(3).toString('hex')}`;
    const SUPORTE = `${P}_sue`;
    const SUPERVISOR = `${P}_sofia`;
    const db = await freshTestDatabase();
    await ensureMerchants(db.admin, { 1: 'Padaria Sol Nascente' });
    const id = await insertExtraction(db.admin, {
      merchantId: 1,
      status: 'incompleto',
      texto: TEXTO,
      dados: dados({
        valor_centavos: 20000,
        parcelas: 1,
        metodo: 'boleto',
        cliente_nome: 'Maria Souza',
        vencimento: '2026-12-10',
        cliente_documento: '52998224725',
      }),
    });
    await createPerson(db.admin, { nome: SUPORTE, papel: 'suporte', senha: SENHA });
    await createPerson(db.admin, { nome: SUPERVISOR, papel: 'supervisor', senha: SENHA });
    const access = createAccess({
      modo: 'pessoal',
      base: makeServiceDeps(db),
      makeHandlers: createHandlers,
      personUrl: (u, p) => urlForRole(db.adminUrl, u, p),
    });
    const bridge = await startTestBridge({ handlers: routed(access), gate: access.gate });
    const original = page.getByTestId('original-text');
    const doc = page
      .getByRole('form', { name: 'Dados da cobrança' })
      .getByLabel('CPF/CNPJ do pagador (obrigatório no boleto)');
    try {
      await page.setViewportSize(size);

      // Suporte: the mask, in the message and in the charge's field; nothing to reveal.
      await page.goto(bridge.loginUrl);
      await signIn(page, SUPORTE, id);
      await expect(original).toHaveText(MASCARADO);
      await expect(doc).toHaveValue('***.982.247-**');
      await expect(page.getByTestId('revelar-documento')).toHaveCount(0);
      await expect(page.getByText('529.982.247-25')).toHaveCount(0);
      await page.screenshot({ path: `/tmp/lgpd-suporte-${size.width}.png` });
      await page
        .getByRole('navigation', { name: 'Áreas' })
        .getByRole('button', { name: 'Sair' })
        .click();

      // Supervisor: the mask is a button; clicking it shows the text, and the audit says so.
      await page.goto(bridge.loginUrl);
      await signIn(page, SUPERVISOR, id);
      await expect(original).toHaveText(MASCARADO);
      const reveal = page.getByTestId('revelar-documento');
      await expect(reveal).toHaveText('***.982.247-**');
      await page.screenshot({ path: `/tmp/lgpd-supervisor-mascara-${size.width}.png` });
      await reveal.click();
      await expect(original).toHaveText(TEXTO);
      await page.screenshot({ path: `/tmp/lgpd-supervisor-revelado-${size.width}.png` });
      const audit = await db.admin.query<{ login: string; detalhes: Record<string, unknown> }>(
        `SELECT login, detalhes FROM auditoria WHERE acao = 'lgpd_revelar'`,
      );
      expect(audit.rows).toEqual([
        {
          login: SUPERVISOR,
          detalhes: { tabela: 'extracoes', id: String(id), campo: 'texto', mascarado: MASCARADO },
        },
      ]);
    } finally {
      await bridge.close();
      for (const r of [SUPORTE, SUPERVISOR]) {
        await db.admin.query(`DROP ROLE IF EXISTS ${r}`).catch(() => 0);
      }
      await db.drop();
    }
  });
}
