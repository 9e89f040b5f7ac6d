import { lazy, Suspense } from 'react';
import { Page } from '../components/Layout';
import { LoadingState } from '../components/States';
import type { Route } from '../router';

// The panel (charts, table) loads when the Vendas area is first opened, not at app start.
const SalesPanel = lazy(() => import('./SalesPanel').then((m) => ({ default: m.SalesPanel })));

/** Vendas: questions about one merchant's sales (the merchant is held by main per window). */
export function SalesPage(_props: { route: Route }) {
  return (
    <Page
      title="Vendas"
      subtitle="Perguntas sobre as vendas de um lojista, respondidas pelo banco."
    >
      <Suspense fallback={<LoadingState />}>
        <SalesPanel />
      </Suspense>
    </Page>
  );
}
