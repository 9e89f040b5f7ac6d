import { useState } from 'react';
import type { SalesAnswer, SalesFreeAnswer } from '@shared/contract/sales';
import { downloadText } from '../download';
import type { CsvFormat } from './csv';
import { answerCsv, csvFileName, freeCsv } from './export';

/** Downloads the shown rows as CSV; the pt-BR option uses ; and decimal comma. */
export function CsvButton({ answer }: { answer: SalesAnswer | SalesFreeAnswer }) {
  const [format, setFormat] = useState<CsvFormat>('pt-BR');
  const download = () => {
    const text = answer.tipo === 'livre' ? freeCsv(answer, format) : answerCsv(answer, format);
    downloadText(csvFileName(answer), text);
  };
  return (
    <div className="sales-csv">
      <button type="button" className="btn" onClick={download} data-testid="csv-download">
        Exportar CSV
      </button>
      <label className="sales-check">
        <input
          type="checkbox"
          checked={format === 'pt-BR'}
          data-testid="csv-ptbr"
          onChange={(e) => setFormat(e.target.checked ? 'pt-BR' : 'padrao')}
        />
        números no formato brasileiro (1234,56 e ;)
      </label>
    </div>
  );
}
