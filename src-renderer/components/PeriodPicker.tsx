import { useState } from 'react';
import { periodProblems } from '@shared/periods';
import { addDays, isIsoDate } from '@shared/time';
import { DateField } from './DateField';

export interface Period {
  de: string;
  ate: string;
}

/**
 * The one period control of the app (reports, lists): presets ("Últimos 7 dias"…) and two
 * dd/mm/aaaa fields. `onChange` only ever receives a valid period (checked by the same rules as
 * the IPC schemas); while the typed one is not, the problem is shown in place and the page keeps
 * showing the last valid period.
 */
export function PeriodPicker({
  today,
  value,
  onChange,
  presets = [7, 30, 90],
  maxDays,
}: {
  today: string;
  value: Period;
  onChange: (p: Period) => void;
  presets?: readonly number[];
  maxDays?: number;
}) {
  const [draft, setDraft] = useState<Period>(value);
  const [seen, setSeen] = useState<Period>(value);
  if (seen.de !== value.de || seen.ate !== value.ate) {
    setSeen(value);
    setDraft(value);
  }
  const complete = isIsoDate(draft.de) && isIsoDate(draft.ate);
  const problems = complete ? periodProblems(draft.de, draft.ate, maxDays) : [];

  const change = (p: Period) => {
    setDraft(p);
    if (isIsoDate(p.de) && isIsoDate(p.ate) && periodProblems(p.de, p.ate, maxDays).length === 0) {
      setSeen(p);
      onChange(p);
    }
  };

  return (
    <div className="period-picker" role="group" aria-label="Período">
      <div className="segmented" role="group" aria-label="Períodos prontos">
        {presets.map((dias) => {
          const from = addDays(today, -(dias - 1));
          return (
            <button
              key={dias}
              type="button"
              aria-pressed={value.de === from && value.ate === today}
              onClick={() => change({ de: from, ate: today })}
            >
              Últimos {dias} dias
            </button>
          );
        })}
      </div>
      <label className="field-inline">
        <span>De</span>
        <DateField
          value={draft.de}
          max={draft.ate && isIsoDate(draft.ate) ? draft.ate : undefined}
          onChange={(de) => change({ ...draft, de })}
          data-testid="period-de"
        />
      </label>
      <label className="field-inline">
        <span>Até</span>
        <DateField
          value={draft.ate}
          min={draft.de && isIsoDate(draft.de) ? draft.de : undefined}
          onChange={(ate) => change({ ...draft, ate })}
          data-testid="period-ate"
        />
      </label>
      {problems.length ? (
        <span className="field-error period-picker__error" role="alert">
          {problems.map((p) => p.message).join(' ')}
        </span>
      ) : null}
    </div>
  );
}
