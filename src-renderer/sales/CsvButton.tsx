import type { SalesAnswer, SalesFreeAnswer } from '@shared/contract/sales';
import { CsvExport } from '../components/CsvExport';
import { answerCsv, csvFileName, freeCsv } from './export';

/** Downloads the shown rows as CSV; the pt-BR option uses ; and decimal comma. */
export function CsvButton({ answer }: { answer: SalesAnswer | SalesFreeAnswer }) {
  return (
    <CsvExport
      testId="csv-download"
      checkTestId="csv-ptbr"
      formatLabel="números no formato brasileiro (1234,56 e ;)"
      csv={(format) => ({
        fileName: csvFileName(answer),
        text: answer.tipo === 'livre' ? freeCsv(answer, format) : answerCsv(answer, format),
      })}
    />
  );
}
