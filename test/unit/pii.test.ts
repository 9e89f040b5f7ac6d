/** #38.1: personal data found and replaced before the model; amounts, dates and the like kept. */
import { describe, expect, it } from 'vitest';
import {
  createPiiMinimizer,
  findPii,
  hasRemovedCard,
  isValidCnpj,
  isValidCpf,
  minimizePii,
  passesLuhn,
  removeCardNumbers,
  restorePlaceholders,
  type PiiKind,
} from '@shared/pii';

/** The rule written again, independently: mod 11, value = ASCII code − 48, weights 2..9. */
function cnpjWithCheckDigits(base12: string): string {
  const dv = (s: string) => {
    let sum = 0;
    let w = 2;
    for (let i = s.length - 1; i >= 0; i--) {
      sum += (s.charCodeAt(i) - 48) * w;
      w = w === 9 ? 2 : w + 1;
    }
    const r = sum % 11;
    return r < 2 ? 0 : 11 - r;
  };
  const d1 = dv(base12);
  return `${base12}${d1}${dv(base12 + d1)}`;
}
const fmtCnpj = (c: string) =>
  `${c.slice(0, 2)}.${c.slice(2, 5)}.${c.slice(5, 8)}/${c.slice(8, 12)}-${c.slice(12)}`;
/** The same check digits with the last one changed: no longer a valid document. */
const wrongLast = (s: string) => s.slice(0, -1) + String((Number(s.slice(-1)) + 1) % 10);

const ALNUM = cnpjWithCheckDigits('12ABC34501DE');
const ALNUM2 = cnpjWithCheckDigits('A1B2C3D4E5F6');

describe('check digits', () => {
  it.each([
    ['529.982.247-25', true],
    ['52998224725', true],
    ['111.444.777-35', true],
    ['390.533.447-05', true],
    ['529.982.247-26', false],
    ['111.111.111-11', false],
    ['000.000.000-00', false],
    ['1234567890', false],
  ])('CPF %s → %s', (cpf, ok) => expect(isValidCpf(cpf)).toBe(ok));

  it.each([
    ['11.222.333/0001-81', true],
    ['11222333000181', true],
    ['12.ABC.345/01DE-35', true], // the Receita's own example of the alphanumeric CNPJ
    [fmtCnpj(ALNUM2), true],
    [ALNUM2.toLowerCase(), true],
    ['11.222.333/0001-82', false],
    [wrongLast(ALNUM2), false],
    ['00.000.000/0000-00', false],
    ['12ABC34501DEXX', false],
  ])('CNPJ %s → %s', (cnpj, ok) => expect(isValidCnpj(cnpj)).toBe(ok));

  it('the alphanumeric rule written independently agrees on the Receita example', () => {
    expect(ALNUM).toBe('12ABC34501DE35');
  });

  it.each([
    ['4111111111111111', true],
    ['5500000000000004', true],
    ['378282246310005', true],
    ['4111111111111112', false],
  ])('Luhn %s → %s', (n, ok) => expect(passesLuhn(n)).toBe(ok));
});

const POSITIVES: [string, PiiKind, string][] = [
  ['CPF pontuado', 'CPF', 'o CPF dela é 529.982.247-25, obrigado'],
  ['CPF sem pontuação', 'CPF', 'cpf 52998224725'],
  ['CPF com traço só', 'CPF', 'CPF:111444777-35.'],
  ['CPF entre parênteses', 'CPF', 'Ana (390.533.447-05)'],
  ['CNPJ pontuado', 'CNPJ', 'empresa 11.222.333/0001-81 paga'],
  ['CNPJ sem pontuação', 'CNPJ', 'cnpj 11222333000181'],
  ['CNPJ alfanumérico do exemplo', 'CNPJ', 'CNPJ 12.ABC.345/01DE-35'],
  ['CNPJ alfanumérico formatado', 'CNPJ', `cnpj ${fmtCnpj(ALNUM2)} da loja`],
  ['CNPJ alfanumérico colado', 'CNPJ', `cnpj ${ALNUM2}`],
  ['celular com DDD entre parênteses', 'TELEFONE', 'liga (11) 98765-4321'],
  ['celular com DDD e espaço', 'TELEFONE', 'zap 11 98765-4321'],
  ['celular colado', 'TELEFONE', 'whats 11987654321'],
  ['celular +55', 'TELEFONE', 'fone +55 11 98765-4321'],
  ['celular +55 colado', 'TELEFONE', 'fone +5511987654321'],
  ['celular +55 com parênteses', 'TELEFONE', '+55 (21) 99876-5432'],
  ['celular com 0 e espaços', 'TELEFONE', 'tel 011 98765 4321'],
  ['celular com pontos', 'TELEFONE', 'tel 11.98765.4321'],
  ['celular 9 separado', 'TELEFONE', 'tel (11) 9 8765-4321'],
  ['celular sem DDD', 'TELEFONE', 'me liga no 98765-4321'],
  ['fixo com DDD', 'TELEFONE', 'fixo (21) 3456-7890'],
  ['fixo com DDD e espaço', 'TELEFONE', 'fixo 21 3456-7890'],
  ['e-mail', 'EMAIL', 'manda pra maria.souza@empresa.com.br'],
  ['e-mail com + e maiúsculas', 'EMAIL', 'JOAO.SILVA+pix@Gmail.com.'],
  ['cartão com espaços', 'CARTAO', 'cartão 4111 1111 1111 1111 em 3x'],
  ['cartão com traços', 'CARTAO', 'cartão 5500-0000-0000-0004'],
  ['cartão colado', 'CARTAO', 'cartão 4111111111111111'],
  ['cartão Amex 4-6-5', 'CARTAO', 'amex 3782 822463 10005'],
  ['cartão de 13 dígitos', 'CARTAO', 'visa 4222222222222'],
  ['cartão Diners de 14 dígitos', 'CARTAO', 'diners 3056 930902 5904'],
  ['cartão de 19 dígitos', 'CARTAO', 'cartao 6011 0000 0000 0000 001'],
  ['chave Pix aleatória', 'CHAVE_PIX', 'pix 123e4567-e89b-12d3-a456-426614174000'],
  ['chave Pix maiúscula', 'CHAVE_PIX', 'chave 7D2F1A3B-9C4E-4F5A-8B6D-1E2F3A4B5C6D'],
];

describe('findPii: positives', () => {
  it.each(POSITIVES)('%s', (_n, kind, text) => {
    const found = findPii(text);
    expect(found.map((f) => f.kind)).toEqual([kind]);
    const { texto } = minimizePii(text);
    expect(texto).toContain(`[${kind}_1]`);
    expect(texto).not.toContain(found[0]!.value);
  });
});

const NEGATIVES: [string, string][] = [
  ['valor com milhar', 'cobra R$ 1.500,00 do João'],
  ['valor grande', 'total de R$ 98.765,43 em 10x'],
  ['valor sem cifrão', 'foram 1.234.567,89 no mês'],
  ['valor em reais', '150 reais no pix'],
  ['data com barras', 'vence 15/03/2026'],
  ['data ISO', 'vencimento 2026-03-15'],
  ['data curta', 'dia 20/12'],
  ['hora', 'passo às 10:30 ou 14h'],
  ['parcelas', '3x sem juros, ou 12x de R$ 50'],
  ['pedido de 11 dígitos que falha o CPF', 'pedido 12345678901'],
  ['CPF com dígito errado', 'cpf 529.982.247-26'],
  ['CPF repetido', 'cpf 111.111.111-11'],
  ['CNPJ com dígito errado', 'cnpj 11.222.333/0001-82'],
  ['CNPJ alfanumérico com dígito errado', `cnpj ${fmtCnpj(wrongLast(ALNUM2))}`],
  ['pedido de 14 dígitos', 'pedido 20260315000123'],
  ['cartão que falha Luhn', 'cartão 4111 1111 1111 1112'],
  ['protocolo de 10 dígitos', 'protocolo 1234567890'],
  ['CEP com traço', 'CEP 01310-100'],
  ['CEP colado', 'CEP 04538133'],
  ['nota fiscal', 'NF 000123456 série 1'],
  ['pedido curto', 'pedido #98765'],
  ['palavra com arroba solta', 'pago @ loja'],
  ['UUID incompleto', 'ref 123e4567-e89b-12d3-a456'],
  ['número com letras grudadas', 'código ABC52998224725'],
];

describe('findPii: negatives (left as written)', () => {
  it.each(NEGATIVES)('%s', (_n, text) => {
    expect(findPii(text)).toEqual([]);
    expect(minimizePii(text).texto).toBe(text);
  });
});

describe('minimising a realistic message', () => {
  const msg =
    'Oi! Manda um link de R$ 1.500,00 em 3x pro João Silva (CPF 529.982.247-25), vence 20/12/2026 ' +
    'às 10:30. O zap dele é (11) 98765-4321 e o e-mail joao.silva@gmail.com. Ele passou o cartão ' +
    '4111 1111 1111 1111. Pedido 12345678901. Se preferir, pix 123e4567-e89b-12d3-a456-426614174000 ' +
    `ou CNPJ ${fmtCnpj(ALNUM2)}.`;

  it('replaces every piece of personal data and keeps amounts, dates, times and order numbers', () => {
    const { texto, mapa } = minimizePii(msg);
    expect(texto).toBe(
      'Oi! Manda um link de R$ 1.500,00 em 3x pro João Silva (CPF [CPF_1]), vence 20/12/2026 ' +
        'às 10:30. O zap dele é [TELEFONE_1] e o e-mail [EMAIL_1]. Ele passou o cartão ' +
        '[CARTAO_1]. Pedido 12345678901. Se preferir, pix [CHAVE_PIX_1] ' +
        'ou CNPJ [CNPJ_1].',
    );
    expect(mapa).toEqual({
      '[CPF_1]': '529.982.247-25',
      '[TELEFONE_1]': '(11) 98765-4321',
      '[EMAIL_1]': 'joao.silva@gmail.com',
      '[CARTAO_1]': '4111 1111 1111 1111',
      '[CHAVE_PIX_1]': '123e4567-e89b-12d3-a456-426614174000',
      '[CNPJ_1]': fmtCnpj(ALNUM2),
    });
  });

  it('numbers values apart and gives the same value the same placeholder across texts', () => {
    const m = createPiiMinimizer();
    expect(m.minimize('cpf 529.982.247-25 e 111.444.777-35')).toBe('cpf [CPF_1] e [CPF_2]');
    // The reply writes the first CPF without punctuation: still [CPF_1]; a new one is [CPF_3].
    expect(m.minimize('é o 52998224725, não o 390.533.447-05')).toBe('é o [CPF_1], não o [CPF_3]');
  });

  it('keeps placeholders already in a stored text and numbers past them', () => {
    const m = createPiiMinimizer();
    expect(m.minimize('cartão [CARTAO_1] e outro 5500 0000 0000 0004')).toBe(
      'cartão [CARTAO_1] e outro [CARTAO_2]',
    );
  });

  it('restores placeholders in any value, except the kinds asked to keep', () => {
    const m = createPiiMinimizer();
    m.minimize(msg);
    const answer = { cliente_nome: 'João Silva', descricao: 'CPF [CPF_1], cartão [CARTAO_1]' };
    expect(m.restore(answer, { except: ['CARTAO'] })).toEqual({
      cliente_nome: 'João Silva',
      descricao: 'CPF 529.982.247-25, cartão [CARTAO_1]',
    });
    // An unknown placeholder stays as written.
    expect(restorePlaceholders('[CPF_9]', m.mapa)).toBe('[CPF_9]');
  });
});

describe('card numbers are removed before storing', () => {
  it('replaces only the card numbers and counts them', () => {
    const r = removeCardNumbers('cartão 4111 1111 1111 1111 do cpf 529.982.247-25, R$ 150,00');
    expect(r).toEqual({
      texto: 'cartão [CARTAO_1] do cpf 529.982.247-25, R$ 150,00',
      removidos: 1,
    });
    expect(hasRemovedCard(r.texto)).toBe(true);
    expect(hasRemovedCard('sem cartão', null)).toBe(false);
  });

  it('a text without a card is returned as it is', () => {
    expect(removeCardNumbers('cartão 4111 1111 1111 1112 em 3x')).toEqual({
      texto: 'cartão 4111 1111 1111 1112 em 3x',
      removidos: 0,
    });
  });
});
