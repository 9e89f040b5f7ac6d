/**
 * #37 item 5 — Configurações → WhatsApp: the number, API and template are validated in pt-BR at
 * their fields and saved to the database; the three secrets are write-only — the screen shows
 * only "configurado"/"não configurado", a typed secret is stored and never comes back to the
 * renderer, and "Remover" gives the field back to the environment — at 1366×768 and 1920×1080.
 */
import {
  expect,
  freshTestDatabase,
  makeServiceDeps,
  openApp,
  startTestBridge,
  test,
} from './support/fixtures';

const TOKEN = 'EAAGe2e-token-de-acesso-0123456789abcdef';

for (const size of [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
]) {
  test(`WhatsApp settings: validated, saved, secrets write-only, at ${size.width}×${size.height}`, async ({
    page,
    consoleErrors,
  }) => {
    const db = await freshTestDatabase();
    const bridge = await startTestBridge({ deps: makeServiceDeps(db) });
    const row = async () =>
      (
        await db.admin.query<{
          phone_number_id: string | null;
          modelo: string | null;
          api_url: string | null;
          token: string | null;
        }>('SELECT phone_number_id, modelo, api_url, token FROM whatsapp_configuracao')
      ).rows[0];
    try {
      await page.setViewportSize(size);
      await page.clock.install();
      await openApp(page, bridge, '#/configuracoes');
      const wa = page.getByRole('region', { name: 'WhatsApp' });
      await expect(wa).toBeVisible();
      for (const id of ['token', 'appSecret', 'verifyToken']) {
        await expect(wa.getByTestId(`wa-secret-${id}`)).toContainText('não configurado');
      }

      // Bad values: refused by main in pt-BR, shown at their fields; nothing stored.
      const phone = wa.getByLabel('Phone Number ID');
      const modelo = wa.getByLabel('Modelo para fora da janela de 24 h');
      await phone.fill('+55 11 9999');
      await modelo.fill('Aviso Balcão');
      await wa.getByRole('button', { name: 'Salvar número e modelo' }).click();
      await expect(wa.locator('#wa-err-phoneNumberId')).toContainText('só dígitos');
      await expect(phone).toHaveAttribute('aria-invalid', 'true');
      expect((await row())?.phone_number_id).toBeNull();

      await phone.fill('109876543210');
      await modelo.fill('aviso_balcao');
      await wa.getByRole('button', { name: 'Salvar número e modelo' }).click();
      await expect(
        page.getByRole('status').filter({ hasText: 'Configurações do WhatsApp salvas.' }),
      ).toBeVisible();
      await expect(wa.locator('#wa-err-modelo')).toHaveCount(0);
      expect(await row()).toMatchObject({
        phone_number_id: '109876543210',
        modelo: 'aviso_balcao',
        api_url: null,
      });
      await expect(wa.getByTestId('whatsapp-alterada')).toContainText('Alterado em');

      // A secret: too short is refused at its field; a good one is stored, never shown back.
      const token = wa.getByLabel('Novo valor: Token de acesso');
      await token.fill('curto');
      await wa.getByRole('button', { name: 'Salvar segredos' }).click();
      await expect(wa.locator('#wa-err-token')).toContainText('parece curto demais');
      await token.fill(TOKEN);
      await wa.getByRole('button', { name: 'Salvar segredos' }).click();
      await expect(wa.getByTestId('wa-secret-token')).toContainText('configurado');
      await expect(wa.getByTestId('wa-secret-token')).not.toContainText('não configurado');
      await expect(token).toHaveValue('');
      expect((await row())?.token).toBe(TOKEN);
      for (const c of bridge.calls) {
        expect(c.channel === 'whatsapp/saveSettings' || !JSON.stringify(c).includes(TOKEN)).toBe(
          true,
        );
      }
      const fromMain = await page.evaluate(() => window.balcao.invoke('whatsapp/settings', {}));
      expect(JSON.stringify(fromMain)).not.toContain(TOKEN);
      expect(await page.content()).not.toContain(TOKEN);

      await page.screenshot({ path: `/tmp/d-wa-settings-${size.width}.png`, fullPage: true });

      await wa.getByTestId('wa-secret-token').getByRole('button', { name: 'Remover' }).click();
      await expect(wa.getByTestId('wa-secret-token')).toContainText('não configurado');
      expect((await row())?.token).toBeNull();
      expect(consoleErrors).toEqual([]);
    } finally {
      await bridge.close();
      await db.drop();
    }
  });
}
