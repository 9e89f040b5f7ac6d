import type { ExtractionDetail } from '@shared/contract/review';
import { CARD_REMOVED_NOTICE, hasRemovedCard } from '@shared/pii';
import { DispatchHistory } from '../charges/Dispatch';
import { Revelavel } from '../lgpd/Revelavel';
import { AuditTrail, Timeline, UsageDetails } from './Timeline';

/** The left column: the merchant's message, the model's attempts and the audit trail. */
export function ItemHistory({ detail, zone }: { detail: ExtractionDetail; zone: string }) {
  // A card number was taken out of the message or an answer before it was stored (#38.1).
  const cardRemoved = hasRemovedCard(detail.texto, ...detail.respostas.map((r) => r.resposta));
  return (
    <div className="review-col">
      <section className="card" aria-labelledby="msg-title">
        <h2 id="msg-title">Mensagem do lojista</h2>
        <p className="review-text" data-testid="original-text">
          <Revelavel texto={detail.texto} campo="extracoes.texto" id={detail.id} />
        </p>
        {cardRemoved ? (
          <p className="notice notice-warn" role="note" data-testid="card-removed">
            {CARD_REMOVED_NOTICE}
          </p>
        ) : null}
        {detail.motivo ? <p className="muted">Motivo: {detail.motivo}</p> : null}
      </section>
      <section className="card" aria-labelledby="tl-title">
        <h2 id="tl-title">Tentativas do modelo</h2>
        <Timeline
          attempts={detail.tentativasDetalhe}
          respostas={detail.respostas}
          timeZone={zone}
        />
        <UsageDetails attempts={detail.tentativasDetalhe} custoUsd={detail.custoUsd} />
      </section>
      {detail.cobranca ? <DispatchHistory cobrancaId={detail.cobranca.id} zone={zone} /> : null}
      <section className="card" aria-labelledby="audit-title">
        <h2 id="audit-title">Histórico</h2>
        <AuditTrail events={detail.eventos} timeZone={zone} />
      </section>
    </div>
  );
}
