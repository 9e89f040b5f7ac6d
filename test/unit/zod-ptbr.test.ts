/** #41.7 — zod speaks Brazilian Portuguese wherever a schema has no message of its own. */
import { describe, expect, it } from 'vitest';
import { z } from '../../src-shared/zod';

const first = (schema: z.ZodType, value: unknown) => {
  const r = schema.safeParse(value);
  expect(r.success).toBe(false);
  return r.error!.issues[0]!.message;
};

describe('pt-BR zod messages', () => {
  it('numbers, texts, lists, choices, missing and unknown fields', () => {
    expect(first(z.number().int().max(100), 101)).toBe('Use no máximo 100.');
    expect(first(z.number().min(1), 0)).toBe('Use no mínimo 1.');
    expect(first(z.number().max(100_000), 200_000)).toBe('Use no máximo 100.000.');
    expect(first(z.string().max(5), 'abcdefg')).toBe('Use até 5 caracteres.');
    expect(first(z.string().min(1), '')).toBe('Não pode ficar vazio.');
    expect(first(z.array(z.number()).max(1), [1, 2])).toBe('Use até 1 item.');
    expect(first(z.enum(['pix', 'boleto']), 'cheque')).toBe(
      'Valor inválido: use um de: pix, boleto.',
    );
    expect(first(z.object({ a: z.number() }), {})).toBe('Campo obrigatório.');
    expect(first(z.number(), 'x')).toBe('Tipo inválido: use um número.');
    expect(first(z.object({}).strict(), { merchnt: 1 })).toBe('Campo não reconhecido: merchnt.');
  });

  it('never European Portuguese', () => {
    const texts = [
      first(z.number().max(1), 2),
      first(z.array(z.string()).min(2), ['a']),
      first(z.string().email(), 'x'),
    ];
    for (const t of texts) expect(t).not.toMatch(/Demasiado|ficheiro|registo|tuplo|esperava/);
  });

  it("a schema's own message wins", () => {
    expect(first(z.number().max(3, 'No máximo 3 parcelas.'), 4)).toBe('No máximo 3 parcelas.');
  });
});
