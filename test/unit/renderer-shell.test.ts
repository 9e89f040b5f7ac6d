/** Pure parts of the renderer shell: shortcut combos and hash routes. */
import { describe, expect, it } from 'vitest';
import { comboOf, displayCombo } from '../../src-renderer/components/Shortcuts';
import { hrefFor, parseRoute } from '../../src-renderer/router';

const key = (k: string, over: Partial<KeyboardEvent> = {}) =>
  ({
    key: k,
    code: '',
    ctrlKey: false,
    metaKey: false,
    altKey: false,
    shiftKey: false,
    ...over,
  }) as KeyboardEvent;

describe('shortcut combos', () => {
  it('printable characters imply Shift; letters are case-insensitive', () => {
    expect(comboOf(key('?', { shiftKey: true, code: 'Slash' }))).toBe('?');
    expect(comboOf(key('J', { shiftKey: true, code: 'KeyJ' }))).toBe('j');
    expect(comboOf(key('/', { code: 'Slash' }))).toBe('/');
  });

  it('named keys keep Shift; Ctrl is Mod (off macOS)', () => {
    expect(comboOf(key('Enter', { shiftKey: true }))).toBe('Shift+Enter');
    expect(comboOf(key('Escape'))).toBe('Escape');
    expect(comboOf(key('k', { ctrlKey: true, code: 'KeyK' }))).toBe('Mod+k');
    expect(displayCombo('Mod+k')).toBe('Ctrl+K');
    expect(displayCombo('Escape')).toBe('Esc');
  });

  it('with Alt held, uses the physical key (layouts produce odd characters)', () => {
    expect(comboOf(key('¡', { altKey: true, code: 'Digit1' }))).toBe('Alt+1');
    expect(comboOf(key('∂', { altKey: true, code: 'KeyD' }))).toBe('Alt+d');
  });
});

describe('hash routes', () => {
  it('parses areas and decoded segments, tolerating junk', () => {
    expect(parseRoute('#/fila/42')).toEqual({ area: 'fila', rest: ['42'] });
    expect(parseRoute('')).toEqual({ area: '', rest: [] });
    expect(parseRoute('#vendas')).toEqual({ area: 'vendas', rest: [] });
    expect(parseRoute('#/x/%E0%A4%A')).toEqual({ area: 'x', rest: ['%E0%A4%A'] });
    expect(parseRoute(hrefFor('fila', 'São Paulo/1'))).toEqual({
      area: 'fila',
      rest: ['São Paulo/1'],
    });
  });
});
