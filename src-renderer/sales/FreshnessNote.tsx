import type { Frescor } from '@shared/freshness';

/**
 * How fresh an answer is when sales questions read a replica (#16): "dados até 14:32:05", the
 * possibly-stale warning above BALCAO_MAX_LAG_S, or that the primary answered instead.
 */
export function FreshnessNote({ frescor }: { frescor: Frescor | undefined }) {
  if (!frescor) return null;
  const warn = frescor.desatualizado || frescor.fonte === 'primario';
  return (
    <p
      className={warn ? 'sales-freshness sales-freshness--warn' : 'sales-freshness muted'}
      data-testid="freshness"
      data-fonte={frescor.fonte}
      data-desatualizado={frescor.desatualizado ? 'sim' : 'nao'}
    >
      {frescor.desatualizado ? '⚠ ' : ''}
      {frescor.aviso.charAt(0).toUpperCase() + frescor.aviso.slice(1)}.
    </p>
  );
}
