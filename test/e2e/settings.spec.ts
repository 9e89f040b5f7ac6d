import {
  createStoredSettings,
  encryptionStatus,
  type SecretCrypto,
} from '../../src-main/shell/settings-store';
import { test, expect, makeServiceDeps, openApp, startTestBridge } from './support/fixtures';

test('settings: the API key is write-only, preferences are validated in pt-BR and saved', async ({
  page,
  testDb,
  consoleErrors,
}) => {
  // A private bridge: this test changes settings and must not affect other tests.
  const deps = makeServiceDeps(testDb);
  const bridge = await startTestBridge({ deps });
  try {
    // Page timers under test control: toasts stay until the test moves the clock (a loaded
    // machine could otherwise outlast their few seconds on screen).
    await page.clock.install();
    await openApp(page, bridge, '#/configuracoes');
    await expect(page.getByRole('heading', { level: 1, name: 'Configurações' })).toBeVisible();
    const keySection = page.getByRole('region', { name: 'Chave da API da Anthropic' });
    await expect(keySection).toContainText('não configurada');

    // Too short: main's schema refuses it, the message is shown next to the field.
    const input = keySection.getByLabel('Nova chave');
    await input.fill('sk-ant-curta');
    await keySection.getByRole('button', { name: 'Salvar chave' }).click();
    await expect(keySection.getByRole('alert')).toContainText('A chave parece curta demais');

    const key = 'sk-ant-api03-' + 'a'.repeat(40);
    await input.fill(key);
    await keySection.getByRole('button', { name: 'Salvar chave' }).click();
    await expect(keySection).toContainText('configurada no aplicativo');
    await expect(input).toHaveValue('');
    expect(deps.settings.getApiKey()).toBe(key);
    // The renderer never receives the key back from any settings call.
    for (const c of bridge.calls)
      expect(c.channel === 'settings/setApiKey' || !JSON.stringify(c).includes(key)).toBe(true);
    expect(await page.content()).not.toContain(key);

    const prefs = page.getByRole('region', { name: 'Preferências' });
    // The zone is picked from Brazil's zones (#13); main still refuses an unknown one in pt-BR,
    // as a field error, whatever a renderer sends.
    const refused = await page.evaluate(() =>
      window.balcao.invoke('settings/update', { timeZone: 'Marte/Olimpo' }),
    );
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.error.message).toContain('Fuso horário desconhecido');
      expect(refused.error.fields?.timeZone?.join(' ')).toContain('Fuso horário desconhecido');
    }
    expect(deps.settings.get().timeZone).not.toBe('Marte/Olimpo');

    // #18: no operator name to type; main refuses one whatever a renderer sends.
    await expect(prefs.getByLabel(/Operador/)).toHaveCount(0);
    const named = await page.evaluate(() =>
      window.balcao.invoke('settings/update', { operator: 'bia.lima' } as never),
    );
    expect(named.ok).toBe(false);
    const identity = page.getByRole('region', { name: 'Quem está usando' });
    // #42.6: the shared access in words, not the database role's name.
    await expect(identity).toContainText('mesmo acesso do Balcão');
    await expect(identity).not.toContainText('balcao_app');
    await expect(identity.getByTestId('identity-login')).toHaveText('agente.teste');

    await prefs.getByLabel('Fuso horário').selectOption('America/Manaus');
    await prefs.getByRole('button', { name: 'Salvar preferências' }).click();
    const saved = page.getByRole('status').filter({ hasText: 'Configurações salvas.' });
    await expect(saved).toBeVisible();
    await page.clock.runFor(5_000);
    await expect(saved).toBeHidden();
    expect(deps.settings.get()).toMatchObject({
      timeZone: 'America/Manaus',
      operator: 'agente.teste',
    });
    // The status bar follows the saved settings.
    const bar = page.getByRole('contentinfo', { name: 'Estado do aplicativo' });
    await expect(bar).toContainText('fuso de Manaus');
    await expect(bar.getByTitle('America/Manaus')).toBeVisible();
    await expect(page.getByRole('contentinfo', { name: 'Estado do aplicativo' })).toContainText(
      'agente.teste',
    );

    await keySection.getByRole('button', { name: 'Remover chave' }).click();
    await expect(keySection).toContainText('não configurada');
    // Refusals are answers shown in the page, not console errors.
    expect(consoleErrors).toEqual([]);
  } finally {
    await bridge.close();
  }
});

test('settings: explains why a key cannot be stored when encryption is unavailable', async ({
  page,
  testDb,
}) => {
  // The shell's real settings store, on a Linux without a keyring (safeStorage basic_text).
  const values = new Map<string, unknown>();
  const crypto: SecretCrypto = {
    isEncryptionAvailable: () => true,
    getSelectedStorageBackend: () => 'basic_text',
    encryptString: (s) => Buffer.from(s),
    decryptString: (b) => b.toString(),
  };
  const settings = createStoredSettings({
    store: {
      get: (k) => values.get(k),
      set: (k, v) => void values.set(k, v),
      delete: (k) => void values.delete(k),
    },
    crypto,
    platform: 'linux',
    env: {},
  });
  const deps = { ...makeServiceDeps(testDb), settings };
  const status = encryptionStatus(crypto, 'linux');
  if (status.ok) throw new Error('basic_text must be refused');
  const bridge = await startTestBridge({ deps });
  try {
    await openApp(page, bridge, '#/configuracoes');
    const keySection = page.getByRole('region', { name: 'Chave da API da Anthropic' });
    await expect(keySection.getByRole('note')).toHaveText(status.reason);
    // In words for people (#42.6): the keyring, not the backend's name.
    await expect(keySection.getByRole('note')).toContainText('chaveiro do sistema');
    await expect(keySection.getByRole('note')).not.toContainText('basic_text');
    await expect(keySection.getByLabel('Nova chave')).toBeDisabled();
    await expect(keySection.getByRole('button', { name: 'Salvar chave' })).toBeDisabled();
    expect(values.size).toBe(0);
  } finally {
    await bridge.close();
  }
});
