import { useState } from 'react';
import { downloadText } from '../download';
import type { CsvFormat } from '../sales/csv';

/**
 * "Exportar CSV" and the pt-BR format checkbox (on by default): `csv` builds the file for the
 * chosen format when the button is pressed.
 */
export function CsvExport(props: {
  csv: (format: CsvFormat) => { fileName: string; text: string };
  /** The checkbox's text. */
  formatLabel: string;
  testId: string;
  checkTestId?: string;
}) {
  const [format, setFormat] = useState<CsvFormat>('pt-BR');
  const download = () => {
    const { fileName, text } = props.csv(format);
    downloadText(fileName, text);
  };
  return (
    <div className="sales-csv">
      <button type="button" className="btn" onClick={download} data-testid={props.testId}>
        Exportar CSV
      </button>
      <label className="sales-check">
        <input
          type="checkbox"
          checked={format === 'pt-BR'}
          {...(props.checkTestId ? { 'data-testid': props.checkTestId } : {})}
          onChange={(e) => setFormat(e.target.checked ? 'pt-BR' : 'padrao')}
        />
        {props.formatLabel}
      </label>
    </div>
  );
}
