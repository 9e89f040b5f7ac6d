import type { SalesFreeAnswer } from '@shared/contract/sales';
import { formatBRL } from '@shared/money';
import { CsvButton } from './CsvButton';
import { FreshnessNote } from './FreshnessNote';

/** Columns the free query names `…_centavos` hold money: shown in reais. */
function cellText(column: string, v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (column.endsWith('_centavos') && typeof v === 'number' && Number.isSafeInteger(v)) {
    return formatBRL(v);
  }
  if (typeof v === 'number') return v.toLocaleString('pt-BR');
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}

/** A free-SQL answer: labelled to double-check, the SQL visible, rows as they came. */
export function FreeResult({ answer }: { answer: SalesFreeAnswer }) {
  return (
    <section className="sales-free" data-testid="free-result" aria-label="Consulta livre">
      <p className="sales-free__label">
        <span className="sales-badge sales-badge--warn">consulta livre — confira</span> A pergunta
        não coube nos filtros prontos; o modelo escreveu a consulta abaixo, executada só sobre as
        vendas deste lojista.
      </p>
      <p className="sales-answer__text" data-testid="free-resposta">
        {answer.resposta}
      </p>
      <FreshnessNote frescor={answer.frescor} />
      <details className="sales-free__sql" open>
        <summary>SQL executado</summary>
        <pre data-testid="free-sql">
          <code>{answer.sql}</code>
        </pre>
      </details>
      {answer.linhas.length === 0 ? (
        <p className="sales-empty">A consulta não trouxe linhas.</p>
      ) : (
        <div className="sales-table-wrap">
          <table className="sales-table" data-testid="free-table">
            <thead>
              <tr>
                {answer.colunas.map((c) => (
                  <th
                    key={c}
                    scope="col"
                    className={typeof answer.linhas[0]?.[c] === 'number' ? 'is-num' : undefined}
                  >
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {answer.linhas.map((r, i) => (
                <tr key={i}>
                  {answer.colunas.map((c) => (
                    <td key={c} className={typeof r[c] === 'number' ? 'is-num' : undefined}>
                      {cellText(c, r[c])}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {answer.truncado && (
        <p className="muted">Mostrando só as primeiras {answer.linhas.length} linhas.</p>
      )}
      <CsvButton answer={answer} />
    </section>
  );
}
