import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  chargeRules,
  chargeTool,
  cobrancaSchema,
  projectDados,
  validateCharge,
} from '@shared/charge';
import { CAMPOS_FALTANTES, type DadosCobranca } from '@shared/extraction-types';
import { localDate } from '@shared/time';
import { chargeData } from '../support/charges';

const TODAY = '2026-03-16'; // a Monday
const ok: DadosCobranca = chargeData({ descricao: 'Conserto' });
const rules = (patch: Record<string, unknown>, today = TODAY) =>
  chargeRules({ ...ok, ...patch }, { today });
const regras = (patch: Record<string, unknown>, today = TODAY) =>
  rules(patch, today).map((e) => e.regra);

describe('chargeRules: every rule and boundary', () => {
  it('a complete valid charge has no errors and parses', () => {
    expect(chargeRules(ok, { today: TODAY })).toEqual([]);
    expect(validateCharge(ok, { today: TODAY })).toEqual({ ok: true, value: ok });
  });

  it('valor_centavos 100..10,000,000 (both ends inclusive)', () => {
    expect(regras({ valor_centavos: 100 })).toEqual([]);
    expect(regras({ valor_centavos: 10_000_000 })).toEqual([]);
    expect(regras({ valor_centavos: 99 })).toEqual(['valor_faixa']);
    expect(regras({ valor_centavos: 10_000_001 })).toEqual(['valor_faixa']);
    expect(regras({ valor_centavos: -5 })).toEqual(['valor_faixa']);
    const [e] = rules({ valor_centavos: 99 });
    expect(e).toEqual({
      campo: 'valor_centavos',
      regra: 'valor_faixa',
      mensagem: expect.stringMatching(
        /^O valor deve ficar entre R\$ 1,00 e R\$ 100\.000,00 .*recebido R\$\s0,99 \(99 centavos\)/,
      ),
    });
  });

  it('valor_centavos must be an integer', () => {
    expect(regras({ valor_centavos: 150.5 })).toEqual(['valor_inteiro']);
    expect(regras({ valor_centavos: '15000' })).toEqual(['valor_inteiro']);
    expect(rules({ valor_centavos: '15000' })[0]!.mensagem).toContain('150 reais = 15000');
  });

  it('parcelas 1..12, integer', () => {
    expect(regras({ parcelas: 1 })).toEqual([]);
    expect(regras({ parcelas: 12 })).toEqual([]);
    expect(regras({ parcelas: 0 })).toEqual(['parcelas_faixa']);
    expect(regras({ parcelas: 13 })).toEqual(['parcelas_faixa']);
    expect(regras({ parcelas: 2.5 })).toEqual(['parcelas_inteiro']);
    expect(rules({ parcelas: 13 })[0]!.mensagem).toBe(
      'O número de parcelas deve ficar entre 1 e 12; recebido 13.',
    );
  });

  it('Pix and boleto accept only 1 parcela; cartão up to 12', () => {
    for (const metodo of ['pix', 'boleto']) {
      expect(regras({ metodo, parcelas: 1 })).toEqual([]);
      expect(rules({ metodo, parcelas: 2 })).toEqual([
        {
          campo: 'parcelas',
          regra: 'parcelas_pix_boleto',
          mensagem: 'Pix e boleto aceitam só 1 parcela. Parcelamento só no cartão.',
        },
      ]);
    }
    expect(regras({ metodo: 'cartao', parcelas: 12 })).toEqual([]);
  });

  it('metodo must be pix, boleto or cartao', () => {
    expect(regras({ metodo: 'credito' })).toEqual(['metodo_invalido']);
    expect(rules({ metodo: 'PIX', parcelas: 1 })[0]!.mensagem).toContain('pix, boleto ou cartao');
  });

  it('cliente_nome ≤ 120 characters, not blank', () => {
    expect(regras({ cliente_nome: 'é'.repeat(120) })).toEqual([]);
    expect(regras({ cliente_nome: 'a'.repeat(121) })).toEqual(['cliente_nome_tamanho']);
    expect(regras({ cliente_nome: '   ' })).toEqual(['cliente_nome_vazio']);
    expect(regras({ cliente_nome: 42 })).toEqual(['cliente_nome_texto']);
  });

  it('descricao ≤ 140 characters', () => {
    expect(regras({ descricao: 'x'.repeat(140) })).toEqual([]);
    expect(regras({ descricao: 'x'.repeat(141) })).toEqual(['descricao_tamanho']);
    expect(regras({ descricao: null })).toEqual([]);
  });

  it('vencimento: a real date, today or later', () => {
    expect(regras({ vencimento: TODAY })).toEqual([]);
    expect(regras({ vencimento: '2026-03-15' })).toEqual(['vencimento_passado']);
    expect(rules({ vencimento: '2026-03-15' })[0]!.mensagem).toBe(
      'O vencimento não pode ser uma data passada: 15/03/2026 já passou (hoje é 16/03/2026). Use hoje ou uma data futura.',
    );
    expect(regras({ vencimento: '2026-02-30' })).toEqual(['vencimento_invalido']);
    expect(regras({ vencimento: '2028-02-29' })).toEqual([]); // leap year
    expect(regras({ vencimento: '2027-02-29' })).toEqual(['vencimento_invalido']);
    expect(regras({ vencimento: '20/03/2026' })).toEqual(['vencimento_invalido']);
    expect(regras({ vencimento: '2026-3-20' })).toEqual(['vencimento_invalido']);
  });

  it('"today" is the São Paulo date, not UTC: 22:30 in São Paulo on the 16th is already the 17th in UTC', () => {
    const instant = new Date('2026-03-17T01:30:00Z');
    const spToday = localDate(instant, 'America/Sao_Paulo');
    expect(spToday).toBe('2026-03-16');
    expect(instant.toISOString().slice(0, 10)).toBe('2026-03-17');
    expect(chargeRules({ ...ok, vencimento: '2026-03-16' }, { today: spToday })).toEqual([]);
    // With the UTC date the same charge would be refused: the zone matters.
    expect(regras({ vencimento: '2026-03-16' }, '2026-03-17')).toEqual(['vencimento_passado']);
  });

  it('faltando: a field is listed if and only if it is null', () => {
    expect(regras({ metodo: null, parcelas: null, faltando: ['metodo', 'parcelas'] })).toEqual([]);
    expect(rules({ metodo: null, parcelas: 1 })).toEqual([
      {
        campo: 'faltando',
        regra: 'faltando_sem_campo_nulo',
        mensagem:
          'metodo está null mas não está em faltando. Se o texto não informa metodo, inclua "metodo" em faltando.',
      },
    ]);
    expect(regras({ faltando: ['cliente_nome'] })).toEqual(['faltando_com_valor']);
    // descricao is optional: null without faltando is fine
    expect(regras({ descricao: null })).toEqual([]);
  });

  it('faltando has no unknown names, no repeats, and is a list', () => {
    expect(regras({ faltando: ['descricao'] })).toEqual(['faltando_desconhecido']);
    expect(regras({ faltando: ['telefone'] })).toEqual(['faltando_desconhecido']);
    expect(regras({ metodo: null, parcelas: 1, faltando: ['metodo', 'metodo'] })).toEqual([
      'faltando_repetido',
    ]);
    expect(regras({ faltando: 'metodo' })).toEqual(['faltando_lista']);
  });

  it('all seven fields are required and no unknown field is accepted', () => {
    const { parcelas: _p, ...sem } = ok;
    expect(chargeRules(sem, { today: TODAY }).map((e) => e.regra)).toEqual(['campo_obrigatorio']);
    expect(regras({ telefone: '119999' })).toEqual(['campo_desconhecido']);
    expect(chargeRules('texto', { today: TODAY }).map((e) => e.regra)).toEqual(['objeto']);
    expect(chargeRules(null, { today: TODAY }).map((e) => e.regra)).toEqual(['objeto']);
    expect(chargeRules([ok], { today: TODAY }).map((e) => e.regra)).toEqual(['objeto']);
  });

  it('several errors are reported together', () => {
    expect(
      regras({ valor_centavos: 50, metodo: 'pix', parcelas: 3, vencimento: '2026-01-01' }),
    ).toEqual(['valor_faixa', 'parcelas_pix_boleto', 'vencimento_passado']);
  });
});

describe('the tool JSON schema comes from the same zod schema', () => {
  it('strict mode strips unsupported keywords but keeps types, enums and required', () => {
    const s = chargeTool({ strict: true }).input_schema;
    const text = JSON.stringify(s);
    for (const k of ['minimum', 'maximum', 'maxLength', 'pattern', '$schema']) {
      expect(text).not.toContain(`"${k}"`);
    }
    expect(s.required).toEqual([
      'valor_centavos',
      'parcelas',
      'metodo',
      'cliente_nome',
      'vencimento',
      'descricao',
      'faltando',
    ]);
    expect(s.additionalProperties).toBe(false);
    expect(text).toContain('"enum":["pix","boleto","cartao"]');
    expect(Object.keys(s.properties)).toEqual(Object.keys(cobrancaSchema.shape));
  });

  it('non-strict keeps the bounds, equal to the rules', () => {
    const s = chargeTool().input_schema;
    expect(JSON.stringify(s.properties.valor_centavos)).toContain('"minimum":100');
    expect(JSON.stringify(s.properties.valor_centavos)).toContain('"maximum":10000000');
    expect(JSON.stringify(s.properties.parcelas)).toContain('"maximum":12');
    expect(JSON.stringify(s.properties.cliente_nome)).toContain('"maxLength":120');
  });
});

// Generators of valid and arbitrary inputs for property tests.
const dateArb = fc
  .integer({ min: 0, max: 800 })
  .map((d) => new Date(Date.UTC(2026, 2, 16 + d)).toISOString().slice(0, 10));
const validArb = fc
  .record({
    valor_centavos: fc.option(fc.integer({ min: 100, max: 10_000_000 }), { nil: null }),
    metodo: fc.option(fc.constantFrom('pix' as const, 'boleto' as const, 'cartao' as const), {
      nil: null,
    }),
    parcelasCartao: fc.option(fc.integer({ min: 1, max: 12 }), { nil: null }),
    cliente_nome: fc.option(
      fc.string({ minLength: 1, maxLength: 120 }).filter((s) => s.trim() !== ''),
      { nil: null },
    ),
    vencimento: fc.option(dateArb, { nil: null }),
    descricao: fc.option(
      fc.string({ minLength: 1, maxLength: 140 }).filter((s) => s.trim() !== ''),
      { nil: null },
    ),
  })
  .map((r): DadosCobranca => {
    const parcelas = r.metodo === 'pix' || r.metodo === 'boleto' ? 1 : r.parcelasCartao;
    const d = {
      valor_centavos: r.valor_centavos,
      parcelas,
      metodo: r.metodo,
      cliente_nome: r.cliente_nome,
      vencimento: r.vencimento,
      descricao: r.descricao,
    };
    return { ...d, faltando: CAMPOS_FALTANTES.filter((f) => d[f] === null) };
  });

describe('properties', () => {
  it('every well-formed charge (faltando = its null fields) is valid and round-trips', () => {
    fc.assert(
      fc.property(validArb, (d) => {
        expect(chargeRules(d, { today: TODAY })).toEqual([]);
        expect(validateCharge(d, { today: TODAY })).toEqual({ ok: true, value: d });
      }),
    );
  });

  it('faltando ⇔ null: listing a non-null field or omitting a null one is always an error', () => {
    fc.assert(
      fc.property(validArb, fc.constantFrom(...CAMPOS_FALTANTES), (d, campo) => {
        const toggled = d.faltando.includes(campo)
          ? d.faltando.filter((f) => f !== campo)
          : [...d.faltando, campo];
        const errs = chargeRules({ ...d, faltando: toggled }, { today: TODAY });
        expect(errs.map((e) => e.regra)).toContain(
          d[campo] === null ? 'faltando_sem_campo_nulo' : 'faltando_com_valor',
        );
      }),
    );
  });

  it('rules and zod never disagree: no rule error ⇒ the zod schema accepts', () => {
    fc.assert(
      fc.property(
        fc.record({
          valor_centavos: fc.oneof(fc.constant(null), fc.integer(), fc.double(), fc.string()),
          parcelas: fc.oneof(fc.constant(null), fc.integer({ min: -2, max: 14 })),
          metodo: fc.oneof(fc.constant(null), fc.constantFrom('pix', 'boleto', 'cartao', 'x')),
          cliente_nome: fc.oneof(fc.constant(null), fc.string({ maxLength: 130 })),
          vencimento: fc.oneof(fc.constant(null), dateArb, fc.string({ maxLength: 12 })),
          descricao: fc.oneof(fc.constant(null), fc.string({ maxLength: 150 })),
          faltando: fc.array(fc.constantFrom(...CAMPOS_FALTANTES, 'x'), { maxLength: 6 }),
        }),
        (raw) => {
          const errs = chargeRules(raw, { today: TODAY });
          if (errs.length === 0) expect(cobrancaSchema.safeParse(raw).success).toBe(true);
          for (const e of errs) {
            expect(e.mensagem.length).toBeGreaterThan(10);
            expect(e.regra).not.toBe('formato'); // the hand-written rules caught it first
          }
        },
      ),
    );
  });
});

describe('projectDados (stored data of a falhou result)', () => {
  it('keeps values of the right type, drops the rest', () => {
    expect(
      projectDados({
        valor_centavos: 50,
        parcelas: '3',
        metodo: 'credito',
        cliente_nome: 'Ana',
        vencimento: '2026-01-01',
        faltando: ['parcelas', 'x', 'parcelas'],
        extra: 1,
      }),
    ).toEqual({
      valor_centavos: 50,
      parcelas: null,
      metodo: null,
      cliente_nome: 'Ana',
      vencimento: '2026-01-01',
      descricao: null,
      faltando: ['parcelas'],
    });
    expect(projectDados(null).faltando).toEqual([]);
  });
});
