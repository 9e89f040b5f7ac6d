import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  agreesWith,
  dueDateAlert,
  dueDatesInText,
  formatReading,
  readDueDate,
} from '@shared/due-dates';

/** 2026-12-06 10:00 in São Paulo: a Sunday. */
const SUNDAY = new Date('2026-12-06T13:00:00Z');
const FRIDAY = new Date('2026-12-11T15:00:00Z');

const read = (t: string, at: Date = SUNDAY) => {
  const r = readDueDate(t, at);
  return r === null ? null : r.de === r.ate ? r.de : `${r.de}..${r.ate}`;
};

describe('the corpus (test/fixtures/due-dates.jsonl)', () => {
  const lines = readFileSync(resolve(__dirname, '../fixtures/due-dates.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { texto: string; recebida_em: string; vencimento: string });

  it('has at least 100 dated messages, with and without a date', () => {
    expect(lines.length).toBeGreaterThanOrEqual(100);
    expect(lines.filter((l) => l.vencimento === 'sem data').length).toBeGreaterThanOrEqual(20);
    expect(lines.filter((l) => l.vencimento.includes('..')).length).toBeGreaterThanOrEqual(5);
  });

  it('every expected reading, 100%', () => {
    const wrong = lines
      .map((c) => ({ c, got: read(c.texto, new Date(c.recebida_em)) ?? 'sem data' }))
      .filter(({ c, got }) => got !== c.vencimento)
      .map(({ c, got }) => `${c.texto} @ ${c.recebida_em}: esperado ${c.vencimento}, lido ${got}`);
    expect(wrong).toEqual([]);
  });
});

describe('readDueDate', () => {
  it('the issue’s cases: dia 20, vence dia 5, dia 10 from 06/12/2026', () => {
    expect(read('vencimento dia 20')).toBe('2026-12-20');
    expect(read('vence dia 5')).toBe('2027-01-05'); // the 5th has passed: next month
    expect(read('dia 10')).toBe('2026-12-10');
  });

  it('"sexta" on a Friday is that Friday; "sexta que vem" / "próxima sexta" the next one', () => {
    expect(read('vence sexta', FRIDAY)).toBe('2026-12-11');
    expect(read('vence sexta-feira', FRIDAY)).toBe('2026-12-11');
    expect(read('vence sexta que vem', FRIDAY)).toBe('2026-12-18');
    expect(read('vence na próxima sexta', FRIDAY)).toBe('2026-12-18');
    // On a Monday "próxima sexta" may be this Friday or next week's: no guess.
    expect(read('vence na próxima sexta', new Date('2026-12-07T12:00:00Z'))).toBeNull();
  });

  it('"semana que vem" is a range, Monday to Sunday of next week', () => {
    expect(read('vence semana que vem', FRIDAY)).toBe('2026-12-14..2026-12-20');
  });

  it('resolves from the arrival day in São Paulo, not the UTC day', () => {
    // 2027-01-01 01:30 UTC is still 31/12/2026 in São Paulo.
    const lateNight = new Date('2027-01-01T01:30:00Z');
    expect(read('vence amanhã', lateNight)).toBe('2027-01-01');
    expect(read('vence amanhã', lateNight)?.startsWith('2027-01-02')).toBe(false);
    expect(readDueDate('vence amanhã', lateNight, 'UTC')?.de).toBe('2027-01-02');
  });

  it('numbers that are not dates give no reading', () => {
    for (const t of [
      'manda 3x de R$ 20 no cartão',
      'R$ 20 pro Zé',
      'vence no 5º dia útil',
      'segunda via do boleto',
      'a quinta parcela',
      'vence 20',
      'às 10:30',
    ]) {
      expect(read(t), t).toBeNull();
    }
  });

  it('dates that disagree: a due word decides; otherwise no reading', () => {
    expect(read('comprou dia 3, vence dia 20')).toBe('2026-12-20');
    expect(read('dia 3 ou dia 20')).toBeNull();
  });

  it('keeps the phrase as written (accents, case)', () => {
    expect(readDueDate('Vence Sexta-Feira, tá?', SUNDAY)?.frase).toBe('Sexta-Feira');
    expect(readDueDate('depois de amanhã', SUNDAY)?.frase).toBe('depois de amanhã');
    expect(dueDatesInText('hoje não; amanhã', SUNDAY).map((r) => r.frase)).toEqual([
      'hoje',
      'amanhã',
    ]);
  });

  it('an invalid arrival instant reads nothing', () => {
    expect(dueDatesInText('vence amanhã', new Date(NaN))).toEqual([]);
  });
});

describe('dueDateAlert', () => {
  const at = [{ texto: 'boleto de 300 reais pra Ana, vencimento dia 20', chegada: SUNDAY }];

  it('no alert when the extracted date is the text’s', () => {
    expect(dueDateAlert(at, '2026-12-20')).toBeNull();
  });

  it('an alert naming the phrase and its date when it differs', () => {
    const a = dueDateAlert(at, '2026-12-25');
    expect(a).toMatchObject({
      codigo: 'vencimento_divergente',
      frase: 'dia 20',
      data_no_texto: '2026-12-20',
      data_no_texto_ate: '2026-12-20',
    });
    expect(a?.mensagem).toContain('25/12/2026');
    expect(a?.mensagem).toContain('«dia 20» (20/12/2026)');
  });

  it('an alert when the date was left empty although the text names one', () => {
    expect(dueDateAlert(at, null)?.mensagem).toContain('ficou vazio');
  });

  it('no alert when the text names no date', () => {
    expect(dueDateAlert([{ texto: 'pix de 80 pro Zé', chegada: SUNDAY }], '2026-12-25')).toBeNull();
  });

  it('any day of a range agrees', () => {
    const parts = [{ texto: 'vence semana que vem', chegada: FRIDAY }];
    expect(dueDateAlert(parts, '2026-12-14')).toBeNull();
    expect(dueDateAlert(parts, '2026-12-20')).toBeNull();
    expect(dueDateAlert(parts, '2026-12-21')?.mensagem).toContain('14/12/2026 a 20/12/2026');
  });

  it('the latest answer that names a date wins over the original text', () => {
    const parts = [
      { texto: 'pix de 80 pro Zé, vence amanhã', chegada: SUNDAY },
      { texto: 'na verdade vence dia 20', chegada: new Date('2026-12-08T12:00:00Z') },
      { texto: 'é pro Zé Silva', chegada: new Date('2026-12-08T13:00:00Z') },
    ];
    expect(dueDateAlert(parts, '2026-12-20')).toBeNull();
    expect(dueDateAlert(parts, '2026-12-07')?.frase).toBe('dia 20');
  });

  it('formatReading and agreesWith', () => {
    expect(formatReading({ de: '2026-12-20', ate: '2026-12-20' })).toBe('20/12/2026');
    expect(agreesWith({ de: '2026-12-14', ate: '2026-12-20' }, '2026-12-16')).toBe(true);
    expect(agreesWith({ de: '2026-12-14', ate: '2026-12-20' }, null)).toBe(false);
  });
});

describe('the charge evals (evals/cobrancas.jsonl)', () => {
  it('every expected vencimento agrees with the text’s reading (no false alert)', () => {
    const cases = readFileSync(resolve(__dirname, '../../evals/cobrancas.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map(
        (l) =>
          JSON.parse(l) as {
            texto: string;
            hoje: string;
            esperado: { vencimento?: string | null };
          },
      );
    let checked = 0;
    for (const c of cases) {
      const v = c.esperado.vencimento;
      if (v === undefined || v === null) continue;
      const chegada = new Date(`${c.hoje}T12:00:00-03:00`);
      expect(dueDateAlert([{ texto: c.texto, chegada }], v), c.texto).toBeNull();
      expect(readDueDate(c.texto, chegada)?.de, c.texto).toBe(v);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(15);
  });
});
