import { AppError } from '@shared/errors';
import { PERMISSOES } from '@shared/permissions';
import type { DomainChannels } from '../channels';
import type { ServiceDeps } from '../deps';
import type { SessionSource } from './session';

export type SessionChannel = 'session/state' | 'session/signIn' | 'session/signOut';

/** Who is signed in; sign-in and sign-out (the password never leaves the main process). */
export function sessionChannels(
  deps: ServiceDeps,
  session?: SessionSource,
): DomainChannels<SessionChannel> {
  if (session) {
    return {
      'session/state': async () => session.view(),
      'session/signIn': (input) => session.signIn(input),
      'session/signOut': () => session.signOut(),
    };
  }
  const refuse = async (): Promise<never> => {
    throw new AppError('conflito', 'Este Balcão não pede entrada por pessoa.');
  };
  return {
    'session/state': async () => ({
      modo: 'servico',
      entrou: true,
      login: deps.settings.get().operator,
      papeis: ['supervisor'],
      permissoes: [...PERMISSOES],
      podeSair: false,
      podeLembrar: false,
      motivoSemLembrar: null,
      aviso: null,
    }),
    'session/signIn': refuse,
    'session/signOut': refuse,
  };
}
