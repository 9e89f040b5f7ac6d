import { forwardRef, useState } from 'react';
import { MAX_PERGUNTA } from '@shared/contract/sales';

interface Props {
  value: string;
  onChange: (v: string) => void;
  onSubmit: (pergunta: string) => void;
  onCancel: () => void;
  history: string[];
  running: boolean;
  /** Progress line while the model works. */
  progress: string | null;
  /** Why asking is not possible right now (no key, no merchant), or null. */
  disabledReason: string | null;
}

/**
 * The question box. Enter asks; ↑/↓ walk through this window's questions; Esc cancels a
 * running question. "/" anywhere on the page focuses it (see SalesPanel).
 */
export const AskBox = forwardRef<HTMLInputElement, Props>(function AskBox(
  { value, onChange, onSubmit, onCancel, history, running, progress, disabledReason },
  ref,
) {
  // Position while walking the history: history.length = the text being typed.
  const [pos, setPos] = useState<number | null>(null);
  const [typed, setTyped] = useState('');
  const disabled = disabledReason !== null;

  const walk = (delta: number) => {
    if (history.length === 0) return;
    const from = pos ?? history.length;
    const to = Math.max(0, Math.min(history.length, from + delta));
    if (to === from) return;
    if (pos === null) setTyped(value);
    setPos(to === history.length ? null : to);
    onChange(to === history.length ? typed : (history[to] ?? ''));
  };

  return (
    <form
      className="sales-ask"
      role="search"
      aria-label="Pergunta sobre as vendas"
      onSubmit={(e) => {
        e.preventDefault();
        const q = value.trim();
        if (!q || running || disabled) return;
        setPos(null);
        onSubmit(q);
      }}
    >
      <div className="sales-ask__row">
        <input
          ref={ref}
          type="text"
          className="sales-ask__input"
          aria-label="Pergunta"
          aria-describedby="sales-ask-help"
          placeholder={
            disabled
              ? 'Perguntas em português precisam da chave da API'
              : 'Ex.: quanto vendi no crédito parcelado em março?  (atalho: /)'
          }
          value={value}
          maxLength={MAX_PERGUNTA}
          disabled={disabled}
          readOnly={running}
          data-testid="ask-input"
          onChange={(e) => {
            setPos(null);
            onChange(e.target.value);
          }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowUp') {
              e.preventDefault();
              walk(-1);
            } else if (e.key === 'ArrowDown') {
              e.preventDefault();
              walk(1);
            } else if (e.key === 'Escape' && running) {
              e.preventDefault();
              onCancel();
            }
          }}
        />
        {running ? (
          <button type="button" className="btn" onClick={onCancel} data-testid="ask-cancel">
            Cancelar
          </button>
        ) : (
          <button
            type="submit"
            className="btn btn-primary"
            disabled={disabled || value.trim().length === 0}
            data-testid="ask-submit"
          >
            Perguntar
          </button>
        )}
      </div>
      <p id="sales-ask-help" className="sales-ask__help">
        {disabledReason ??
          (history.length > 0
            ? `Enter pergunta · ↑/↓ percorre ${history.length === 1 ? 'a pergunta' : `as ${history.length} perguntas`} desta janela · Esc cancela`
            : 'Enter pergunta · Esc cancela')}
      </p>
      {history.length > 0 && !disabled && (
        <details className="sales-history" data-testid="ask-history">
          <summary>Perguntas desta janela ({history.length})</summary>
          <ul>
            {[...history].reverse().map((q) => (
              <li key={q}>
                <button
                  type="button"
                  className="link"
                  disabled={running}
                  onClick={() => {
                    setPos(null);
                    onChange(q);
                    if (ref && typeof ref === 'object') ref.current?.focus();
                  }}
                >
                  {q}
                </button>
              </li>
            ))}
          </ul>
        </details>
      )}
      <p className="sales-progress" role="status" aria-live="polite" data-testid="ask-progress">
        {running && progress ? (
          <>
            <span className="spinner" aria-hidden="true" /> {progress}
          </>
        ) : null}
      </p>
    </form>
  );
});
