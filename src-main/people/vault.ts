import { AppError } from '@shared/errors';

/** A remembered sign-in (user and password), held only by the main process. */
export interface Remembered {
  usuario: string;
  senha: string;
}

/**
 * Where "lembrar" keeps a sign-in. The shell backs it with Electron's safeStorage; where the
 * system offers no real encryption it refuses, with the reason.
 */
export interface CredentialVault {
  status(): { ok: true } | { ok: false; reason: string };
  load(): Remembered | undefined;
  /** Throws a pt-BR AppError (the reason) when it cannot store encrypted. */
  save(r: Remembered): void;
  clear(): void;
}

/** No vault (CLI, tests, the bridge): "lembrar" is refused with this reason. */
export function noVault(
  reason = 'Este computador não tem um cofre protegido para guardar senhas: a senha não pode ser lembrada aqui.',
): CredentialVault {
  return {
    status: () => ({ ok: false, reason }),
    load: () => undefined,
    save() {
      throw new AppError('configuracao', reason);
    },
    clear: () => undefined,
  };
}
