import type { SalesFreeAnswer } from '@shared/contract/sales';
import { formatBRL } from '@shared/money';
import { BreakableText } from '../components/CellText';
import { CsvButton } from './CsvButton';
import { FreshnessNote } from './FreshnessNote';

type Cell = SalesFreeAnswer['linhas'][number][number];

const EXACT_DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/** An exact decimal string (a bigint or numeric a double cannot hold) in pt-BR, every digit kept. */
function exactDecimalText(v: string): string {
  const m = EXACT_DECIMAL.exec(v);
  if (!m) return v;
  const int = (m[2] as string).replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${m[1]}${int}${m[3] ? `,${m[3]}` : ''}`;
}

function isNumeric(v: Cell | undefined): boolean {
  return typeof v === 'number' || (typeof v === 'string' && EXACT_DECIMAL.test(v));
}

/** Columns the free query names `…_centavos` hold money: shown in reais. */
function cellText(column: string, v: Cell | undefined): string {
  if (v === null || v === undefined) return '—';
  if (column.endsWith('_centavos') && typeof v === 'number' && Number.isSafeInteger(v)) {
    return formatBRL(v);
  }
  if (typeof v === 'number') return v.toLocaleString('pt-BR', { maximumFractionDigits: 20 });
  if (typeof v === 'string') return EXACT_DECIMAL.test(v) ? exactDecimalText(v) : v;
  return v ? 'sim' : 'não';
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
                {answer.colunas.map((c, i) => (
                  <th
                    key={i}
                    scope="col"
                    className={isNumeric(answer.linhas[0]?.[i]) ? 'is-num' : undefined}
                  >
                    <BreakableText text={c} />
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {answer.linhas.map((r, i) => (
                <tr key={i}>
                  {answer.colunas.map((c, j) => (
                    <td key={j} className={isNumeric(r[j]) ? 'is-num' : undefined}>
                      <BreakableText text={cellText(c, r[j])} />
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
