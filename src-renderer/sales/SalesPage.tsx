import { Page } from '../components/Layout';
import type { Route } from '../router';
import { SalesPanel } from './SalesPanel';

/** Vendas: questions about one merchant's sales (the merchant is held by main per window). */
export function SalesPage(_props: { route: Route }) {
  return (
    <Page
      title="Vendas"
      subtitle="Perguntas sobre as vendas de um lojista, respondidas pelo banco."
    >
      <SalesPanel />
    </Page>
  );
}
