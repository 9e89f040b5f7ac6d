import { lazy, type ReactNode } from 'react';
import type { Permissao } from '@shared/permissions';
import type { Route } from './router';

// Each area is its own chunk: the window opens without parsing every page (charts, tables).
const QueuePage = lazy(() => import('./review/QueuePage').then((m) => ({ default: m.QueuePage })));
const SalesPage = lazy(() => import('./sales/SalesPage').then((m) => ({ default: m.SalesPage })));
const ChargesPage = lazy(() =>
  import('./charges/ChargesPage').then((m) => ({ default: m.ChargesPage })),
);
const ReportsArea = lazy(() =>
  import('./report/ReportsArea').then((m) => ({ default: m.ReportsArea })),
);
const LgpdPage = lazy(() => import('./lgpd/LgpdPage').then((m) => ({ default: m.LgpdPage })));
const MerchantsPage = lazy(() =>
  import('./merchants/MerchantsPage').then((m) => ({ default: m.MerchantsPage })),
);
const SettingsPage = lazy(() =>
  import('./settings/SettingsPage').then((m) => ({ default: m.SettingsPage })),
);

/** The app's areas, in navigation order. Each area's page owns its folder. */
export interface Area {
  id: string;
  label: string;
  /** Shortcut digit: Alt+N. */
  digit: number;
  /** Shown to a person with any of these permissions (absent: everyone). */
  requires?: readonly Permissao[];
  render(route: Route): ReactNode;
}

export const AREAS: readonly Area[] = [
  {
    id: 'fila',
    label: 'Fila de revisão',
    digit: 1,
    requires: ['fila'],
    render: (r) => <QueuePage route={r} />,
  },
  {
    id: 'vendas',
    label: 'Vendas',
    digit: 2,
    requires: ['vendas'],
    render: (r) => <SalesPage route={r} />,
  },
  {
    id: 'cobrancas',
    label: 'Cobranças',
    digit: 3,
    requires: ['fila'],
    render: () => <ChargesPage />,
  },
  {
    id: 'relatorio',
    label: 'Relatório',
    digit: 4,
    requires: ['fila', 'vendas'],
    render: (r) => <ReportsArea route={r} />,
  },
  {
    id: 'configuracoes',
    label: 'Configurações',
    digit: 5,
    render: () => <SettingsPage />,
  },
  {
    id: 'lgpd',
    label: 'LGPD',
    digit: 6,
    requires: ['supervisao'],
    render: () => <LgpdPage />,
  },
  {
    id: 'lojistas',
    label: 'Lojistas',
    digit: 7,
    requires: ['supervisao'],
    render: (r) => <MerchantsPage route={r} />,
  },
];

export const DEFAULT_AREA = 'fila';
