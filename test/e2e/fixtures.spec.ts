/**
 * The fixture pattern other e2e tests rely on: override `serviceDeps` (worker scope) to run
 * the app against custom services — here custom settings and an API key, as a test with a
 * fake Messages API would do.
 */
import { test as base, expect, makeServiceDeps } from './support/fixtures';

const test = base.extend<object, { operatorName: string }>({
  operatorName: ['operador.custom', { scope: 'worker' }],
  serviceDeps: [
    async ({ testDb, operatorName }, use) =>
      use(
        makeServiceDeps(testDb, {
          settings: { operator: operatorName, anthropicBaseUrl: 'http://127.0.0.1:9/' },
          apiKey: 'sk-ant-teste-' + '0'.repeat(24),
        }),
      ),
    { scope: 'worker' },
  ],
});

test('custom service deps reach the renderer through the bridge', async ({ page, serviceDeps }) => {
  const status = page.getByRole('contentinfo', { name: 'Estado do aplicativo' });
  await expect(status).toContainText('Operador: operador.custom');
  await page.getByRole('link', { name: /^Configurações/ }).click();
  await expect(page.getByRole('region', { name: 'Chave da API da Anthropic' })).toContainText(
    'configurada no aplicativo',
  );
  expect(serviceDeps.settings.get().anthropicBaseUrl).toBe('http://127.0.0.1:9/');
});
