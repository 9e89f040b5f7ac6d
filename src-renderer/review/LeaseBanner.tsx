import type { ExtractionDetail } from '@shared/contract/review';
import { usePermissions } from '../session/session';
import type { LeaseState } from './useLease';

/** Why the agent cannot edit an open item (claiming, someone else holds it, lease lost). */
export function LeaseBanner({
  detail,
  lease,
  onRetry,
  onTakeOver,
}: {
  detail: ExtractionDetail;
  lease: LeaseState;
  onRetry: () => void;
  onTakeOver: () => void;
}) {
  const supervisor = usePermissions().can('supervisao');
  if (detail.filaEstado !== 'aberta') return null;
  if (lease.kind === 'claiming') {
    return (
      <p className="notice" role="status">
        Reservando o pedido para você…
      </p>
    );
  }
  if (lease.kind === 'held') return null;
  const msg =
    lease.kind === 'other'
      ? lease.mensagem
      : (lease.kind === 'lost' && lease.mensagem) || 'Você não está com este pedido.';
  return (
    <div className="notice notice-warn review-lease" role="status" data-testid="lease-banner">
      <span>{msg}</span>{' '}
      <button type="button" className="btn btn-ghost" onClick={onRetry}>
        Tentar assumir de novo
      </button>
      {supervisor && lease.kind === 'other' && lease.emAnalisePor ? (
        <button type="button" className="btn" onClick={onTakeOver}>
          Assumir de {lease.emAnalisePor} (supervisor)
        </button>
      ) : null}
    </div>
  );
}
