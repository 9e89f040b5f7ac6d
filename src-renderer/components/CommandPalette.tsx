import * as Dialog from '@radix-ui/react-dialog';
import { useId, useMemo, useState } from 'react';
import { displayCombo, useCommandList, useShortcut, type CommandInfo } from './Shortcuts';

/** Lower case, no accents: "Relatório" is found as "relatorio". */
const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

/**
 * The commands matching what was typed, best first: every word typed must appear; a command
 * whose description starts with the text comes first, then one with a word starting with it,
 * then the rest — each group in the order the screens registered them (navigation first).
 */
export function matchCommands<T extends Pick<CommandInfo, 'description' | 'group'>>(
  commands: readonly T[],
  query: string,
): T[] {
  const q = fold(query.trim());
  if (!q) return [...commands];
  const words = q.split(/\s+/);
  const scored: { c: T; rank: number; i: number }[] = [];
  commands.forEach((c, i) => {
    const d = fold(c.description);
    const hay = `${d} ${fold(c.group)}`;
    if (!words.every((w) => hay.includes(w))) return;
    const rank = d.startsWith(q) ? 0 : new RegExp(`(^|\\s)${escape(words[0]!)}`).test(d) ? 1 : 2;
    scored.push({ c, rank, i });
  });
  return scored.sort((a, b) => a.rank - b.rank || a.i - b.i).map((s) => s.c);
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Ctrl+K: every action the current screens offer (navigation, views, the item's actions…),
 * searchable, run with Enter. Built on what is registered, so it never offers what the person
 * may not do or what the screen does not have.
 */
export function CommandPalette() {
  const [open, setOpen] = useState(false);
  useShortcut('Mod+k', () => setOpen((o) => !o), {
    description: 'Abrir a paleta de comandos',
    group: 'Geral',
    allowInInputs: true,
  });
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Portal>
        <Dialog.Overlay className="review-overlay" />
        <Dialog.Content className="palette" aria-describedby={undefined}>
          <Dialog.Title className="visually-hidden">Paleta de comandos</Dialog.Title>
          {open ? <PaletteBody onDone={() => setOpen(false)} /> : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function PaletteBody({ onDone }: { onDone: () => void }) {
  const all = useCommandList();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const listId = useId();
  const commands = useMemo(
    () =>
      matchCommands(
        all.filter((c) => c.description !== 'Abrir a paleta de comandos'),
        query,
      ),
    [all, query],
  );
  const current = Math.min(active, Math.max(commands.length - 1, 0));
  const run = (c: CommandInfo | undefined) => {
    if (!c) return;
    onDone();
    // After the dialog gave the focus back: the command acts on the screen beneath.
    window.setTimeout(() => c.run(), 0);
  };
  const optionId = (i: number) => `${listId}-${i}`;
  return (
    <>
      <input
        className="palette-input"
        role="combobox"
        aria-label="Buscar um comando"
        aria-expanded="true"
        aria-controls={listId}
        aria-activedescendant={commands.length ? optionId(current) : undefined}
        aria-autocomplete="list"
        placeholder="O que você quer fazer? (Esc fecha)"
        autoFocus
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            setActive((a) => Math.min(a + 1, commands.length - 1));
          } else if (e.key === 'ArrowUp') {
            e.preventDefault();
            setActive((a) => Math.max(a - 1, 0));
          } else if (e.key === 'Enter') {
            e.preventDefault();
            run(commands[current]);
          }
        }}
      />
      <ul id={listId} role="listbox" aria-label="Comandos" className="palette-list">
        {commands.map((c, i) => (
          <li
            key={`${c.group}|${c.description}`}
            id={optionId(i)}
            role="option"
            aria-selected={i === current}
            className="palette-option"
            onMouseMove={() => setActive(i)}
            onClick={() => run(c)}
          >
            <span className="palette-desc">{c.description}</span>
            <span className="palette-group">{c.group}</span>
            {c.keys ? <kbd>{displayCombo(c.keys)}</kbd> : null}
          </li>
        ))}
      </ul>
      {commands.length === 0 ? (
        <p className="palette-empty" role="status">
          Nenhum comando com “{query.trim()}”.
        </p>
      ) : null}
    </>
  );
}
