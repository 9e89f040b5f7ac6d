/**
 * #36 item 6 — Configurações → PSP e links de pagamento, as the WhatsApp section: URLs and the
 * PEM files' paths are validated in pt-BR at their fields and saved to the database; the three
 * secrets are write-only — the screen shows only "configurado"/"não configurado", a typed secret
 * is stored and never comes back to the renderer, and "Remover" gives the field back to the
 * environment; Cobranças stops saying "Nenhum PSP configurado" once the API Pix URL is stored —
 * at 1366×768 and 1920×1080.
 */
import {
  expect,
  freshTestDatabase,
  makeServiceDeps,
  openApp,
  startTestBridge,
  test,
} from './support/fixtures';

const SECRET = 'segredo-do-cliente-e2e-0123456789';

for (const size of [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
]) {
  test(`PSP settings: validated, saved, secrets write-only, at ${size.width}×${size.height}`, async ({
    page,
    consoleErrors,
  }) => {
    const db = await freshTestDatabase();
    const bridge = await startTestBridge({ deps: makeServiceDeps(db) });
    const row = async () =>
      (
        await db.admin.query<{
          url: string | null;
          cert_path: string | null;
          token_url: string | null;
          client_secret: string | null;
        }>('SELECT url, cert_path, token_url, client_secret FROM psp_configuracao')
      ).rows[0];
    try {
      await page.setViewportSize(size);
      await page.clock.install();
      await openApp(page, bridge, '#/cobrancas');
      await expect(page.getByTestId('sem-psp')).toContainText('Nenhum PSP configurado');

      await page.evaluate(() => {
        window.location.hash = '#/configuracoes';
      });
      const psp = page.getByRole('region', { name: 'PSP e links de pagamento' });
      await expect(psp).toBeVisible();
      for (const id of ['clientSecret', 'webhookToken', 'linkToken']) {
        await expect(psp.getByTestId(`psp-secret-${id}`)).toContainText('não configurado');
      }

      // Bad values: refused by main in pt-BR, shown at their fields; nothing stored.
      const url = psp.getByRole('textbox', { name: /^URL da API Pix/ });
      const cert = psp.getByLabel('Certificado do cliente (caminho do arquivo PEM)');
      const salvar = psp.getByRole('button', { name: 'Salvar endereços e certificados' });
      await url.fill('http://pix.psp.exemplo.com.br');
      await cert.fill('certs/cliente.crt');
      await salvar.click();
      await expect(psp.locator('#psp-err-url')).toContainText('https://');
      await expect(psp.locator('#psp-err-certPath')).toContainText(
        'Informe o caminho absoluto do certificado',
      );
      await expect(url).toHaveAttribute('aria-invalid', 'true');
      expect((await row())?.url).toBeNull();

      await url.fill('https://pix.psp.exemplo.com.br/api/v2/');
      await cert.fill('/etc/balcao/psp/cliente.crt');
      await salvar.click();
      await expect(
        page.getByRole('status').filter({ hasText: 'Configurações do PSP salvas.' }),
      ).toBeVisible();
      await expect(psp.locator('#psp-err-url')).toHaveCount(0);
      expect(await row()).toMatchObject({
        url: 'https://pix.psp.exemplo.com.br/api/v2',
        cert_path: '/etc/balcao/psp/cliente.crt',
        token_url: null,
      });
      await expect(url).toHaveValue('https://pix.psp.exemplo.com.br/api/v2');
      await expect(psp.getByTestId('psp-alterada')).toContainText('Alterado em');

      // A secret: too short is refused at its field; a good one is stored, never shown back.
      const secret = psp.getByLabel('Novo valor: Client secret');
      await secret.fill('curto');
      await psp.getByRole('button', { name: 'Salvar segredos' }).click();
      await expect(psp.locator('#psp-err-clientSecret')).toContainText('parece curto demais');
      await secret.fill(SECRET);
      await psp.getByRole('button', { name: 'Salvar segredos' }).click();
      await expect(psp.getByTestId('psp-secret-clientSecret')).not.toContainText('não configurado');
      await expect(psp.getByTestId('psp-secret-clientSecret')).toContainText('configurado');
      await expect(secret).toHaveValue('');
      expect((await row())?.client_secret).toBe(SECRET);
      for (const c of bridge.calls) {
        expect(c.channel === 'psp/saveSettings' || !JSON.stringify(c).includes(SECRET)).toBe(true);
      }
      const fromMain = await page.evaluate(() => window.balcao.invoke('psp/settings', {}));
      expect(JSON.stringify(fromMain)).not.toContain(SECRET);
      expect(await page.content()).not.toContain(SECRET);

      await psp.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `/tmp/g-psp-settings-${size.width}.png`, fullPage: true });

      await psp
        .getByTestId('psp-secret-clientSecret')
        .getByRole('button', { name: 'Remover' })
        .click();
      await expect(psp.getByTestId('psp-secret-clientSecret')).toContainText('não configurado');
      expect((await row())?.client_secret).toBeNull();

      // The stored API Pix URL is what serve and worker use: Cobranças no longer says "nenhum PSP".
      await page.evaluate(() => {
        window.location.hash = '#/cobrancas';
      });
      await expect(page.getByRole('heading', { name: 'Cobranças', level: 1 })).toBeVisible();
      const status = await page.evaluate(() => window.balcao.invoke('pix/status', {}));
      expect(JSON.stringify(status)).toContain('"pspConfigurado":true');
      await expect(page.getByTestId('sem-psp')).toHaveCount(0);
      expect(consoleErrors).toEqual([]);
    } finally {
      await bridge.close();
      await db.drop();
    }
  });
}
