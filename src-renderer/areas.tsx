import type { ReactNode } from 'react';
import { ChargesPage } from './charges/ChargesPage';
import { ReportPage } from './report/ReportPage';
import { QueuePage } from './review/QueuePage';
import { SalesPage } from './sales/SalesPage';
import { SettingsPage } from './settings/SettingsPage';
import type { Route } from './router';

/** The app's areas, in navigation order. Each area's page owns its folder. */
export interface Area {
  id: string;
  label: string;
  /** Shortcut digit: Alt+N. */
  digit: number;
  render(route: Route): ReactNode;
}

export const AREAS: readonly Area[] = [
  { id: 'fila', label: 'Fila de revisão', digit: 1, render: (r) => <QueuePage route={r} /> },
  { id: 'vendas', label: 'Vendas', digit: 2, render: (r) => <SalesPage route={r} /> },
  { id: 'cobrancas', label: 'Cobranças', digit: 3, render: () => <ChargesPage /> },
  { id: 'relatorio', label: 'Relatório', digit: 4, render: () => <ReportPage /> },
  {
    id: 'configuracoes',
    label: 'Configurações',
    digit: 5,
    render: () => <SettingsPage />,
  },
];

export const DEFAULT_AREA = 'fila';
