/** #39.2 — the queue's deadline marks: near under 25% left, late past the deadline, in pt-BR. */
import { describe, expect, it } from 'vitest';
import { deadlineMark } from '../../src-shared/deadline';

const at = (iso: string) => Date.parse(iso);
// A 30-minute deadline (falhou) from 12:00 to 12:30.
const P = { desde: '2026-12-04T12:00:00Z', ate: '2026-12-04T12:30:00Z' };

describe('deadlineMark', () => {
  it('says nothing while a quarter or more is left', () => {
    expect(deadlineMark(P, at('2026-12-04T12:00:00Z'))).toBeNull();
    expect(deadlineMark(P, at('2026-12-04T12:22:30Z'))).toBeNull(); // exactly 25% left
    expect(deadlineMark(null, at('2026-12-04T12:29:00Z'))).toBeNull();
  });
  it('near: "vence em N min", rounded up', () => {
    expect(deadlineMark(P, at('2026-12-04T12:22:31Z'))).toEqual({
      kind: 'vencendo',
      text: 'vence em 8 min',
    });
    expect(deadlineMark(P, at('2026-12-04T12:29:59Z'))?.text).toBe('vence em 1 min');
  });
  it('late: "atrasado há …" from the deadline, in min, h and d', () => {
    expect(deadlineMark(P, at('2026-12-04T12:30:00Z'))).toEqual({
      kind: 'atrasado',
      text: 'atrasado há 0 min',
    });
    expect(deadlineMark(P, at('2026-12-04T12:42:00Z'))?.text).toBe('atrasado há 12 min');
    expect(deadlineMark(P, at('2026-12-04T13:35:00Z'))?.text).toBe('atrasado há 1 h');
    expect(deadlineMark(P, at('2026-12-07T12:30:00Z'))?.text).toBe('atrasado há 3 d');
  });
});
