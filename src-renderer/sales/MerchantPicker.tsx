import { useEffect, useId, useRef, useState, type RefObject } from 'react';
import type { MerchantSummary } from '@shared/contract/sales';
import { useChannel } from '../useChannel';

/**
 * Searchable merchant picker (combobox): type a name or an id, ↑/↓ to move, Enter to choose,
 * Esc to close. Results come from `sales/merchants`.
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
  const listId = useId();
  const ownRef = useRef<HTMLInputElement>(null);
  const ref = inputRef ?? ownRef;

  // Debounce typing so each keystroke does not hit the database.
  useEffect(() => {
    const t = window.setTimeout(() => setQuery(text.trim()), 150);
    return () => window.clearTimeout(t);
  }, [text]);

  const result = useChannel('sales/merchants', { query, limit: 20 });
  const options = result.data ?? [];

  const choose = (m: MerchantSummary | undefined) => {
    if (!m) return;
    onChange(m);
    setText('');
    setOpen(false);
  };

  const activeIndex = Math.min(active, Math.max(options.length - 1, 0));
  const optionId = (i: number) => `${listId}-opt-${i}`;

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
        aria-activedescendant={open && options.length ? optionId(activeIndex) : undefined}
        placeholder={value ? `${value.nome} (#${value.id})` : 'Nome ou número do lojista'}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
          setActive(0);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => window.setTimeout(() => setOpen(false), 120)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            setOpen(true);
            setActive((i) => Math.min(i + 1, options.length - 1));
          } else if (e.key === 'ArrowUp') {
            e.preventDefault();
            setActive((i) => Math.max(i - 1, 0));
          } else if (e.key === 'Enter' && open) {
            e.preventDefault();
            choose(options[activeIndex]);
          } else if (e.key === 'Escape') {
            setOpen(false);
          }
        }}
      />
      {open ? (
        <ul className="picker-list" id={listId} role="listbox" aria-label="Lojistas encontrados">
          {result.status === 'error' ? (
            <li className="picker-note" role="alert">
              {result.error.message}
            </li>
          ) : options.length === 0 ? (
            <li className="picker-note">
              {result.status === 'loading' ? 'Buscando…' : 'Nenhum lojista encontrado.'}
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
