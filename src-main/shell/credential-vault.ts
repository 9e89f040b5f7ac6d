import { AppError } from '@shared/errors';
import type { CredentialVault, Remembered } from '../people/vault';
import { secretStorageCheck, type KeyValueStore, type SecretCrypto } from './settings-store';
import type { Logger } from '../util/logger';

const VAULT_KEY = 'entradaLembrada';

/** Can a password be stored encrypted here? If not, a pt-BR reason. */
export const vaultStatus = secretStorageCheck({
  // Words for people (#42.6): what happened and what it means for them, no API names.
  noEncryption:
    'Este computador não tem um cofre protegido para guardar senhas: ' +
    'a senha não foi lembrada e será pedida a cada abertura.',
  noKeyring:
    'Este computador não tem um chaveiro do sistema ativo (como o GNOME Keyring ou o KWallet): ' +
    'a senha ficaria sem proteção de verdade, então não foi lembrada.',
});

/** "Lembrar" backed by safeStorage: only the encrypted blob is written to the store. */
export function createSafeStorageVault(opts: {
  store: KeyValueStore;
  crypto: SecretCrypto;
  platform?: NodeJS.Platform;
  logger?: Logger;
}): CredentialVault {
  const { store, crypto } = opts;
  return {
    status: () => vaultStatus(crypto, opts.platform),
    load() {
      const enc = store.get(VAULT_KEY);
      if (typeof enc !== 'string' || !enc) return undefined;
      if (!vaultStatus(crypto, opts.platform).ok) return undefined;
      try {
        const r = JSON.parse(crypto.decryptString(Buffer.from(enc, 'base64'))) as Remembered;
        return typeof r.usuario === 'string' && typeof r.senha === 'string' ? r : undefined;
      } catch {
        opts.logger?.warn('não foi possível decifrar a entrada lembrada (chaveiro mudou?)');
        return undefined;
      }
    },
    save(r) {
      const status = vaultStatus(crypto, opts.platform);
      if (!status.ok) throw new AppError('configuracao', status.reason);
      store.set(VAULT_KEY, crypto.encryptString(JSON.stringify(r)).toString('base64'));
    },
    clear() {
      store.delete(VAULT_KEY);
    },
  };
}
