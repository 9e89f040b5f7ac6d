import { describe, expect, it } from 'vitest';
import { chargeRules } from '@shared/charge';
import { agentText, ruleLabel } from '@shared/rule-text';

const base = {
  valor_centavos: 15000,
  parcelas: 1,
  metodo: 'pix',
  cliente_nome: 'Ana',
  vencimento: '2026-12-20',
  descricao: null,
  faltando: ['descricao'],
};
const today = '2026-11-30';
const errorsOf = (d: Record<string, unknown>) => chargeRules({ ...base, ...d }, { today });

describe('agent-facing rule texts', () => {
  it('the amount range: money as money, no hint meant for the model, R$ glued to its number', () => {
    const [e] = errorsOf({ valor_centavos: 50 });
    expect(e!.mensagem).toContain('Lembre: 150 reais = 15000');
    const t = agentText(e!);
    expect(t).toBe(
      'O valor deve ficar entre R$\u00a01,00 e R$\u00a0100.000,00; recebido R$\u00a00,50.',
    );
    expect(t).not.toMatch(/Lembre|centavos|valor_centavos/);
    expect(ruleLabel(e!.regra)).toBe('Valor fora da faixa aceita');
  });

  it('no field identifier or rule code reaches an agent', () => {
    const cases: Record<string, unknown>[] = [
      { valor_centavos: 1.5 },
      { parcelas: 20, metodo: 'cartao' },
      { parcelas: 3 },
      { metodo: 'cheque' },
      { cliente_nome: '  ' },
      { vencimento: '2026-11-01' },
      { vencimento: '31/12/2026' },
      { cliente_nome: null, faltando: ['descricao'] },
      { faltando: ['descricao', 'cliente_nome'] },
      { faltando: 'x' },
      { extra: 1 },
    ];
    for (const c of cases) {
      const errs = errorsOf(c);
      expect(errs.length, JSON.stringify(c)).toBeGreaterThan(0);
      for (const e of errs) {
        const t = agentText(e);
        expect(t, e.regra).not.toMatch(/valor_centavos|cliente_nome|\bnull\b|AAAA-MM-DD|Lembre|_/);
        expect(ruleLabel(e.regra), e.regra).not.toContain('_');
      }
    }
    expect(agentText(errorsOf({ vencimento: '2026-11-01' })[0]!)).toBe(
      'O vencimento 01/11/2026 já passou (hoje é 30/11/2026).',
    );
    expect(
      agentText(
        errorsOf({ cliente_nome: null }).find((e) => e.regra === 'faltando_sem_campo_nulo')!,
      ),
    ).toBe('O campo Cliente veio vazio sem estar marcado como faltando.');
  });
});

describe('codes people never read (#42.6)', () => {
  it('every rule code the rules, the queue and intake write has a name for people', async () => {
    const { RULE_LABEL } = await import('@shared/rule-text');
    const written = [
      ...Object.keys(RULE_LABEL),
      // Written outside chargeRules: the queue's "required to create" and intake's model failure.
      'obrigatorio_para_criar',
      'modelo',
      // The per-field rules of the text fields (charge-schema.ts).
      ...['cliente_nome', 'descricao'].flatMap((c) => [`${c}_texto`, `${c}_vazio`, `${c}_tamanho`]),
    ];
    for (const code of written) {
      expect(RULE_LABEL[code], code).toBeTruthy();
      expect(ruleLabel(code)).not.toMatch(/_/);
    }
  });

  it('every error code has a title in words, and no title is a code', async () => {
    const { ERROR_CODES, ERROR_TITLES } = await import('@shared/errors');
    for (const code of ERROR_CODES) {
      expect(ERROR_TITLES[code], code).toMatch(/^[A-ZÀ-Ú][^_]*$/);
    }
  });
});
