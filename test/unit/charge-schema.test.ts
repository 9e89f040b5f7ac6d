/**
 * The charge has ONE shape: the zod schema in `charge-schema.ts`. These tests fail if the tool
 * schema, the IPC input, the rules and the agent's form start to accept different values again.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  chargeRules,
  chargeTool,
  cobrancaSchema,
  normalizeDados,
  type DadosCobranca,
} from '@shared/charge';
import { fieldProblem } from '@shared/charge-schema';
import { contract, type ChannelInput } from '@shared/contract';
import { DadosCobrancaInput } from '@shared/contract/review';
import type { DadosCobranca as StoredDados } from '@shared/extraction-types';
import type { z } from '@shared/zod';
import { checkForm, formFromDados } from '../../src-renderer/review/form';
import { chargeData } from '../support/charges';

const TODAY = '2026-03-16';
const ok: DadosCobranca = chargeData({ descricao: 'Conserto' });

describe('the tool schema the model gets', () => {
  it('is generated from the zod schema and equals what the model got before the merge of the shapes', () => {
    const before = JSON.parse(readFileSync('test/fixtures/charge-tool.json', 'utf8')) as unknown;
    const now = JSON.parse(
      JSON.stringify({ strict: chargeTool({ strict: true }), loose: chargeTool() }),
    ) as unknown;
    expect(now).toEqual(before);
  });
});

describe('one shape: the type, the IPC input and the stored charge', () => {
  it('DadosCobranca is z.infer of the schema, everywhere it is imported from', () => {
    expectTypeOf<DadosCobranca>().toEqualTypeOf<z.infer<typeof cobrancaSchema>>();
    expectTypeOf<StoredDados>().toEqualTypeOf<z.infer<typeof cobrancaSchema>>();
    expectTypeOf<ChannelInput<'review/confirm'>['dados']>().toEqualTypeOf<DadosCobranca>();
  });

  it('validate, save and confirm take the charge schema itself as their dados', () => {
    // One exception since #38.2: screens get the payer's document masked, and the mask comes
    // back meaning "the stored one". Every other field is the schema's own field, unchanged.
    const input = DadosCobrancaInput.shape as Record<string, unknown>;
    const own = cobrancaSchema.shape as Record<string, unknown>;
    expect(Object.keys(input).sort()).toEqual(Object.keys(own).sort());
    for (const k of Object.keys(own)) {
      if (k !== 'cliente_documento') expect(input[k], k).toBe(own[k]);
    }
    const masked = chargeData({ metodo: 'pix', parcelas: 1, cliente_documento: '***.982.247-**' });
    expect(DadosCobrancaInput.safeParse(masked).success).toBe(true);
    expect(cobrancaSchema.safeParse(masked).success).toBe(false);
    const wrong = chargeData({ metodo: 'pix', parcelas: 1, cliente_documento: '529.982.247-24' });
    expect(DadosCobrancaInput.safeParse(wrong).success).toBe(false);
    expect(cobrancaSchema.safeParse(wrong).success).toBe(false);
    for (const ch of ['review/validate', 'review/save', 'review/confirm'] as const) {
      const ci = contract[ch].input as unknown as { shape: { dados: unknown } };
      expect(ci.shape.dados).toBe(DadosCobrancaInput);
    }
  });
});

/** A value checked against the (non-strict) JSON schema of one field, as the model reads it. */
function jsonSchemaAccepts(campo: keyof DadosCobranca, v: unknown): boolean {
  const prop = chargeTool().input_schema.properties[campo] as {
    anyOf?: Record<string, unknown>[];
  };
  if (v === null) return true;
  const s = prop.anyOf?.[0] ?? {};
  if (s.type === 'integer') {
    return (
      Number.isInteger(v) &&
      (s.minimum === undefined || (v as number) >= (s.minimum as number)) &&
      (s.maximum === undefined || (v as number) <= (s.maximum as number))
    );
  }
  if (s.type === 'string') {
    if (typeof v !== 'string') return false;
    if (s.enum && !(s.enum as unknown[]).includes(v)) return false;
    if (s.maxLength !== undefined && v.length > (s.maxLength as number)) return false;
    return s.pattern === undefined || new RegExp(s.pattern as string).test(v);
  }
  throw new Error(`tipo inesperado em ${campo}`);
}

// Values on both sides of every bound a schema can hold (today-dependent rules are on top).
const BOUNDS: [keyof DadosCobranca, unknown, boolean][] = [
  ['valor_centavos', 99, false],
  ['valor_centavos', 100, true],
  ['valor_centavos', 10_000_000, true],
  ['valor_centavos', 10_000_001, false],
  ['parcelas', 0, false],
  ['parcelas', 1, true],
  ['parcelas', 12, true],
  ['parcelas', 13, false],
  ['cliente_nome', 'é'.repeat(120), true],
  ['cliente_nome', 'a'.repeat(121), false],
  ['descricao', 'x'.repeat(140), true],
  ['descricao', 'x'.repeat(141), false],
  ['vencimento', '2028-02-29', true],
  ['vencimento', '2027-02-29', false],
  ['vencimento', '2026-12-31', true],
  ['vencimento', '2026-13-01', false],
  ['metodo', 'boleto', true],
];

describe('IPC input, tool schema, rules and the agent form accept/refuse the same values', () => {
  it.each(BOUNDS)('%s = %j → accepted: %s', (campo, v, accepted) => {
    // A boleto needs the payer's document to be created (#36.4): the metodo rows carry one.
    const doc = campo === 'metodo' ? { cliente_documento: '52998224725' } : {};
    const d = { ...ok, ...doc, parcelas: campo === 'metodo' ? 1 : ok.parcelas, [campo]: v };
    const ipc = DadosCobrancaInput.safeParse(d).success;
    const json = jsonSchemaAccepts(campo, v);
    const rules = chargeRules(d, { today: TODAY }).length === 0;
    const form = checkForm(formFromDados(d as DadosCobranca), TODAY);
    expect({ ipc, json, rules, form: form.ready }).toEqual({
      ipc: accepted,
      json: accepted,
      rules: accepted,
      form: accepted,
    });
    if (!accepted) expect(Object.keys(form.errors)).toEqual([campo]);
  });

  it('the IPC refuses with the rule message the model gets, per field', () => {
    for (const [campo, v, accepted] of BOUNDS) {
      if (accepted) continue;
      const r = DadosCobrancaInput.safeParse({ ...ok, [campo]: v });
      expect(r.success).toBe(false);
      const rule = chargeRules({ ...ok, [campo]: v }, { today: TODAY });
      expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual(
        rule.map((e) => [e.campo, e.mensagem]),
      );
      expect(rule[0]?.mensagem).toBe(fieldProblem(campo, v).mensagem);
    }
  });
});

describe('normalizeDados is the one normalization (main and the form)', () => {
  it('trims text, blank is null, faltando = the null fields', () => {
    expect(
      normalizeDados({
        ...ok,
        cliente_nome: '  Ana  ',
        descricao: '   ',
        vencimento: null,
        faltando: ['metodo'],
      }),
    ).toEqual({
      ...ok,
      cliente_nome: 'Ana',
      descricao: null,
      vencimento: null,
      faltando: ['vencimento'],
    });
  });

  it('the form sends exactly what normalizeDados makes of it', () => {
    const d = { ...ok, cliente_nome: '  Maria  ', descricao: null, parcelas: null };
    const form = { ...formFromDados(d), cliente_nome: '  Maria  ' };
    expect(checkForm(form, TODAY).dados).toEqual(normalizeDados(d));
  });
});
