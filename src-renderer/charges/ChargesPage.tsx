import { Page } from '../components/Layout';
import { EmptyState } from '../components/States';

/** Charges created from confirmed extractions. Filled in by the queue issue. */
export function ChargesPage() {
  return (
    <Page title="Cobranças" subtitle="Cobranças criadas a partir de pedidos confirmados.">
      <EmptyState title="Nenhuma cobrança para mostrar">
        Quando um pedido da fila for confirmado, a cobrança criada aparece aqui.
      </EmptyState>
    </Page>
  );
}
