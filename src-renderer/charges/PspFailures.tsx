/**
 * "Falhas no PSP" (#36.7): charges the PSP refused or that could not be sent (no Pix key of the
 * merchant, attempts used up), with the reason in pt-BR; a person sends one again after fixing
 * what the reason says. Never lost: a failed charge stays here until it is sent or cancelled.
 */
import { useState } from 'react';
import { ESTADO_ENVIO_LABELS, type FalhaPsp } from '@shared/contract/pix';
import { formatBRL } from '@shared/money';
import { call, errorMessage } from '../api';
import { EmptyState, ErrorState, LoadingState } from '../components/States';
import { useToast } from '../components/Toast';
import { formatDateTime } from '../format';
import { hrefFor } from '../router';
import { useChannel } from '../useChannel';
import { formatDueDate } from '../review/describe';
import { usePermissions } from '../session/session';
import { NoPspNotice } from './Dispatch';

export function PspFailures({ zone }: { zone: string }) {
  const list = useChannel('pix/failures', {});
  const toast = useToast();
  // A supervisor fixes the merchant (its Pix key) on the merchant screen, one click away.
  const lojistas = usePermissions().can('supervisao');
  const [busy, setBusy] = useState<number | null>(null);
  const resend = async (f: FalhaPsp) => {
    setBusy(f.cobrancaId);
    try {
      const r = await call('pix/resend', { cobrancaId: f.cobrancaId });
      if (r.estado === 'falhou') {
        toast.show('error', `A cobrança #${f.cobrancaId} falhou de novo: ${r.motivo ?? ''}`);
      } else {
        toast.show(
          'success',
          `Cobrança #${f.cobrancaId} reenviada: ${ESTADO_ENVIO_LABELS[r.estado].toLowerCase()}.`,
        );
      }
    } catch (e) {
      toast.show('error', errorMessage(e));
    } finally {
      setBusy(null);
      list.reload();
    }
  };
  const items = list.data?.items ?? [];
  return (
    <div className="queue-body">
      <NoPspNotice />
      {list.error && !items.length ? (
        <ErrorState error={list.error} onRetry={list.reload} />
      ) : !list.data ? (
        <LoadingState label="Carregando as falhas no PSP…" />
      ) : !items.length ? (
        <EmptyState title="Nenhuma falha no PSP">
          Cobranças que o PSP recusar ou que não puderem ser enviadas aparecem aqui, com o motivo.
        </EmptyState>
      ) : (
        <div className="table-wrap">
          <table className="table" data-testid="psp-failures-table">
            <caption className="visually-hidden">Cobranças com falha no PSP</caption>
            <thead>
              <tr>
                <th scope="col" className="num">
                  Nº
                </th>
                <th scope="col">Desde</th>
                <th scope="col">Lojista</th>
                <th scope="col">Cliente</th>
                <th scope="col" className="num">
                  Valor
                </th>
                <th scope="col">Vencimento</th>
                <th scope="col">Motivo</th>
                <th scope="col">Ações</th>
              </tr>
            </thead>
            <tbody>
              {items.map((f) => (
                <tr key={f.cobrancaId} data-testid={`falha-${f.cobrancaId}`}>
                  <td className="num nowrap">
                    <a className="link" href={hrefFor('fila', f.extracaoId)}>
                      #{f.cobrancaId}
                    </a>
                  </td>
                  <td className="nowrap">{formatDateTime(f.atualizadaEm, zone)}</td>
                  <td>
                    {lojistas ? (
                      <a className="link" href={hrefFor('lojistas', f.merchantId)}>
                        {f.merchantNome}
                      </a>
                    ) : (
                      f.merchantNome
                    )}
                  </td>
                  <td>{f.clienteNome}</td>
                  <td className="num nowrap">{formatBRL(f.valorCentavos)}</td>
                  <td className="nowrap">{formatDueDate(f.vencimento)}</td>
                  <td data-testid="falha-motivo">{f.motivo}</td>
                  <td className="nowrap">
                    <button
                      type="button"
                      className="btn btn-small"
                      disabled={busy !== null}
                      onClick={() => void resend(f)}
                    >
                      {busy === f.cobrancaId ? 'Reenviando…' : 'Reenviar'}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
