import type { ExtractionDetail } from '@shared/contract/review';
import { DISCARD_REASON_LABELS } from '@shared/contract/review';
import { formatDateTime } from '../format';
import { hrefFor } from '../router';
import { fieldLabel } from '@shared/rule-text';
import { describeCharge, formatFieldValue } from './describe';

/** What became of the item: the charge it created (with the agent's changes) or its discard. */
export function ItemOutcome({ detail, zone }: { detail: ExtractionDetail; zone: string }) {
  return (
    <>
      {detail.cobranca ? <CreatedCharge charge={detail.cobranca} zone={zone} /> : null}
      {detail.descarte ? (
        <section className="card" data-testid="discarded">
          <h2>Descartado</h2>
          <p>
            {DISCARD_REASON_LABELS[detail.descarte.motivo]}
            {detail.descarte.detalhe ? `: ${detail.descarte.detalhe}` : ''}
            {detail.descarte.por ? ` — por ${detail.descarte.por}` : ''}
          </p>
        </section>
      ) : null}
    </>
  );
}

function CreatedCharge({
  charge,
  zone,
}: {
  charge: NonNullable<ExtractionDetail['cobranca']>;
  zone: string;
}) {
  return (
    <section
      className="card review-done"
      aria-labelledby="charge-title"
      data-testid="created-charge"
    >
      <h2 id="charge-title">Cobrança #{charge.id} criada</h2>
      <p className="review-charge-line">
        {describeCharge({
          valor_centavos: charge.valorCentavos,
          parcelas: charge.parcelas,
          metodo: charge.metodo,
          cliente_nome: charge.clienteNome,
          vencimento: charge.vencimento,
        })}
      </p>
      <p className="muted">
        Por {charge.criadaPor} em {formatDateTime(charge.criadaEm, zone)}.
      </p>
      {Object.keys(charge.alteracoes).length ? (
        <ul className="review-changes">
          {Object.entries(charge.alteracoes).map(([campo, v]) => (
            <li key={campo}>
              <strong>{fieldLabel(campo)}:</strong> {formatFieldValue(campo, v.modelo)} →{' '}
              {formatFieldValue(campo, v.agente)}
            </li>
          ))}
        </ul>
      ) : null}
      <a className="link" href={hrefFor('cobrancas')}>
        Ver todas as cobranças
      </a>
    </section>
  );
}
