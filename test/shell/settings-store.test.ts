/** The electron-store + safeStorage settings logic, from source with in-memory fakes. */
import { describe, expect, it } from 'vitest';
import {
  createStoredSettings,
  encryptionStatus,
  type KeyValueStore,
  type SecretCrypto,
} from '../../src-main/shell/settings-store';

function memoryStore(
  initial: Record<string, unknown> = {},
): KeyValueStore & { data: Record<string, unknown> } {
  const data = { ...initial };
  return {
    data,
    get: (k) => data[k],
    set: (k, v) => void (data[k] = v),
    delete: (k) => void delete data[k],
  };
}

const crypto = (over: Partial<SecretCrypto> = {}): SecretCrypto => ({
  isEncryptionAvailable: () => true,
  getSelectedStorageBackend: () => 'kwallet5',
  encryptString: (s) => Buffer.from([...Buffer.from(s)].map((b) => b ^ 0x5a)),
  decryptString: (b) => Buffer.from([...b].map((x) => x ^ 0x5a)).toString(),
  ...over,
});

const KEY = 'sk-ant-api03-' + 'z'.repeat(40);

describe('stored settings', () => {
  it('saved values win over the environment; the environment over defaults', () => {
    const store = memoryStore();
    const s = createStoredSettings({
      store,
      crypto: crypto(),
      env: { ANTHROPIC_MODEL: 'env-model', BALCAO_OPERATOR: 'env-op' },
    });
    expect(s.get()).toMatchObject({
      model: 'env-model',
      operator: 'env-op',
      timeZone: 'America/Sao_Paulo',
    });
    s.update({ model: 'modelo-salvo' });
    const again = createStoredSettings({
      store,
      crypto: crypto(),
      env: { ANTHROPIC_MODEL: 'env-model', BALCAO_OPERATOR: 'env-op' },
    });
    expect(again.get()).toMatchObject({ model: 'modelo-salvo', operator: 'env-op' });
  });

  it('has no operator name to save (#18: identity is the database login)', () => {
    const s = createStoredSettings({ store: memoryStore(), crypto: crypto(), env: {} });
    expect(() => s.update({ operator: 'ana' } as never)).toThrow();
    expect('operator' in s.view()).toBe(false);
  });

  it('keeps the valid fields of a hand-edited file and drops the rest', () => {
    const store = memoryStore({
      preferencias: {
        operator: 'bia',
        model: 'modelo-a',
        timeZone: 'Nowhere/Land',
        maxAttempts: 99,
      },
    });
    const s = createStoredSettings({ store, crypto: crypto(), env: { USER: 'os-user' } });
    expect(s.get()).toMatchObject({
      model: 'modelo-a',
      timeZone: 'America/Sao_Paulo',
      maxAttempts: 3,
    });
    // An operator name saved before #18 is dropped from the file, never used as an identity.
    expect(s.get().operator).toBe('os-user');
    expect(store.get('preferencias')).not.toHaveProperty('operator');
  });

  it('an app key wins over ANTHROPIC_API_KEY; an undecryptable one falls back to the env key', () => {
    const store = memoryStore();
    const s = createStoredSettings({
      store,
      crypto: crypto(),
      env: { ANTHROPIC_API_KEY: 'env-key' },
    });
    expect(s.view()).toMatchObject({ apiKeyConfigured: true, apiKeySource: 'env' });
    s.setApiKey(KEY);
    expect(s.getApiKey()).toBe(KEY);
    expect(JSON.stringify(store.data)).not.toContain(KEY);
    expect(s.view()).toMatchObject({ apiKeySource: 'app' });
    const broken = createStoredSettings({
      store,
      crypto: crypto({
        decryptString: () => {
          throw new Error('keyring changed');
        },
      }),
      env: { ANTHROPIC_API_KEY: 'env-key' },
    });
    expect(broken.getApiKey()).toBe('env-key');
    s.clearApiKey();
    expect(s.getApiKey()).toBe('env-key');
  });

  it('says why a key cannot be stored', () => {
    expect(encryptionStatus(crypto(), 'linux')).toEqual({ ok: true });
    const basic = encryptionStatus(
      crypto({ getSelectedStorageBackend: () => 'basic_text' }),
      'linux',
    );
    expect(basic).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/chaveiro do sistema/),
    });
    // basic_text is a Linux notion; other platforms only report availability.
    expect(
      encryptionStatus(crypto({ getSelectedStorageBackend: () => 'basic_text' }), 'darwin'),
    ).toEqual({ ok: true });
    const none = encryptionStatus(crypto({ isEncryptionAvailable: () => false }), 'win32');
    expect(none).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/Peça ao administrador/),
    });
    const store = memoryStore();
    const s = createStoredSettings({
      store,
      crypto: crypto({ isEncryptionAvailable: () => false }),
      env: {},
    });
    expect(() => s.setApiKey(KEY)).toThrow(/não tem um cofre protegido/);
    expect(store.data).toEqual({});
    expect(s.view()).toMatchObject({ canStoreApiKey: false, apiKeyConfigured: false });
  });
});
