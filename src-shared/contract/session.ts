import { z } from '../zod';
import type { Papel, Permissao } from '../permissions';
import { defineChannel } from './define';

/** Who is using the app and what they may do (the renderer never sees a password). */
export interface SessionView {
  /**
   * unico: the embedded database, the local user is its single supervisor (no sign-in);
   * pessoal: a server where each person signs in with their own login;
   * servico: a server reached with an administrative/app login (no people: full access).
   */
  modo: 'unico' | 'pessoal' | 'servico';
  /** A person is signed in (always true in unico/servico). */
  entrou: boolean;
  login: string | null;
  papeis: Papel[];
  permissoes: Permissao[];
  /** Sign-out is possible (pessoal). */
  podeSair: boolean;
  /** "Lembrar" can store the password (encrypted with the system's safeStorage). */
  podeLembrar: boolean;
  /** pt-BR reason when it cannot. */
  motivoSemLembrar: string | null;
  /** pt-BR notice for the sign-in screen (e.g. the session ended because the login was deactivated). */
  aviso: string | null;
}

export const SignInInput = z
  .object({
    usuario: z
      .string()
      .trim()
      .min(1, 'Informe o usuário.')
      .max(63, 'O usuário tem no máximo 63 caracteres.'),
    senha: z.string().min(1, 'Informe a senha.').max(200, 'A senha tem no máximo 200 caracteres.'),
    lembrar: z.boolean().default(false),
  })
  .strict();

export const sessionContract = {
  'session/state': defineChannel<SessionView>()(z.object({}).strict()),
  'session/signIn': defineChannel<SessionView>()(SignInInput),
  'session/signOut': defineChannel<SessionView>()(z.object({}).strict()),
} as const;
