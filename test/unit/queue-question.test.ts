import { describe, expect, it } from 'vitest';
import { joinPtBr, questionFor } from '../../src-shared/question';

describe('question for the merchant', () => {
  it('asks for the missing fields in the tool order, as one pt-BR sentence', () => {
    expect(questionFor(['vencimento', 'valor_centavos'])).toBe(
      'Qual o valor da cobrança e a data de vencimento?',
    );
    expect(questionFor(['cliente_nome'])).toBe('Qual o nome do cliente?');
    expect(questionFor(['metodo', 'parcelas', 'vencimento'])).toBe(
      'Qual o número de parcelas, a forma de pagamento (Pix, boleto ou cartão) e a data de vencimento?',
    );
  });

  it('has nothing to ask when nothing is missing, and ignores unknown names', () => {
    expect(questionFor([])).toBeNull();
    expect(questionFor(['descricao'])).toBeNull();
  });

  it('joins lists the Portuguese way', () => {
    expect(joinPtBr([])).toBe('');
    expect(joinPtBr(['a'])).toBe('a');
    expect(joinPtBr(['a', 'b', 'c'])).toBe('a, b e c');
  });
});
