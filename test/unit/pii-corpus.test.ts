/** #38: the masking on the corpus — recall ≥ 99% per bounded kind, no near-miss altered. */
import { describe, expect, it } from 'vitest';
import { RECALL_BOUNDED, readCorpus, scoreCorpus } from '../../scripts/pii-corpus';

describe('pii corpus (test/fixtures/pii-corpus.jsonl)', () => {
  const lines = readCorpus();
  const s = scoreCorpus(lines);

  it('has at least 300 messages, each kind labelled many times', () => {
    expect(lines.length).toBeGreaterThanOrEqual(300);
    for (const k of RECALL_BOUNDED) expect(s.porTipo[k].rotulados).toBeGreaterThanOrEqual(40);
  });

  it.each(RECALL_BOUNDED)('%s: recall ≥ 99%%', (k) => {
    expect(s.porTipo[k].recall).toBeGreaterThanOrEqual(0.99);
  });

  it('no amount, date, time, CEP or failing order number is altered', () => {
    expect(s.alterados).toEqual([]);
    expect(lines.reduce((n, l) => n + l.preservar.length, 0)).toBeGreaterThanOrEqual(300);
  });

  it('nothing is masked where nothing was labelled', () => {
    expect(s.aMais).toEqual([]);
  });
});
