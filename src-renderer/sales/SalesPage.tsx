import { useRef, useState } from 'react';
import type { MerchantSummary } from '@shared/contract/sales';
import { Page } from '../components/Layout';
import { useShortcut } from '../components/Shortcuts';
import { EmptyState } from '../components/States';
import type { Route } from '../router';
import { MerchantPicker } from './MerchantPicker';

/**
 * First version of the sales area: choose the merchant whose sales are asked about. The sales
 * panel issue replaces the internals of this folder (questions, answers, charts).
 */
export function SalesPage(_props: { route: Route }) {
  const [merchant, setMerchant] = useState<MerchantSummary | null>(null);
  const pickerRef = useRef<HTMLInputElement>(null);
  useShortcut('Mod+l', () => pickerRef.current?.focus(), {
    description: 'Escolher o lojista',
    group: 'Vendas',
  });
  return (
    <Page title="Vendas" subtitle="Perguntas sobre as vendas de um lojista.">
      <div className="card">
        <MerchantPicker value={merchant} onChange={setMerchant} inputRef={pickerRef} />
      </div>
      {merchant ? (
        <div className="card" aria-live="polite">
          <p className="selected-merchant">
            Lojista selecionado: <strong>{merchant.nome}</strong>{' '}
            <span className="muted">#{merchant.id}</span>
          </p>
        </div>
      ) : (
        <EmptyState title="Escolha um lojista">
          As perguntas de vendas respondem sempre sobre um único lojista. Busque pelo nome ou pelo
          número.
        </EmptyState>
      )}
    </Page>
  );
}
