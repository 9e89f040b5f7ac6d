import { useEffect, useId, useRef, useState } from 'react';
import type { MerchantSummary } from '@shared/contract/sales';
import type { AppErrorShape } from '@shared/errors';
import { call, errorShape } from './api';

interface Props {
  merchant: MerchantSummary | null;
  onSelect: (merchantId: number) => Promise<void>;
}

/**
 * Search a merchant by name or id (combobox: type, ↑/↓ to move, Enter to choose, Esc to close).
 * The choice is sent to the main process, which keeps it as this window's tenant.
 */
export function MerchantPicker({ merchant, onSelect }: Props) {
  const [editing, setEditing] = useState(merchant === null);
  const [query, setQuery] = useState('');
  const [options, setOptions] = useState<MerchantSummary[]>([]);
  const [active, setActive] = useState(0);
  const [open, setOpen] = useState(false);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<AppErrorShape | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const listId = useId();
  const seq = useRef(0);

  useEffect(() => {
    if (!editing) return;
    const mine = ++seq.current;
    const t = setTimeout(
      () => {
        setLoading(true);
        call('sales/merchants', { query, limit: 20 })
          .then((rows) => {
            if (mine !== seq.current) return;
            setOptions(rows);
            setActive(0);
            setError(null);
          })
          .catch((e: unknown) => {
            if (mine === seq.current) setError(errorShape(e));
          })
          .finally(() => {
            if (mine === seq.current) setLoading(false);
          });
      },
      query ? 150 : 0,
    );
    return () => clearTimeout(t);
  }, [query, editing]);

  useEffect(() => {
    if (editing) inputRef.current?.focus();
  }, [editing]);

  const choose = async (m: MerchantSummary) => {
    setError(null);
    try {
      await onSelect(m.id);
      setEditing(false);
      setOpen(false);
      setQuery('');
    } catch (e) {
      setError(errorShape(e));
    }
  };

  if (!editing && merchant) {
    return (
      <div className="sales-merchant" data-testid="sales-merchant">
        <span className="sales-merchant__label">Lojista</span>
        <strong data-testid="sales-merchant-name">{merchant.nome}</strong>
        <span className="sales-muted">#{merchant.id}</span>
        <button type="button" className="sales-link" onClick={() => setEditing(true)}>
          Trocar lojista
        </button>
      </div>
    );
  }

  const current = options[active];
  return (
    <div className="sales-merchant-picker">
      <label htmlFor={`${listId}-input`} className="sales-merchant__label">
        Lojista
      </label>
      <div className="sales-combobox">
        <input
          id={`${listId}-input`}
          ref={inputRef}
          type="search"
          role="combobox"
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={open && current ? `${listId}-${current.id}` : undefined}
          placeholder="Buscar por nome ou número do lojista"
          value={query}
          autoComplete="off"
          data-testid="merchant-search"
          onChange={(e) => {
            setQuery(e.target.value);
            setOpen(true);
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => setTimeout(() => setOpen(false), 150)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') {
              e.preventDefault();
              setOpen(true);
              setActive((i) => Math.min(i + 1, Math.max(options.length - 1, 0)));
            } else if (e.key === 'ArrowUp') {
              e.preventDefault();
              setActive((i) => Math.max(i - 1, 0));
            } else if (e.key === 'Enter') {
              e.preventDefault();
              if (current) void choose(current);
            } else if (e.key === 'Escape') {
              if (open) {
                e.stopPropagation();
                setOpen(false);
              } else if (merchant) setEditing(false);
            }
          }}
        />
        {open && (
          <ul id={listId} role="listbox" className="sales-combobox__list" aria-label="Lojistas">
            {options.map((m, i) => (
              <li
                key={m.id}
                id={`${listId}-${m.id}`}
                role="option"
                aria-selected={i === active}
                className={i === active ? 'is-active' : undefined}
                onMouseDown={(e) => e.preventDefault()}
                onMouseEnter={() => setActive(i)}
                onClick={() => void choose(m)}
              >
                <span>{m.nome}</span> <span className="sales-muted">#{m.id}</span>
              </li>
            ))}
            {!loading && options.length === 0 && !error && (
              <li className="sales-combobox__empty" aria-disabled="true">
                Nenhum lojista encontrado para “{query}”.
              </li>
            )}
          </ul>
        )}
      </div>
      {merchant && (
        <button type="button" className="sales-link" onClick={() => setEditing(false)}>
          Cancelar
        </button>
      )}
      {error && (
        <p role="alert" className="sales-error-inline">
          {error.message}
        </p>
      )}
    </div>
  );
}
