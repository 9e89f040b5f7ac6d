import { papeisLabel } from '@shared/permissions';
import { useAppInfo } from '../appInfo';
import { useSession } from '../session/session';

/**
 * Who the database records (#18). There is no operator name to type: every audit entry, charge,
 * lease and question carries the database login of the session (session_user), forced by the
 * database itself. This card only shows it.
 */
export function IdentityCard() {
  const { view } = useSession();
  const info = useAppInfo().data;
  const papeis = papeisLabel(view.papeis) || 'nenhum';
  return (
    <section className="card" aria-labelledby="identity-title">
      <h2 id="identity-title">Quem está usando</h2>
      {view.modo === 'servico' ? (
        <>
          <p>
            Instalação sem entrada por pessoa: todos usam o mesmo acesso do Balcão, e o que se faz
            aqui fica registrado com o nome{' '}
            <code data-testid="identity-login">{info?.operator ?? view.login ?? '—'}</code>.
          </p>
          <p className="hint">
            Para que cada pessoa responda pelo que faz, peça ao administrador um acesso com usuário
            e senha para cada pessoa da equipe.
          </p>
        </>
      ) : (
        <>
          <p>
            Login no banco: <code data-testid="identity-login">{view.login ?? '—'}</code>
            <br />
            Papel: {papeis}
          </p>
          <p className="hint">
            É este login que o banco registra na auditoria, nas cobranças, nas reservas de itens e
            nas perguntas de vendas. Ele não pode ser trocado aqui: para agir como outra pessoa, é
            preciso entrar com o login dela.
          </p>
        </>
      )}
    </section>
  );
}
