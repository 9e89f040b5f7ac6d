/** #39.2 — the queue's deadline marks: near under 25% left, late past the deadline, in pt-BR. */
import { describe, expect, it } from 'vitest';
import { deadlineMark, deadlineStatus } from '../../src-shared/deadline';

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

describe('deadlineStatus (the Prazo column)', () => {
  // incompleto: 120 minutes, from 12:00 to 14:00.
  const Q = { desde: '2026-12-04T12:00:00Z', ate: '2026-12-04T14:00:00Z' };
  it('says the time left while no mark applies (never "vence em"), then the mark', () => {
    expect(deadlineStatus(Q, at('2026-12-04T12:00:00Z'))).toEqual({
      kind: 'no_prazo',
      text: 'faltam 2 h',
    });
    expect(deadlineStatus(Q, at('2026-12-04T12:19:30Z'))?.text).toBe('falta 1 h 41 min');
    expect(deadlineStatus(Q, at('2026-12-04T13:15:00Z'))?.text).toBe('faltam 45 min');
    expect(deadlineStatus(Q, at('2026-12-04T13:40:00Z'))).toEqual({
      kind: 'vencendo',
      text: 'vence em 20 min',
    });
    expect(deadlineStatus(Q, at('2026-12-04T16:00:00Z'))).toEqual({
      kind: 'atrasado',
      text: 'atrasado há 2 h',
    });
  });
  it('long deadlines in hours and days; nothing for a closed item', () => {
    const W = { desde: '2026-12-04T12:00:00Z', ate: '2026-12-05T12:00:00Z' }; // 24 h
    expect(deadlineStatus(W, at('2026-12-04T12:00:00Z'))?.text).toBe('faltam 24 h');
    expect(deadlineStatus(W, at('2026-12-04T14:30:00Z'))?.text).toBe('faltam 21 h');
    const D = { desde: '2026-12-04T12:00:00Z', ate: '2026-12-07T12:00:00Z' }; // 3 d
    expect(deadlineStatus(D, at('2026-12-04T12:00:00Z'))?.text).toBe('faltam 3 d');
    expect(deadlineStatus(null, at('2026-12-04T12:00:00Z'))).toBeNull();
  });
});
