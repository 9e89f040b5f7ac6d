import { describe, expect, it } from 'vitest';
import {
  describeCharge,
  formatDueDate,
  formatFieldValue,
  installments,
} from '../../src-renderer/review/describe';

/** Intl uses a no-break space after "R$"; compare as people read it. */
const plain = (s: string) => s.replace(/\u00a0/g, ' ');

describe('the charge as a person reads it', () => {
  it('reads the example from the issue', () => {
    expect(
      plain(
        describeCharge({
          valor_centavos: 15000,
          parcelas: 3,
          metodo: 'cartao',
          cliente_nome: 'João Silva',
          vencimento: '2026-12-04',
        }),
      ),
    ).toBe('R$ 150,00 em 3x de R$ 50,00 no cartão · João Silva · vence sex., 04/12/2026');
  });

  it('puts the leftover cents on the first installment, so the parts add up', () => {
    expect(plain(installments(10000, 3))).toBe('em 3x de R$ 33,33 (1ª de R$ 33,34)');
  });

  it('reads single payments and missing fields', () => {
    expect(
      plain(
        describeCharge({
          valor_centavos: 8990,
          parcelas: 1,
          metodo: 'pix',
          cliente_nome: 'Maria',
          vencimento: '2026-12-01',
        }),
      ),
    ).toBe('R$ 89,90 no Pix · Maria · vence ter., 01/12/2026');
    expect(
      describeCharge({
        valor_centavos: null,
        parcelas: 1,
        metodo: 'boleto',
        cliente_nome: null,
        vencimento: null,
      }),
    ).toBe('valor não informado no boleto · cliente não informado · vencimento não informado');
  });

  it('formats field values for the diff and the timeline', () => {
    expect(formatDueDate('2026-12-05')).toBe('sáb., 05/12/2026');
    expect(plain(formatFieldValue('valor_centavos', 120000))).toBe('R$ 1.200,00');
    expect(formatFieldValue('metodo', 'cartao')).toBe('cartão');
    expect(formatFieldValue('parcelas', null)).toBe('—');
    expect(formatFieldValue('faltando', ['valor_centavos', 'vencimento'])).toBe(
      'Valor, Vencimento',
    );
  });
});
