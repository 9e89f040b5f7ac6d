/**
 * People and permissions (#18) in Chromium through the test bridge, with the SAME access gate as
 * main and real PostgreSQL logins: the sign-in screen, a wrong password, and navigation limited
 * to what each role may do.
 */
import { randomBytes } from 'node:crypto';
import { routed } from '../../src-main/start-services';
import { urlForRole } from '../../src-main/db/urls';
import { createHandlers } from '../../src-main/ipc/handlers';
import { createPerson } from '../../src-main/people/admin';
import { createAccess } from '../../src-main/people/session';
import { test, expect, makeServiceDeps, startTestBridge } from './support/fixtures';

const P = `e${randomBytes(3).toString('hex')}`;
const SENHA = 'senha-e2e-12345';

test('sign-in, wrong password and role-limited navigation', async ({
  page,
  testDb,
  consoleErrors,
}) => {
  // Three real sign-ins (SCRAM) and two full shells on a shared, loaded machine.
  test.setTimeout(120_000);
  const SUP = `${P}_ana`;
  const FIN = `${P}_fabio`;
  await createPerson(testDb.admin, { nome: SUP, papel: 'suporte', senha: SENHA });
  await createPerson(testDb.admin, { nome: FIN, papel: 'financeiro', senha: SENHA });
  const access = createAccess({
    modo: 'pessoal',
    base: makeServiceDeps(testDb),
    makeHandlers: createHandlers,
    personUrl: (u, p) => urlForRole(testDb.adminUrl, u, p),
  });
  const bridge = await startTestBridge({ handlers: routed(access), gate: access.gate });
  try {
    await page.goto(bridge.loginUrl);
    const form = page.getByRole('form', { name: 'Entrar no Balcão' });
    await expect(form).toBeVisible();
    // Nothing of the app before signing in.
    await expect(page.getByRole('navigation', { name: 'Áreas' })).toHaveCount(0);
    // No safeStorage here: "lembrar" is off, with the reason in words for people (#42.6).
    await expect(form.getByLabel('Lembrar neste computador')).toBeDisabled();
    await expect(form).toContainText('cofre protegido');
    await expect(form).not.toContainText('safeStorage');

    await form.getByLabel('Usuário').fill(SUP);
    await form.getByLabel('Senha').fill('senha-errada');
    await form.getByRole('button', { name: 'Entrar' }).click();
    await expect(form.getByRole('alert')).toHaveText('Usuário ou senha incorretos.');
    await expect(form.getByLabel('Senha')).toHaveValue('');
    // #42.7: focus goes back to the cleared password, and "Entrar" follows what is typed.
    await expect(form.getByLabel('Senha')).toBeFocused();
    await expect(form.getByRole('button', { name: 'Entrar' })).toBeDisabled();
    await page.keyboard.type('x');
    await expect(form.getByRole('button', { name: 'Entrar' })).toBeEnabled();

    // Support: the queue, charges and report; no sales.
    await form.getByLabel('Senha').fill(SENHA);
    await form.getByRole('button', { name: 'Entrar' }).click();
    const nav = page.getByRole('navigation', { name: 'Áreas' });
    await expect(nav).toBeVisible();
    await expect(nav.getByRole('link')).toHaveText([
      /Fila de revisão/,
      /Cobranças/,
      /Relatório/,
      /Configurações/,
    ]);
    await expect(nav).toContainText(SUP);
    await expect(nav).toContainText('Suporte');
    await expect(page).toHaveURL(/#\/fila/);
    // Typing the sales address does not open it: back to an area this person may use.
    await page.evaluate(() => (window.location.hash = '#/vendas'));
    await expect(page).toHaveURL(/#\/fila/);
    expect(
      bridge.calls.filter((c) => c.channel.startsWith('sales/')),
      'nenhuma chamada de vendas',
    ).toEqual([]);
    // Configurações: who the database records (the login, not a typed name), read-only for
    // support — and main refuses the change whatever a renderer sends.
    await nav.getByRole('link', { name: /Configurações/ }).click();
    const identity = page.getByRole('region', { name: 'Quem está usando' });
    await expect(identity.getByTestId('identity-login')).toHaveText(SUP);
    await expect(identity).toContainText('Suporte');
    await expect(page.getByTestId('settings-readonly')).toBeVisible();
    const prefs = page.getByRole('region', { name: 'Preferências' });
    await expect(prefs.getByLabel('Fuso horário')).toBeDisabled();
    await expect(prefs.getByRole('button', { name: 'Salvar preferências' })).toBeHidden();
    await expect(page.getByRole('button', { name: 'Salvar chave' })).toHaveCount(0);
    const changed = await page.evaluate(() =>
      window.balcao.invoke('settings/update', { maxAttempts: 1 }),
    );
    expect(changed.ok ? null : changed.error.message).toBe('Só um supervisor pode fazer isso.');
    await nav.getByRole('link', { name: /Fila de revisão/ }).click();
    await expect(page).toHaveURL(/#\/fila/);

    // Sign out: back to the sign-in screen. Finance sees sales and the report only.
    await nav.getByRole('button', { name: 'Sair' }).click();
    await expect(form).toBeVisible();
    await form.getByLabel('Usuário').fill(FIN);
    await form.getByLabel('Senha').fill(SENHA);
    await form.getByRole('button', { name: 'Entrar' }).click();
    await expect(nav.getByRole('link')).toHaveText([/Vendas/, /Relatório/, /Configurações/]);
    await expect(page).toHaveURL(/#\/vendas/);
    await expect(nav).toContainText('Financeiro');
    expect(consoleErrors).toEqual([]);
  } finally {
    await access.close();
    await bridge.close();
    for (const r of [SUP, FIN]) await testDb.admin.query(`DROP ROLE IF EXISTS ${r}`).catch(() => 0);
  }
});
