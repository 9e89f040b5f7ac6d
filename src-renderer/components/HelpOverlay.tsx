import { useEffect, useRef, useState } from 'react';
import { displayCombo, useShortcut, useShortcutList } from './Shortcuts';

/** `?` shows every shortcut registered right now, grouped; Esc closes (native <dialog>). */
export function HelpOverlay() {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDialogElement>(null);
  const list = useShortcutList();
  useShortcut('?', () => setOpen((o) => !o), {
    description: 'Mostrar/ocultar atalhos',
    group: 'Geral',
  });

  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);

  const groups = new Map<string, typeof list>();
  for (const s of list) groups.set(s.group, [...(groups.get(s.group) ?? []), s]);

  return (
    <dialog
      ref={ref}
      className="help-overlay"
      aria-labelledby="help-title"
      onClose={() => setOpen(false)}
      onClick={(e) => {
        if (e.target === e.currentTarget) setOpen(false);
      }}
    >
      <div className="help-content">
        <header className="help-header">
          <h2 id="help-title">Atalhos de teclado</h2>
          <button type="button" className="btn btn-ghost" onClick={() => setOpen(false)}>
            Fechar <kbd>Esc</kbd>
          </button>
        </header>
        {[...groups].map(([group, items]) => (
          <section key={group} className="help-group">
            <h3>{group}</h3>
            <dl>
              {items.map((s) => (
                <div key={s.keys + s.description} className="help-row">
                  <dt>
                    <kbd>{displayCombo(s.keys)}</kbd>
                  </dt>
                  <dd>{s.description}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
    </dialog>
  );
}
