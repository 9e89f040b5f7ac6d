import { describe, expect, it } from 'vitest';
import { HISTORY_LIMIT, SalesSessions } from '../../src-main/sales/session';

const padaria = { id: 1, nome: 'Padaria São Jorge' };
const farmacia = { id: 2, nome: 'Farmácia Central' };

describe('SalesSessions', () => {
  it('keeps the chosen merchant per window, never shared between windows', () => {
    const s = new SalesSessions();
    s.selectMerchant('w1', padaria);
    s.selectMerchant('w2', farmacia);
    expect(s.requireMerchant('w1')).toEqual(padaria);
    expect(s.requireMerchant('w2')).toEqual(farmacia);
    expect(s.merchant('w3')).toBeNull();
  });

  it('refuses to query without a merchant, with a pt-BR message', () => {
    const s = new SalesSessions();
    expect(() => s.requireMerchant('w1')).toThrow(/Escolha um lojista/);
    try {
      s.requireMerchant('w1');
    } catch (e) {
      expect((e as { code: string }).code).toBe('entrada_invalida');
    }
  });

  it('rejects a merchant id that is not a positive integer', () => {
    const s = new SalesSessions();
    expect(() => s.selectMerchant('w1', { id: 0, nome: 'x' })).toThrow(/Lojista inválido/);
    expect(() => s.selectMerchant('w1', { id: 1.5, nome: 'x' })).toThrow(/Lojista inválido/);
    expect(s.merchant('w1')).toBeNull();
  });

  it('records history per window, trimmed, without duplicates, bounded', () => {
    const s = new SalesSessions();
    s.addHistory('w1', '  quanto vendi ontem? ');
    s.addHistory('w1', 'quanto vendi no pix?');
    s.addHistory('w1', 'quanto vendi ontem?');
    s.addHistory('w1', '   ');
    expect(s.history('w1')).toEqual(['quanto vendi no pix?', 'quanto vendi ontem?']);
    expect(s.history('w2')).toEqual([]);
    for (let i = 0; i < HISTORY_LIMIT + 5; i++) s.addHistory('w1', `pergunta ${i}`);
    const h = s.history('w1');
    expect(h).toHaveLength(HISTORY_LIMIT);
    expect(h.at(-1)).toBe(`pergunta ${HISTORY_LIMIT + 4}`);
    // A copy: callers cannot change the stored history.
    h.push('x');
    expect(s.history('w1')).toHaveLength(HISTORY_LIMIT);
  });

  it('cancels only the named request of the same window', () => {
    const s = new SalesSessions();
    const a = s.begin('w1', 'r1');
    const b = s.begin('w1', 'r2');
    const other = s.begin('w2', 'r1');
    expect(s.cancel('w2', 'r2')).toBe(false);
    expect(s.cancel('w1', 'r1')).toBe(true);
    expect(a.signal.aborted).toBe(true);
    expect(b.signal.aborted).toBe(false);
    expect(other.signal.aborted).toBe(false);
    a.end();
    expect(s.cancel('w1', 'r1')).toBe(false);
    expect(s.inflightCount('w1')).toBe(1);
    b.end();
    other.end();
    expect(s.inflightCount('w1')).toBe(0);
  });

  it('refuses a request id already running in the window', () => {
    const s = new SalesSessions();
    s.begin('w1', 'r1');
    expect(() => s.begin('w1', 'r1')).toThrow(/já está em andamento/);
  });

  it('aborts a request when the caller signal aborts (window closed)', () => {
    const s = new SalesSessions();
    const parent = new AbortController();
    const h = s.begin('w1', 'r1', parent.signal);
    parent.abort();
    expect(h.signal.aborted).toBe(true);
    const pre = new AbortController();
    pre.abort();
    expect(s.begin('w1', 'r2', pre.signal).signal.aborted).toBe(true);
  });

  it('aborts in-flight answers when the merchant changes, not when it is re-selected', () => {
    const s = new SalesSessions();
    s.selectMerchant('w1', padaria);
    const h = s.begin('w1', 'r1');
    s.selectMerchant('w1', padaria);
    expect(h.signal.aborted).toBe(false);
    s.selectMerchant('w1', farmacia);
    expect(h.signal.aborted).toBe(true);
  });

  it('dispose aborts the window requests and forgets its state', () => {
    const s = new SalesSessions();
    s.selectMerchant('w1', padaria);
    s.addHistory('w1', 'quanto vendi?');
    const h = s.begin('w1', 'r1');
    s.dispose('w1');
    expect(h.signal.aborted).toBe(true);
    expect(s.merchant('w1')).toBeNull();
    expect(s.history('w1')).toEqual([]);
    expect(s.has('w1')).toBe(false);
    h.end();
  });
});
