import { useEffect, useId, useRef, useState, type RefObject } from 'react';
import type { MerchantSummary } from '@shared/contract/sales';
import { call } from '../api';
import { useChannel } from '../useChannel';

/**
 * Searchable merchant picker (combobox): type a name or an id, ↑/↓ to move, Enter to choose,
 * Esc to close. Results come from `sales/merchants`.
 *
 * It can only choose what the user typed: the list shows results only once they answer the
 * text now in the box (never a previous search's rows), and Enter pressed while the search is
 * catching up waits for the answer to the current text and then takes its best match.
 */
export function MerchantPicker({
  value,
  onChange,
  inputRef,
}: {
  value: MerchantSummary | null;
  onChange: (m: MerchantSummary) => void;
  inputRef?: RefObject<HTMLInputElement | null>;
}) {
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  /** The user moved through the list with the arrows (Enter on an empty box then chooses). */
  const [navigated, setNavigated] = useState(false);
  /** Enter pressed for this text before its results arrived. */
  const [pendingEnter, setPendingEnter] = useState<string | null>(null);
  const listId = useId();
  const ownRef = useRef<HTMLInputElement>(null);
  const ref = inputRef ?? ownRef;
  /** The box's text right now (for answers that arrive after more typing). */
  const textRef = useRef('');
  const typed = text.trim();

  // Debounce typing so each keystroke does not hit the database.
  useEffect(() => {
    const t = window.setTimeout(() => setQuery(typed), 150);
    return () => window.clearTimeout(t);
  }, [typed]);

  const result = useChannel('sales/merchants', { query, limit: 20 });
  /** The results answer exactly what is in the box now. */
  const fresh = result.status === 'ok' && query === typed;
  const options = fresh ? result.data : [];

  const choose = (m: MerchantSummary | undefined) => {
    if (!m) return;
    onChange(m);
    textRef.current = '';
    setText('');
    setQuery('');
    setOpen(false);
    setNavigated(false);
    setPendingEnter(null);
  };

  /**
   * Enter pressed while the search catches up: search this exact text now and take its best
   * match — unless the user typed on meanwhile (then the new text rules).
   */
  const chooseWhenFound = (want: string) => {
    setQuery(want);
    setPendingEnter(want);
    const settle = (list: MerchantSummary[]) => {
      if (textRef.current.trim() !== want) return;
      setPendingEnter(null);
      choose(list[0]);
    };
    call('sales/merchants', { query: want, limit: 20 }).then(settle, () => settle([]));
  };

  const activeIndex = Math.min(active, Math.max(options.length - 1, 0));
  const optionId = (i: number) => `${listId}-opt-${i}`;
  const searching = !fresh && result.status !== 'error';

  return (
    <div className="picker">
      <label className="field-label" htmlFor={`${listId}-input`}>
        Lojista
      </label>
      <input
        id={`${listId}-input`}
        ref={ref}
        type="text"
        role="combobox"
        autoComplete="off"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-busy={searching || pendingEnter !== null}
        aria-activedescendant={open && options.length ? optionId(activeIndex) : undefined}
        placeholder={value ? 'Trocar de lojista: nome ou número' : 'Nome ou número do lojista'}
        value={text}
        onChange={(e) => {
          textRef.current = e.target.value;
          setText(e.target.value);
          setOpen(true);
          setActive(0);
          setNavigated(false);
          setPendingEnter(null);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => window.setTimeout(() => setOpen(false), 120)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            setOpen(true);
            setNavigated(true);
            setActive((i) => Math.min(i + 1, Math.max(options.length - 1, 0)));
          } else if (e.key === 'ArrowUp') {
            e.preventDefault();
            setNavigated(true);
            setActive((i) => Math.max(i - 1, 0));
          } else if (e.key === 'Enter') {
            e.preventDefault();
            if (typed === '' && !navigated) return;
            setOpen(true);
            if (fresh) choose(options[activeIndex]);
            else chooseWhenFound(typed);
          } else if (e.key === 'Escape') {
            setOpen(false);
            setPendingEnter(null);
          }
        }}
      />
      {open ? (
        <ul className="picker-list" id={listId} role="listbox" aria-label="Lojistas encontrados">
          {result.status === 'error' && query === typed ? (
            <li className="picker-note" role="alert">
              {result.error.message}
            </li>
          ) : searching ? (
            <li className="picker-note">Buscando…</li>
          ) : options.length === 0 ? (
            <li className="picker-note" role="status">
              Nenhum lojista encontrado para “{typed}”.
            </li>
          ) : (
            options.map((m, i) => (
              <li
                key={m.id}
                id={optionId(i)}
                role="option"
                aria-selected={i === activeIndex}
                className={i === activeIndex ? 'active' : undefined}
                onMouseDown={(e) => {
                  e.preventDefault();
                  choose(m);
                }}
                onMouseEnter={() => setActive(i)}
              >
                <span>{m.nome}</span>
                <span className="muted">#{m.id}</span>
              </li>
            ))
          )}
        </ul>
      ) : null}
    </div>
  );
}
