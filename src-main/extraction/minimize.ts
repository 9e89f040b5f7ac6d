/**
 * LGPD minimisation around the model (#38.1): the merchant's texts go out with placeholders
 * (`[CPF_1]`…, src-shared/pii.ts) and what the model answers is restored from the map before our
 * rules see it, so a field gets the real value. Card numbers are never restored (never stored);
 * the errors sent back to the model and kept on the attempts are minimised again.
 */
import { createPiiMinimizer, minimizeDeep, type PiiMinimizer } from '@shared/pii';
import type { Validation } from '../llm/tool-loop';

export interface ForModel {
  pii: PiiMinimizer;
  /** The texts as the model sees them. */
  texto: string;
  respostas: string[];
  /** A model answer with its placeholders restored (card numbers stay placeholders). */
  restore<T>(value: T): T;
  /** `validate` on the restored answer; its errors minimised for the model and the attempts. */
  validate<T, D>(
    validate: (input: unknown) => Validation<T, D>,
  ): (input: unknown) => Validation<T, D>;
}

export function forModel(texto: string, respostas: readonly string[]): ForModel {
  const pii = createPiiMinimizer();
  const restore = <T>(value: T): T => pii.restore(value, { except: ['CARTAO'] });
  return {
    pii,
    texto: pii.minimize(texto),
    respostas: respostas.map((r) => pii.minimize(r)),
    restore,
    validate:
      <T, D>(validate: (input: unknown) => Validation<T, D>) =>
      (input: unknown): Validation<T, D> => {
        const v = validate(restore(input));
        if (v.ok) return v;
        const errors = v.errors.map((e) => pii.minimize(e));
        return v.details === undefined
          ? { ok: false, errors }
          : { ok: false, errors, details: minimizeDeep(v.details, pii) };
      },
  };
}
