import type { MerchantSummary, SalesAnswer, SalesFreeAnswer } from '@shared/contract/sales';
import { formatValor } from '@shared/sales-format';
import { CsvButton } from './CsvButton';
import { FreeResult } from './FreeResult';
import { FreshnessNote } from './FreshnessNote';
import { ResultChart } from './ResultChart';
import { ResultTable } from './ResultTable';

/**
 * A DSL answer. Without `details`: the code-written sentence and the interpretation (the chips
 * follow it). With `details`: the chart, the table and the CSV export.
 */
export function AnswerView({
  answer,
  details = false,
}: {
  answer: SalesAnswer | SalesFreeAnswer;
  details?: boolean;
}) {
  if (answer.tipo === 'livre') {
    return details ? null : (
      <>
        <AnswerMerchant merchant={answer.merchant} />
        <FreeResult answer={answer} />
      </>
    );
  }
  const { agrupar_por: g, metrica } = answer.consulta;

  if (details) {
    if (g === 'nenhum') {
      return (
        <div className="sales-details">
          <CsvButton answer={answer} />
        </div>
      );
    }
    if (answer.linhas.length === 0) {
      return (
        <p className="sales-empty" data-testid="no-rows">
          Nenhum grupo com vendas no período.
        </p>
      );
    }
    return (
      <div className="sales-details">
        <ResultChart answer={answer} />
        <ResultTable key={`${g}-${metrica}`} answer={answer} />
        <CsvButton answer={answer} />
      </div>
    );
  }

  return (
    <div className="sales-answer" data-testid="answer" data-origem={answer.origem}>
      <AnswerMerchant merchant={answer.merchant} />
      {g === 'nenhum' && (
        <p className="sales-answer__number" data-testid="answer-number">
          {formatValor(metrica, answer.linhas[0]?.valor ?? null)}
        </p>
      )}
      <p className="sales-answer__text" data-testid="answer-text">
        {answer.partes.frases.join('\n')}
      </p>
      <p className="sales-answer__interp" data-testid="interpretation">
        {answer.interpretacao}
      </p>
      <FreshnessNote frescor={answer.frescor} />
      {answer.origem === 'consulta' && (
        <p className="muted sales-answer__origin">Consulta montada pelos filtros, sem o modelo.</p>
      )}
    </div>
  );
}

/** Whose sales these are, on every answer (the tenant the main process used, not the picker's). */
export function AnswerMerchant({ merchant }: { merchant: MerchantSummary }) {
  return (
    <p className="sales-answer__merchant" data-testid="answer-merchant">
      Vendas de <strong>{merchant.nome}</strong> <span className="muted">#{merchant.id}</span>
    </p>
  );
}
