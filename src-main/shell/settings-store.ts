import { SettingsPatch } from '@shared/contract/settings';
import type { SettingsView } from '@shared/contract/settings';
import { AppError } from '@shared/errors';
import { settingsFromEnv } from '../settings/defaults';
import { stripUndefined, toView } from '../settings/memory';
import type { Settings, SettingsSource } from '../settings/types';
import type { Logger } from '../util/logger';
import { registerSecret } from '../util/redact';

/** The part of electron-store we use (a JSON file in userData). */
export interface KeyValueStore {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}

/** The part of Electron's `safeStorage` we use. */
export interface SecretCrypto {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only: 'basic_text' means a hard-coded password, i.e. no real protection. */
  getSelectedStorageBackend?(): string;
}

const PREFS_KEY = 'preferencias';
const KEY_KEY = 'chaveApiCriptografada';

export type StorageStatus = { ok: true } | { ok: false; reason: string };

/**
 * The check for one secret: can it be stored encrypted here? Not without safeStorage, nor on
 * Linux without a system keyring (the basic_text backend is a hard-coded password). `reasons`
 * says so, in pt-BR, for that secret.
 */
export function secretStorageCheck(reasons: { noEncryption: string; noKeyring: string }) {
  return (crypto: SecretCrypto, platform: NodeJS.Platform = process.platform): StorageStatus => {
    if (!crypto.isEncryptionAvailable()) return { ok: false, reason: reasons.noEncryption };
    if (platform === 'linux' && crypto.getSelectedStorageBackend?.() === 'basic_text') {
      return { ok: false, reason: reasons.noKeyring };
    }
    return { ok: true };
  };
}

/** Can a key typed in the app be stored encrypted? If not, a pt-BR reason. */
export const encryptionStatus = secretStorageCheck({
  // Words for people (#42.6): what happened and what to do, no API or variable names.
  noEncryption:
    'Este computador não tem um cofre protegido para guardar a chave. ' +
    'Peça ao administrador que configure a chave na instalação do Balcão neste computador.',
  noKeyring:
    'Este computador não tem um chaveiro do sistema ativo (como o GNOME Keyring ou o KWallet): ' +
    'a chave ficaria sem proteção de verdade. Ative um chaveiro ou peça ao administrador que ' +
    'configure a chave na instalação do Balcão.',
});

/**
 * Settings backed by electron-store (preferences, encrypted API key) over environment
 * defaults. Values saved in the app win over the environment; the API key typed in the app is
 * stored only encrypted with safeStorage and is never returned to the renderer.
 */
export function createStoredSettings(opts: {
  store: KeyValueStore;
  crypto: SecretCrypto;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  logger?: Logger;
}): SettingsSource {
  const { store, crypto, logger } = opts;
  const env = opts.env ?? process.env;
  const base = settingsFromEnv(env);
  const envKey = env.ANTHROPIC_API_KEY?.trim() || undefined;

  const loadPrefs = (): SettingsPatch => {
    let raw = store.get(PREFS_KEY);
    if (raw === undefined) return {};
    // Before #18 the app saved a free-text operator name here: it is no identity any more.
    if (raw && typeof raw === 'object' && 'operator' in raw) {
      const { operator: _legacy, ...rest } = raw as Record<string, unknown>;
      raw = rest;
      store.set(PREFS_KEY, rest);
    }
    const parsed = SettingsPatch.safeParse(raw);
    if (parsed.success) return parsed.data;
    // A hand-edited or outdated file: keep the valid fields, drop the rest.
    logger?.warn('preferências salvas inválidas; usando os valores válidos');
    const out: Record<string, unknown> = {};
    if (raw && typeof raw === 'object') {
      for (const [k, v] of Object.entries(raw)) {
        if (SettingsPatch.safeParse({ [k]: v }).success) out[k] = v;
      }
    }
    return out as SettingsPatch;
  };
  let prefs = loadPrefs();

  const storedKey = (): string | undefined => {
    const enc = store.get(KEY_KEY);
    if (typeof enc !== 'string' || !enc) return undefined;
    try {
      const key = crypto.decryptString(Buffer.from(enc, 'base64')) || undefined;
      registerSecret(key);
      return key;
    } catch {
      logger?.warn('não foi possível decifrar a chave salva (chaveiro mudou?)');
      return undefined;
    }
  };

  const get = (): Settings => ({ ...base, ...stripUndefined(prefs) });

  return {
    get,
    update(patch) {
      const valid = SettingsPatch.parse(patch);
      prefs = { ...prefs, ...stripUndefined(valid) };
      store.set(PREFS_KEY, prefs);
      return get();
    },
    getApiKey: () => storedKey() ?? envKey,
    setApiKey(key) {
      const status = encryptionStatus(crypto, opts.platform);
      if (!status.ok) throw new AppError('configuracao', status.reason);
      const trimmed = key.trim();
      if (!trimmed) throw new AppError('entrada_invalida', 'Informe a chave da API.');
      registerSecret(trimmed);
      store.set(KEY_KEY, crypto.encryptString(trimmed).toString('base64'));
    },
    clearApiKey() {
      store.delete(KEY_KEY);
    },
    view(): SettingsView {
      const status = encryptionStatus(crypto, opts.platform);
      const source = storedKey() ? 'app' : envKey ? 'env' : null;
      return toView(get(), source, status.ok, status.ok ? null : status.reason);
    },
  };
}
