import { Page } from '../components/Layout';
import { EmptyState } from '../components/States';

/** Usage and quality report (model calls, cost, outcomes). Filled in by a later issue. */
export function ReportPage() {
  return (
    <Page title="Relatório" subtitle="Uso do modelo, custo e resultados das extrações.">
      <EmptyState title="Relatório ainda sem dados">
        Os números aparecem aqui quando houver extrações e perguntas registradas.
      </EmptyState>
    </Page>
  );
}
