/**
 * The payer's document on the charge (#36.4): CPF and CNPJ (numeric and alphanumeric) check
 * digits through the tool's rules, the IPC input and the agent's form; a boleto without it is
 * incomplete, with `cliente_documento` in faltando and in the question to the merchant.
 */
import { describe, expect, it } from 'vitest';
import {
  chargeRules,
  chargeTool,
  normalizeDados,
  validateCharge,
  withFaltaDocumento,
} from '@shared/charge';
import { DadosCobrancaInput } from '@shared/contract/review';
import { formatDocumento, maskDocumento, tipoDocumento } from '@shared/documento';
import { questionFor } from '@shared/question';
import { checkForm, formFromDados } from '../../src-renderer/review/form';
import { chargeData } from '../support/charges';

const TODAY = '2026-03-16';
const boleto = chargeData({ metodo: 'boleto', parcelas: 1 });
const regras = (d: unknown) => chargeRules(d, { today: TODAY }).map((e) => e.regra);

describe('cliente_documento: check digits (the LGPD detector’s validators)', () => {
  it.each([
    ['529.982.247-25', 'cpf'],
    ['52998224725', 'cpf'],
    ['11.222.333/0001-81', 'cnpj'],
    ['12.ABC.345/01DE-35', 'cnpj'],
    ['12abc34501de35', 'cnpj'],
  ])(
    '%s is a valid %s: the rules, the IPC and the form accept it, stored canonical',
    (doc, tipo) => {
      expect(tipoDocumento(doc)).toBe(tipo);
      const d = { ...boleto, cliente_documento: doc };
      expect(regras(d)).toEqual([]);
      expect(DadosCobrancaInput.safeParse(d).success).toBe(true);
      const v = validateCharge(d, { today: TODAY });
      expect(v.ok && v.value.cliente_documento).toBe(doc.toUpperCase().replace(/[./-]/g, ''));
      const form = checkForm({ ...formFromDados(boleto), cliente_documento: doc }, TODAY);
      expect(form.ready).toBe(true);
      expect(form.dados.cliente_documento).toBe(doc.toUpperCase().replace(/[./-]/g, ''));
    },
  );

  it.each([
    '529.982.247-26', // wrong check digit
    '111.111.111-11', // all equal
    '11.222.333/0001-80',
    '12.ABC.345/01DE-36', // alphanumeric, wrong check digit
    '12.ABC.345/01DE-3X', // check digits are numeric
    '1234',
  ])('%s is refused with the same pt-BR message by the rules, the IPC and the form', (doc) => {
    const d = { ...boleto, cliente_documento: doc };
    const errs = chargeRules(d, { today: TODAY });
    expect(errs.map((e) => [e.campo, e.regra])).toEqual([
      ['cliente_documento', 'cliente_documento_invalido'],
    ]);
    expect(errs[0]?.mensagem).toContain('dígitos verificadores');
    const ipc = DadosCobrancaInput.safeParse(d);
    expect(ipc.error?.issues.map((i) => i.message)).toEqual([errs[0]?.mensagem]);
    const form = checkForm({ ...formFromDados(boleto), cliente_documento: doc }, TODAY);
    expect(form.ready).toBe(false);
    expect(Object.keys(form.errors)).toEqual(['cliente_documento']);
  });

  it('formats and masks for display', () => {
    expect(formatDocumento('52998224725')).toBe('529.982.247-25');
    expect(formatDocumento('12ABC34501DE35')).toBe('12.ABC.345/01DE-35');
    expect(maskDocumento('52998224725')).toBe('***.***.*47-25');
  });
});

describe('a boleto needs the document; other methods do not', () => {
  it('a valid boleto answer without it is incompleto with cliente_documento in faltando', () => {
    const v = validateCharge(boleto, { today: TODAY });
    expect(v.ok).toBe(true);
    if (!v.ok) return;
    expect(withFaltaDocumento(v.value).faltando).toEqual(['cliente_documento']);
    expect(withFaltaDocumento({ ...v.value, cliente_documento: '52998224725' }).faltando).toEqual(
      [],
    );
    // The model may list it itself; it is not listed twice.
    const listed = validateCharge({ ...boleto, faltando: ['cliente_documento'] }, { today: TODAY });
    expect(listed.ok && withFaltaDocumento(listed.value).faltando).toEqual(['cliente_documento']);
  });

  it('Pix and card never miss it: listing it there is a rule error, leaving it out is fine', () => {
    for (const metodo of ['pix', 'cartao'] as const) {
      const d = chargeData({ metodo, parcelas: 1 });
      expect(regras(d)).toEqual([]);
      expect(withFaltaDocumento(d).faltando).toEqual([]);
      expect(regras({ ...d, faltando: ['cliente_documento'] })).toEqual([
        'faltando_documento_opcional',
      ]);
    }
    expect(
      regras({ ...boleto, cliente_documento: '52998224725', faltando: ['cliente_documento'] }),
    ).toEqual(['faltando_com_valor']);
  });

  it('the agent’s form and normalizeDados derive it for a boleto; confirm stays off', () => {
    expect(normalizeDados(boleto).faltando).toEqual(['cliente_documento']);
    expect(normalizeDados({ ...boleto, metodo: 'pix' }).faltando).toEqual([]);
    const form = checkForm(formFromDados(boleto), TODAY);
    expect(form.faltando).toEqual(['cliente_documento']);
    expect(form.ready).toBe(false);
  });

  it('the question to the merchant asks for the CPF or CNPJ', () => {
    expect(questionFor(['cliente_documento'])).toBe(
      'Qual o CPF ou CNPJ do cliente (o boleto registrado exige)?',
    );
    expect(questionFor(['vencimento', 'cliente_documento'])).toContain(
      'a data de vencimento e o CPF ou CNPJ do cliente',
    );
  });

  it('the model’s tool has the optional field, described in pt-BR, and may list it in faltando', () => {
    const s = chargeTool({ strict: true }).input_schema;
    expect(s.required).not.toContain('cliente_documento');
    expect(JSON.stringify(s.properties.cliente_documento)).toContain('Obrigatório só no boleto');
    expect(JSON.stringify(s.properties.faltando)).toContain('"cliente_documento"');
  });
});
