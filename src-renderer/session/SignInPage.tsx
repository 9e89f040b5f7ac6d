import { useId, useRef, useState, type FormEvent } from 'react';
import type { SessionView } from '@shared/contract/session';
import { ApiError, call, errorMessage } from '../api';

/** User and password (and "lembrar" where the system can encrypt it). */
export function SignInPage({
  view,
  onSignedIn,
}: {
  view: SessionView;
  onSignedIn(v: SessionView): void;
}) {
  const [usuario, setUsuario] = useState('');
  const [senha, setSenha] = useState('');
  const [lembrar, setLembrar] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const ids = { u: useId(), s: useId(), l: useId(), e: useId(), m: useId() };
  const senhaRef = useRef<HTMLInputElement>(null);

  const submit = async (ev: FormEvent) => {
    ev.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await call('session/signIn', { usuario, senha, lembrar }));
    } catch (e) {
      setError(errorMessage(e));
      if (e instanceof ApiError && e.code === 'acesso_negado') {
        // Wrong password: cleared, and the person types it again right there.
        setSenha('');
        senhaRef.current?.focus();
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="signin-page">
      <form className="signin-card" onSubmit={(e) => void submit(e)} aria-labelledby={ids.m}>
        <h1 id={ids.m}>Entrar no Balcão</h1>
        <p className="muted">Use o seu usuário e a sua senha do banco de dados da equipe.</p>
        {view.aviso ? (
          <p className="signin-notice" role="status">
            {view.aviso}
          </p>
        ) : null}
        <label htmlFor={ids.u}>Usuário</label>
        <input
          id={ids.u}
          name="usuario"
          autoComplete="username"
          autoFocus
          required
          value={usuario}
          onChange={(e) => setUsuario(e.target.value)}
        />
        <label htmlFor={ids.s}>Senha</label>
        <input
          id={ids.s}
          ref={senhaRef}
          name="senha"
          type="password"
          autoComplete="current-password"
          required
          value={senha}
          onChange={(e) => setSenha(e.target.value)}
          aria-describedby={error ? ids.e : undefined}
        />
        <div className="signin-remember">
          <input
            id={ids.l}
            type="checkbox"
            checked={lembrar}
            disabled={!view.podeLembrar}
            onChange={(e) => setLembrar(e.target.checked)}
          />
          <label htmlFor={ids.l}>Lembrar neste computador</label>
        </div>
        {!view.podeLembrar && view.motivoSemLembrar ? (
          <p className="muted signin-hint">{view.motivoSemLembrar}</p>
        ) : null}
        {error ? (
          <p id={ids.e} className="signin-error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" className="primary" disabled={busy || !usuario || !senha}>
          {busy ? 'Entrando…' : 'Entrar'}
        </button>
      </form>
    </div>
  );
}
