import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useSyncExternalStore,
  type ReactNode,
} from 'react';

/**
 * Keyboard shortcuts: components register `useShortcut('Mod+k', fn, { description })` while
 * mounted; one keydown listener dispatches; the help overlay (`?`) lists what is registered.
 *
 * Key syntax: modifiers `Mod` (Ctrl, or ⌘ on macOS), `Alt`, `Shift` joined with `+` to a key:
 * a character (`?`, `/`, `j`, `1`) or a key name (`Escape`, `Enter`, `ArrowDown`). Shift is
 * implied by printable characters (`?` not `Shift+/`). While typing in a field, only shortcuts
 * with Mod/Alt, `Escape`, or `allowInInputs` fire.
 *
 * `useCommand` registers an action with no key of its own: the command palette (Ctrl+K) lists it
 * beside every shortcut; the help overlay and the key dispatch skip it.
 */
export interface ShortcutOptions {
  description: string;
  /** Heading in the help overlay. */
  group?: string;
  enabled?: boolean;
  allowInInputs?: boolean;
  /**
   * While a control has the focus (a button, link, checkbox, tab…), the key does what it does
   * there instead (Space presses a button, ticks a box).
   */
  notOnControls?: boolean;
}

interface Entry extends ShortcutOptions {
  id: number;
  keys: string;
  handler: (e: KeyboardEvent) => void;
}

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** The combo string of a keyboard event, in the syntax above. */
export function comboOf(
  e: Pick<KeyboardEvent, 'key' | 'code' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>,
): string {
  const mods: string[] = [];
  if (isMac ? e.metaKey : e.ctrlKey) mods.push('Mod');
  if (e.altKey) mods.push('Alt');
  let key = e.key;
  // With Alt/Mod held, layouts produce odd characters: use the physical key for letters/digits.
  if (mods.length) {
    const m = /^(?:Digit(\d)|Key([A-Z]))$/.exec(e.code);
    if (m) key = (m[1] ?? m[2] ?? key).toLowerCase();
  }
  const printable = key.length === 1;
  if (e.shiftKey && !printable) mods.push('Shift');
  if (printable) key = key.toLowerCase() === key.toUpperCase() ? key : key.toLowerCase();
  return [...mods, key].join('+');
}

/** How a combo is shown to people ("Ctrl+K", "⌘K"). */
export function displayCombo(keys: string): string {
  return keys
    .split('+')
    .map((k) => {
      if (k === 'Mod') return isMac ? '⌘' : 'Ctrl';
      if (k === 'Escape') return 'Esc';
      if (k === 'ArrowDown') return '↓';
      if (k === 'ArrowUp') return '↑';
      if (k === ' ') return 'Espaço';
      return k.length === 1 ? k.toUpperCase() : k;
    })
    .join(isMac ? '' : '+');
}

const CONTROLS =
  'button, a[href], input, select, textarea, summary, [role="button"], [role="checkbox"], [role="radio"], [role="tab"], [role="menuitem"]';

function isControl(t: EventTarget | null): boolean {
  return t instanceof Element && t.closest(CONTROLS) !== null;
}

function isTypingTarget(t: EventTarget | null): boolean {
  if (!(t instanceof HTMLElement)) return false;
  if (t.isContentEditable) return true;
  const tag = t.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') {
    const type = (t as HTMLInputElement).type;
    return !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(type);
  }
  return false;
}

class Registry {
  private entries: Entry[] = [];
  private listeners = new Set<() => void>();
  private snapshot: readonly Entry[] = [];
  private nextId = 1;

  add(e: Omit<Entry, 'id'>): number {
    const id = this.nextId++;
    this.entries.push({ ...e, id });
    this.changed();
    return id;
  }
  remove(id: number): void {
    this.entries = this.entries.filter((e) => e.id !== id);
    this.changed();
  }
  private changed() {
    this.snapshot = [...this.entries];
    for (const l of this.listeners) l();
  }
  subscribe = (l: () => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };
  getSnapshot = () => this.snapshot;

  dispatch(ev: KeyboardEvent): void {
    if (ev.defaultPrevented || ev.isComposing) return;
    const combo = comboOf(ev);
    const typing = isTypingTarget(ev.target);
    // Latest registration wins (an open dialog overrides the page beneath it).
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const e = this.entries[i];
      if (!e || !e.keys || e.keys !== combo || e.enabled === false) continue;
      const hasMod = combo.startsWith('Mod+') || combo.startsWith('Alt+');
      if (typing && !hasMod && combo !== 'Escape' && !e.allowInInputs) continue;
      if (e.notOnControls && isControl(ev.target)) continue;
      ev.preventDefault();
      e.handler(ev);
      return;
    }
  }
}

const Ctx = createContext<Registry | null>(null);

export function ShortcutsProvider({ children }: { children: ReactNode }) {
  const registry = useMemo(() => new Registry(), []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => registry.dispatch(e);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [registry]);
  return <Ctx.Provider value={registry}>{children}</Ctx.Provider>;
}

function useRegistry(): Registry {
  const r = useContext(Ctx);
  if (!r) throw new Error('useShortcut fora de ShortcutsProvider');
  return r;
}

/** Registers a shortcut while the component is mounted. */
export function useShortcut(
  keys: string,
  handler: (e: KeyboardEvent) => void,
  opts: ShortcutOptions,
): void {
  const registry = useRegistry();
  const handlerRef = useRef(handler);
  useEffect(() => {
    handlerRef.current = handler;
  });
  const stableHandler = useCallback((e: KeyboardEvent) => handlerRef.current(e), []);
  const { description, group, enabled, allowInInputs, notOnControls } = opts;
  useEffect(() => {
    const id = registry.add({
      keys,
      handler: stableHandler,
      description,
      group,
      enabled,
      allowInInputs,
      notOnControls,
    });
    return () => registry.remove(id);
  }, [registry, keys, stableHandler, description, group, enabled, allowInInputs, notOnControls]);
}

/** Registers a palette command (no key) while the component is mounted. */
export function useCommand(
  description: string,
  run: () => void,
  opts: { group: string; enabled?: boolean },
): void {
  useShortcut('', () => run(), { description, group: opts.group, enabled: opts.enabled });
}

export interface ShortcutInfo {
  keys: string;
  description: string;
  group: string;
}

export interface CommandInfo extends ShortcutInfo {
  /** Runs it as its key would. */
  run(): void;
}

/**
 * Every action registered now, for the command palette: shortcuts and commands, enabled only,
 * one per description, in the order they first appeared (the newest handler wins, as for keys).
 */
export function useCommandList(): CommandInfo[] {
  const registry = useRegistry();
  const entries = useSyncExternalStore(registry.subscribe, registry.getSnapshot);
  const byDescription = new Map<string, CommandInfo>();
  for (const e of entries) {
    if (e.enabled === false) continue;
    const handler = e.handler;
    byDescription.set(e.description, {
      keys: e.keys,
      description: e.description,
      group: e.group ?? 'Geral',
      run: () => handler(new KeyboardEvent('keydown')),
    });
  }
  return [...byDescription.values()];
}

/** What is registered now (for the help overlay), de-duplicated, enabled only. */
export function useShortcutList(): ShortcutInfo[] {
  const registry = useRegistry();
  const entries = useSyncExternalStore(registry.subscribe, registry.getSnapshot);
  const seen = new Set<string>();
  const out: ShortcutInfo[] = [];
  for (const e of entries) {
    if (e.enabled === false || !e.keys) continue;
    const k = `${e.keys}|${e.description}`;
    if (seen.has(k)) continue;
    seen.add(k);
    out.push({ keys: e.keys, description: e.description, group: e.group ?? 'Geral' });
  }
  return out;
}
