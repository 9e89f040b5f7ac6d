import { useId, useState, type InputHTMLAttributes } from 'react';
import { addDays, formatDateBR, isIsoDate } from '@shared/time';

/**
 * The app's one date field: typed and shown as dd/mm/aaaa whatever the browser's locale (Debian
 * Chromium draws `<input type=date>` as mm/dd/yyyy even in pt-BR).
 *
 * - `value` is an ISO date (AAAA-MM-DD) or ''. `onChange` gets the ISO date once the text is a
 *   real date, '' when the field is emptied, and the typed text otherwise (not ISO, so every
 *   consumer's validation sees it as invalid).
 * - Typing digits inserts the slashes; "20122026" and a pasted "2026-12-20" are understood.
 * - ↑/↓ move one day, PageUp/PageDown 30 days; the message for an incomplete or impossible date
 *   is tied to the field (aria-invalid + aria-describedby) unless the caller shows its own.
 */
export interface DateFieldProps extends Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'value' | 'onChange' | 'type' | 'min' | 'max'
> {
  value: string;
  onChange: (value: string) => void;
  /** Earliest / latest accepted ISO dates (a message says so when outside). */
  min?: string;
  max?: string;
  /** false when the caller shows its own messages for this field. */
  ownMessages?: boolean;
}

/** dd/mm/aaaa (or d/m/aaaa) → ISO, or null when it is not a real date. */
export function parseDateBR(text: string): string | null {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text.trim());
  if (!m) return null;
  const iso = `${m[3]}-${m[2]!.padStart(2, '0')}-${m[1]!.padStart(2, '0')}`;
  return isIsoDate(iso) ? iso : null;
}

const toText = (v: string) => (isIsoDate(v) ? formatDateBR(v) : v);

/** The typed text with the slashes a person expects (only when typing forward). */
function maskTyped(raw: string, prev: string): string {
  const trimmed = raw.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(trimmed) && isIsoDate(trimmed)) return formatDateBR(trimmed);
  let t = raw.replace(/[^\d/]/g, '').slice(0, 10);
  if (/^\d{8}$/.test(t)) return `${t.slice(0, 2)}/${t.slice(2, 4)}/${t.slice(4)}`;
  if (raw.length > prev.length && /^(\d{2}|\d{1,2}\/\d{2})$/.test(t)) t += '/';
  return t;
}

function problemOf(text: string, min?: string, max?: string): string | null {
  if (text === '') return null;
  if (!/^\d{1,2}\/\d{1,2}\/\d{4}$/.test(text)) return 'Data incompleta: use dd/mm/aaaa.';
  const iso = parseDateBR(text);
  if (!iso) return `Essa data não existe: ${text}.`;
  if (min && iso < min) return `Use uma data a partir de ${formatDateBR(min)}.`;
  if (max && iso > max) return `Use uma data até ${formatDateBR(max)}.`;
  return null;
}

export function DateField({
  value,
  onChange,
  min,
  max,
  ownMessages = true,
  onBlur,
  onKeyDown,
  className,
  ...rest
}: DateFieldProps) {
  const msgId = useId();
  // The text follows `value` when the caller changes it (a preset), keeps what is typed otherwise.
  const [shown, setShown] = useState({ value, text: toText(value) });
  const [touched, setTouched] = useState(false);
  if (shown.value !== value) setShown({ value, text: toText(value) });
  const text = shown.text;

  const emit = (t: string) => {
    const iso = parseDateBR(t);
    const next = t === '' ? '' : (iso ?? t);
    setShown({ value: next, text: t });
    onChange(next);
  };

  const problem = problemOf(text, min, max);
  const showProblem = ownMessages && touched && problem !== null;
  const describedBy =
    [rest['aria-describedby'], showProblem ? msgId : null].filter(Boolean).join(' ') || undefined;

  return (
    <span className="date-field">
      <input
        {...rest}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        placeholder="dd/mm/aaaa"
        maxLength={10}
        className={className ? `date-input ${className}` : 'date-input'}
        value={text}
        aria-invalid={rest['aria-invalid'] ?? (showProblem ? true : undefined)}
        aria-describedby={describedBy}
        onChange={(e) => emit(maskTyped(e.target.value, text))}
        onBlur={(e) => {
          setTouched(true);
          onBlur?.(e);
        }}
        onKeyDown={(e) => {
          const step =
            e.key === 'ArrowUp'
              ? 1
              : e.key === 'ArrowDown'
                ? -1
                : e.key === 'PageUp'
                  ? 30
                  : e.key === 'PageDown'
                    ? -30
                    : 0;
          const iso = parseDateBR(text);
          if (step && iso) {
            e.preventDefault();
            let next = addDays(iso, step);
            if (min && next < min) next = min;
            if (max && next > max) next = max;
            emit(formatDateBR(next));
          }
          onKeyDown?.(e);
        }}
      />
      {showProblem ? (
        <span id={msgId} className="date-field__error" role="alert">
          {problem}
        </span>
      ) : null}
    </span>
  );
}
