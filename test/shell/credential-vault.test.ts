import { describe, expect, it } from 'vitest';
import { createSafeStorageVault } from '../../src-main/shell/credential-vault';
import type { KeyValueStore, SecretCrypto } from '../../src-main/shell/settings-store';

function memoryStore(): KeyValueStore & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return {
    data,
    get: (k) => data.get(k),
    set: (k, v) => void data.set(k, v),
    delete: (k) => void data.delete(k),
  };
}

const xor = (b: Buffer) => Buffer.from(b.map((x) => x ^ 0x5a));
function fakeCrypto(available: boolean, backend = 'gnome_libsecret'): SecretCrypto {
  return {
    isEncryptionAvailable: () => available,
    encryptString: (s) => xor(Buffer.from(s, 'utf8')),
    decryptString: (b) => xor(b).toString('utf8'),
    getSelectedStorageBackend: () => backend,
  };
}

describe('"lembrar" through safeStorage', () => {
  it('stores only the encrypted sign-in and reads it back', () => {
    const store = memoryStore();
    const v = createSafeStorageVault({ store, crypto: fakeCrypto(true), platform: 'linux' });
    expect(v.status()).toEqual({ ok: true });
    v.save({ usuario: 'ana', senha: 'segredo-123' });
    const raw = JSON.stringify([...store.data.values()]);
    expect(raw).not.toContain('segredo-123');
    expect(raw).not.toContain('ana');
    expect(v.load()).toEqual({ usuario: 'ana', senha: 'segredo-123' });
    v.clear();
    expect(v.load()).toBeUndefined();
  });

  it('refuses, with the reason, where encryption is unavailable or only basic_text', () => {
    for (const [crypto, reason] of [
      [fakeCrypto(false), 'não tem um cofre protegido'],
      [fakeCrypto(true, 'basic_text'), 'chaveiro do sistema'],
    ] as const) {
      const store = memoryStore();
      const v = createSafeStorageVault({ store, crypto, platform: 'linux' });
      const st = v.status();
      expect(st.ok).toBe(false);
      if (!st.ok) expect(st.reason).toContain(reason);
      expect(() => v.save({ usuario: 'ana', senha: 'segredo-123' })).toThrow(reason);
      expect(store.data.size).toBe(0);
    }
  });
});
