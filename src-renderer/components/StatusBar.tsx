import { useEffect } from 'react';
import { timeZonePlace } from '@shared/choices';
import { formatDateBR } from '@shared/time';
import { useAppInfo } from '../appInfo';
import { StatusBadge } from './States';

/** Bottom bar: database state, business date and zone, operator, version. */
export function StatusBar() {
  const info = useAppInfo();
  const hasReplica = Boolean(info.data?.analytics);
  const { reload } = info;
  // A replica's lag changes: refresh it every 15 s while there is one.
  useEffect(() => {
    if (!hasReplica) return;
    const t = setInterval(reload, 15_000);
    return () => clearInterval(t);
  }, [hasReplica, reload]);
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
          {info.data.analytics && (
            <span data-testid="replica-lag">
              <StatusBadge
                tone={
                  !info.data.analytics.ok
                    ? 'danger'
                    : info.data.analytics.desatualizado
                      ? 'warn'
                      : 'ok'
                }
              >
                {info.data.analytics.texto}
              </StatusBadge>
            </span>
          )}
          <span>
            Hoje: {formatDateBR(info.data.today)}{' '}
            <span title={info.data.timeZone}>(fuso de {timeZonePlace(info.data.timeZone)})</span>
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
