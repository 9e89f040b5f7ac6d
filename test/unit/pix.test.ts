import { describe, expect, it } from 'vitest';
import {
  centavosParaDecimal,
  cnpjValido,
  cpfValido,
  decimalParaCentavos,
  validarChavePix,
} from '../../src-shared/pix';
import { cobSolicitada, expiracaoSegundos, type EnvioRow } from '../../src-main/psp/dispatch';
import { validateCob } from '../support/fake-psp';

describe('Pix keys', () => {
  it.each([
    ['529.982.247-25', 'cpf', '52998224725'],
    ['11.222.333/0001-81', 'cnpj', '11222333000181'],
    ['12.abc.345/01de-35', 'cnpj', '12ABC34501DE35'],
    ['Financeiro@Padaria.com.br', 'email', 'financeiro@padaria.com.br'],
    ['+55 (11) 98765-4321', 'telefone', '+5511987654321'],
    ['+55 61 3333-4444', 'telefone', '+556133334444'],
    ['123E4567-E89B-42D3-A456-426614174000', 'evp', '123e4567-e89b-42d3-a456-426614174000'],
  ])('%s is a %s key, stored as %s', (entrada, tipo, chave) => {
    expect(validarChavePix(entrada)).toEqual({ ok: true, tipo, chave });
  });

  it.each([
    ['529.982.247-24', /CPF inválido/],
    ['111.111.111-11', /CPF inválido/],
    ['11.222.333/0001-82', /CNPJ inválido/],
    ['12.ABC.345/01DE-36', /CNPJ inválido/],
    ['+1 415 555 0100', /\+55/],
    ['+55 11 1234', /Telefone inválido/],
    ['joao@', /E-mail inválido/],
    ['', /Informe/],
    ['chave qualquer', /não reconhecida/],
  ])('%s is refused in pt-BR', (entrada, motivo) => {
    const r = validarChavePix(entrada);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.motivo).toMatch(motivo);
  });

  it('check digits: numeric and alphanumeric CNPJ, CPF', () => {
    expect(cnpjValido('12ABC34501DE35')).toBe(true);
    expect(cnpjValido('00000000000000')).toBe(false);
    expect(cpfValido('52998224725')).toBe(true);
  });
});

describe('amounts as the API Pix wants them', () => {
  it.each([
    [15000, '150.00'],
    [1, '0.01'],
    [10, '0.10'],
    [100, '1.00'],
    [10000000, '100000.00'],
    [999999999999, '9999999999.99'],
  ])('%i centavos → "%s" and back', (c, s) => {
    expect(centavosParaDecimal(c)).toBe(s);
    expect(decimalParaCentavos(s)).toBe(c);
  });
  it('refuses floats and malformed strings', () => {
    expect(() => centavosParaDecimal(1.5)).toThrow();
    expect(decimalParaCentavos('150.0')).toBeNull();
    expect(decimalParaCentavos('150,00')).toBeNull();
  });
});

describe('the CobSolicitada Balcão sends', () => {
  const row: EnvioRow = {
    cobranca_id: '7',
    estado: 'pendente',
    motivo: null,
    txid: 'blc000000000007abcdef0123456789',
    tentativas: 1,
    copia_e_cola: null,
    valor_centavos: '15000',
    metodo: 'pix',
    vencimento: '2026-12-02',
    descricao: 'x'.repeat(200),
    cliente_nome: 'João',
    chave_pix: 'financeiro@padaria.com.br',
  };
  it('expires at 23:59:59 of the due day in São Paulo', () => {
    expect(
      expiracaoSegundos('2026-12-02', 'America/Sao_Paulo', new Date('2026-12-03T02:59:58Z')),
    ).toBe(1);
    expect(
      expiracaoSegundos('2026-12-01', 'America/Sao_Paulo', new Date('2026-12-02T03:00:00Z')),
    ).toBeLessThanOrEqual(0);
  });
  it('passes the spec checks of the fake PSP; solicitacaoPagador cut at 140', () => {
    const body = cobSolicitada(row, 3600);
    expect(validateCob(body, false)).toEqual([]);
    expect((body.solicitacaoPagador as string).length).toBe(140);
    expect(validateCob({ ...body, valor: { original: 150 } }, false)).toEqual([
      expect.objectContaining({ propriedade: 'valor.original' }),
    ]);
    expect(validateCob({ ...body, extra: 1 }, false)[0]?.propriedade).toBe('extra');
    expect(validateCob(body, true).map((v) => v.propriedade)).toEqual(
      expect.arrayContaining(['calendario.expiracao', 'devedor', 'calendario.dataDeVencimento']),
    );
  });
});

describe('PSP configuration', () => {
  it('no BALCAO_PSP_URL: no PSP; otherwise https, credentials and PEM files are required', async () => {
    const { pspConfig, pspWebhookToken } = await import('../../src-main/psp/config');
    expect(pspConfig({})).toBeNull();
    expect(() => pspConfig({ BALCAO_PSP_URL: 'http://psp.test' })).toThrow(/https/);
    expect(() => pspConfig({ BALCAO_PSP_URL: 'https://psp.test' })).toThrow(
      /BALCAO_PSP_CLIENT_ID e BALCAO_PSP_CLIENT_SECRET/,
    );
    const ok = pspConfig({
      BALCAO_PSP_URL: 'https://psp.test/api/v2/',
      BALCAO_PSP_CLIENT_ID: 'id',
      BALCAO_PSP_CLIENT_SECRET: 'segredo',
    });
    expect(ok).toMatchObject({
      url: 'https://psp.test/api/v2',
      tokenUrl: 'https://psp.test/api/v2/oauth/token',
    });
    expect(() =>
      pspConfig({
        BALCAO_PSP_URL: 'https://psp.test',
        BALCAO_PSP_CLIENT_ID: 'id',
        BALCAO_PSP_CLIENT_SECRET: 's',
        BALCAO_PSP_CERT: '/nao/existe.pem',
      }),
    ).toThrow(/Não foi possível ler BALCAO_PSP_CERT/);
    expect(pspWebhookToken({})).toBeNull();
    expect(() => pspWebhookToken({ BALCAO_PSP_WEBHOOK_TOKEN: 'curto' })).toThrow(/16 a 128/);
  });
});
