/** The charge the tests' standard message asks for, and that message. */
import type { DadosCobranca } from '../../src-shared/extraction-types';

/** The standard merchant message: 150 reais for João Silva, card in 3 instalments, due Friday. */
export const CHARGE_TEXT = 'manda um link de 150 reais pro João Silva no cartão em 3x, vence sexta';

/**
 * The complete charge of CHARGE_TEXT on Monday 16/03/2026 (due Friday 20/03/2026, nothing
 * missing), with `patch` over it.
 */
export function chargeData(patch: Partial<DadosCobranca> = {}): DadosCobranca {
  return {
    valor_centavos: 15000,
    parcelas: 3,
    metodo: 'cartao',
    cliente_nome: 'João Silva',
    vencimento: '2026-03-20',
    descricao: null,
    faltando: [],
    ...patch,
  };
}
