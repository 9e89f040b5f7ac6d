import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { amountAlert, amountsInText } from '@shared/amounts';
import { formatBRL } from '@shared/money';

describe('amountsInText: amounts written in pt-BR text (centavos)', () => {
  it.each([
    ['manda um link de R$ 150 pro João', [15000]],
    ['cobra R$150 no pix', [15000]],
    ['150 reais no cartão em 3x', [15000]],
    ['valor 150,00 no boleto', [15000]],
    ['são 1.500 no cartão', [150000]],
    ['R$1.500,50 pra Maria', [150050]],
    ['R$ 1.500,50.', [150050]],
    ['R$ 2.345.678,09', [234567809]],
    ['1 real de teste', [100]],
    ['150,00 reais', [15000]],
    ['R$ 150.00 (com ponto)', [15000]],
    ['2 mil reais', [200000]],
    ['R$ 1,5 mil', [150000]],
    ['uns 3 mil no cartão', [300000]],
    ['50 contos no pix', [5000]],
    ['R$ 99,9', [9990]],
    ['R$ 150 agora e R$ 150 depois', [15000]],
    ['entrada de R$ 100 e o resto 200 reais', [10000, 20000]],
  ])('%s → %j', (text, expected) => {
    expect(amountsInText(text)).toEqual(expected);
  });

  it.each([
    'manda um link de 150 pro João', // bare integer: ambiguous
    'em 3x no cartão',
    'vence dia 15/03',
    'vence 2026-03-20',
    'às 10:30',
    'CPF 123.456.789-00',
    'desconto de 3,50%',
    'telefone 11 98765-4321',
    'pedido 12345',
    'nota 1.2',
  ])('no amount in %s', (text) => {
    expect(amountsInText(text)).toEqual([]);
  });
});

describe('amountAlert: the sanity check', () => {
  it('no alert when the extracted amount is written in the text', () => {
    expect(amountAlert('manda 150 reais pro João', 15000)).toBeNull();
  });

  it('alert when the model wrote reais instead of centavos', () => {
    const a = amountAlert('manda 150 reais pro João', 150);
    expect(a).toEqual({
      codigo: 'valor_divergente',
      mensagem: expect.stringContaining('não bate'),
      valores_no_texto: [15000],
    });
    expect(a!.mensagem).toContain(formatBRL(150));
    expect(a!.mensagem).toContain(formatBRL(15000));
  });

  it('alert when the amount is empty but the text has one', () => {
    expect(amountAlert('R$ 80 pro Zé', null)?.mensagem).toContain('ficou vazio');
  });

  it('no alert when the text has no recognisable amount', () => {
    expect(amountAlert('manda um link de 150 pro João', 15000)).toBeNull();
    expect(amountAlert('manda um link pro João', null)).toBeNull();
  });

  it('"3x de R$ 50" matches a total of 150 with 3 parcelas', () => {
    expect(amountAlert('cartão em 3x de R$ 50,00', 15000, 3)).toBeNull();
    expect(amountAlert('cartão em 3x de R$ 50,00', 15000, null)).not.toBeNull();
    expect(amountAlert('R$ 50 no cartão em 3x', 15000, 3)).not.toBeNull(); // not "Nx de"
  });
});

describe('properties', () => {
  const centavos = fc.integer({ min: 1, max: 100_000_000_00 });

  it('"R$ <formatBRL>" is read back exactly, for any amount', () => {
    fc.assert(
      fc.property(centavos, (c) => {
        expect(amountsInText(`cobra ${formatBRL(c)} do cliente`)).toEqual([c]);
      }),
    );
  });

  it('"<reais>,<cc> reais", "R$<reais>" and thousands with dots are read back exactly', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: 0, max: 99 }),
        (r, cc) => {
          const dotted = r.toLocaleString('pt-BR', { useGrouping: true });
          const cents = String(cc).padStart(2, '0');
          expect(amountsInText(`${dotted},${cents} reais`)).toEqual([r * 100 + cc]);
          expect(amountsInText(`pix de R$${dotted}`)).toEqual([r * 100]);
          expect(amountsInText(`valor ${r} reais`)).toEqual([r * 100]);
        },
      ),
    );
  });

  it('never throws and only returns safe positive integers, on any text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (t) => {
        for (const c of amountsInText(t)) expect(Number.isSafeInteger(c) && c >= 0).toBe(true);
      }),
    );
  });

  it('an alert fires iff the text has amounts and none equals the extracted one', () => {
    fc.assert(
      fc.property(centavos, centavos, (written, extracted) => {
        const a = amountAlert(`manda ${formatBRL(written)} pro João`, extracted);
        expect(a === null).toBe(written === extracted);
      }),
    );
  });
});
