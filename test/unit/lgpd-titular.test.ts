/** #38: the masks people see for CPF/CNPJ and the data subject's identifier as typed. */
import { describe, expect, it } from 'vitest';
import { maskCnpj, maskCpf, maskDocumentsIn, parseTitular, titularMatches } from '@shared/lgpd';

describe('masks', () => {
  it('CPF keeps only its middle digits, CNPJ (alphanumeric too) likewise', () => {
    expect(maskCpf('123.456.789-09')).toBe('***.456.789-**');
    expect(maskCpf('52998224725')).toBe('***.982.247-**');
    expect(maskCnpj('11.222.333/0001-81')).toBe('**.222.333/****-**');
  });

  it('a text keeps everything but its documents; amounts, dates and near-misses stay', () => {
    const t =
      'R$ 1.500,00 pro CPF 529.982.247-25 e CNPJ 11.222.333/0001-81, pedido 52998224726, dia 04/12';
    expect(maskDocumentsIn(t)).toBe(
      'R$ 1.500,00 pro CPF ***.982.247-** e CNPJ **.222.333/****-**, pedido 52998224726, dia 04/12',
    );
  });
});

describe('the titular', () => {
  it('exactly one identifier, validated, in pt-BR', () => {
    expect(parseTitular({})).toEqual({
      erro: 'Informe um (e só um) destes: o CPF/CNPJ, o telefone ou o e-mail do titular.',
    });
    expect(parseTitular({ documento: '529.982.247-25', email: 'a@b.com' })).toHaveProperty('erro');
    expect(parseTitular({ documento: '529.982.247-26' })).toEqual({
      erro: '«529.982.247-26» não é um CPF nem um CNPJ válido (confira os dígitos verificadores).',
    });
    expect(parseTitular({ telefone: '12345' })).toHaveProperty('erro');
    expect(parseTitular({ email: 'joao@' })).toHaveProperty('erro');
  });

  it('any written form of the same phone or CPF is the same person', () => {
    const t = parseTitular({ telefone: '+55 (11) 98765-4321' });
    if ('erro' in t) throw new Error(t.erro);
    expect(t.rotulo).toBe('(**) *****-4321');
    const e = parseTitular({ email: 'Joao.Silva@gmail.com' });
    expect(e).toMatchObject({ chave: 'joao.silva@gmail.com', rotulo: 'j***@gmail.com' });
    expect(titularMatches('zap 11987654321 ou 11 98765-4321', t)).toHaveLength(2);
    const c = parseTitular({ documento: '52998224725' });
    if ('erro' in c) throw new Error(c.erro);
    expect(titularMatches('CPF 529.982.247-25; outro 111.444.777-35', c)).toEqual([
      { start: 4, end: 18 },
    ]);
  });
});
