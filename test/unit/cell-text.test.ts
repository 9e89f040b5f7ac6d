/**
 * #40.3 — identifiers in dense tables wrap at their joints, never mid-word: a login after its
 * dots, a column name after its underscores, a timestamp at its T and after the seconds' dot.
 */
import { describe, expect, it } from 'vitest';
import { wrapPoints } from '../../src-renderer/components/CellText';

describe('wrapPoints', () => {
  it.each([
    ['maria.fernanda.albuquerque', ['maria.', 'fernanda.', 'albuquerque']],
    ['ana@empresa.com.br', ['ana@', 'empresa.', 'com.', 'br']],
    ['primeira_venda_aprovada', ['primeira_', 'venda_', 'aprovada']],
    ['2026-11-12T12:16:46.488-03:00', ['2026-11-12T', '12:16:46.', '488-03:00']],
    // A word's T is no joint; plain words and money stay whole.
    ['TOTAL', ['TOTAL']],
    ['Distribuidora', ['Distribuidora']],
    ['R$ 1.234,56', ['R$ 1.', '234,56']],
  ])('%s', (text, pieces) => {
    expect(wrapPoints(text)).toEqual(pieces);
    expect(wrapPoints(text).join('')).toBe(text);
  });
});
