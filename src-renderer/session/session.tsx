import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import type { SessionView } from '@shared/contract/session';
import type { Permissao } from '@shared/permissions';
import { ApiError, call, errorMessage } from '../api';
import { LoadingState } from '../components/States';
import { SignInPage } from './SignInPage';

interface SessionCtx {
  view: SessionView;
  setView(v: SessionView): void;
  signOut(): Promise<void>;
}

const Ctx = createContext<SessionCtx | null>(null);

/**
 * Who is using the app (session/state). When the server requires it, only the sign-in screen
 * shows until a person signs in; otherwise the app opens directly (embedded: the local user).
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [view, setView] = useState<SessionView | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let alive = true;
    call('session/state')
      .then((v) => alive && setView(v))
      .catch((e: unknown) => alive && setError(errorMessage(e)));
    return () => {
      alive = false;
    };
  }, []);

  const signOut = useCallback(async () => {
    setView(await call('session/signOut'));
  }, []);

  if (error) {
    return (
      <div className="signin-page" role="alert">
        <p>{error}</p>
      </div>
    );
  }
  if (!view) return <LoadingState label="Abrindo…" />;
  if (!view.entrou) return <SignInPage view={view} onSignedIn={setView} />;
  return <Ctx.Provider value={{ view, setView, signOut }}>{children}</Ctx.Provider>;
}

export function useSession(): SessionCtx {
  const c = useContext(Ctx);
  if (!c) throw new Error('useSession fora de SessionProvider');
  return c;
}

/** What the signed-in person may do: the UI shows only that (main refuses the rest anyway). */
export function usePermissions(): {
  can(p: Permissao): boolean;
  canAny(ps: readonly Permissao[]): boolean;
} {
  const { view } = useSession();
  const can = (p: Permissao) => view.permissoes.includes(p);
  return { can, canAny: (ps) => ps.some(can) };
}

/** A call refused because the session ended (login deactivated): reload to the sign-in screen. */
export function isSessionEnded(e: unknown): boolean {
  return (
    e instanceof ApiError && e.code === 'acesso_negado' && /sessão foi encerrada/.test(e.message)
  );
}
