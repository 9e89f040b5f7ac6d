import { formatDateBR } from '@shared/time';
import { useAppInfo } from '../appInfo';
import { StatusBadge } from './States';

/** Bottom bar: database state, business date and zone, operator, version. */
export function StatusBar() {
  const info = useAppInfo();
  return (
    <footer className="statusbar" aria-label="Estado do aplicativo">
      {info.status === 'loading' && !info.data ? (
        <span role="status">Conectando ao banco de dados…</span>
      ) : info.status === 'error' ? (
        <span className="statusbar-error" role="alert">
          {info.error.message}{' '}
          <button type="button" className="link" onClick={info.reload}>
            Tentar de novo
          </button>
        </span>
      ) : info.data ? (
        <>
          <span>
            Banco:{' '}
            <StatusBadge tone={info.data.databaseOk ? 'ok' : 'danger'}>
              {info.data.database === 'embedded' ? 'PostgreSQL embutido' : 'PostgreSQL externo'}
              {info.data.databaseOk ? '' : ' (sem conexão)'}
            </StatusBadge>
          </span>
          <span>
            Hoje: {formatDateBR(info.data.today)} ({info.data.timeZone})
          </span>
          <span>Operador: {info.data.operator}</span>
          <span className="statusbar-spacer" />
          <span>
            Atalhos: <kbd>?</kbd>
          </span>
          <span>v{info.data.version}</span>
        </>
      ) : null}
    </footer>
  );
}
