/**
 * #42.1 — `balcao fila confirmar` on an item whose text names another due date: the question
 * says what the text names and the charge's date, and the yes confirms that date explicitly
 * (the service refuses a charge whose differing date nobody confirmed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dueDateAlert } from '../../src-shared/due-dates';
import { cliEnv, runCliAnswering } from '../support/cli';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { dados, ensureMerchants, insertExtraction } from '../support/queue-fixtures';

let db: TestDatabase;
const TEXTO = 'manda um pix de 150 reais pro João Silva, vence dia 20';
const VENCIMENTO = '2027-01-15';

beforeAll(async () => {
  db = await createTestDatabase();
  await ensureMerchants(db.admin, { 1: 'Padaria Central' });
});
afterAll(async () => {
  await db.drop();
});

const fila = (args: string[], answer: boolean) =>
  runCliAnswering(
    ['fila', ...args],
    cliEnv(db, { BALCAO_OPERATOR: 'Carla (terminal)', BALCAO_TIME_ZONE: 'America/Sao_Paulo' }),
    answer,
  );

async function item(): Promise<number> {
  // Arrived Sunday 06/12/2026: "dia 20" is 20/12/2026; the model wrote 15/01/2027.
  const alert = dueDateAlert(
    [{ texto: TEXTO, chegada: new Date('2026-12-06T13:00:00Z') }],
    VENCIMENTO,
  );
  if (!alert) throw new Error('o texto deveria divergir');
  return insertExtraction(db.admin, {
    merchantId: 1,
    status: 'completo',
    texto: TEXTO,
    dados: dados({ metodo: 'pix', parcelas: 1, vencimento: VENCIMENTO }),
    alertas: [alert],
  });
}

const charges = async (id: number) =>
  (
    await db.admin.query<{ vencimento: string }>(
      'SELECT vencimento::text FROM cobrancas WHERE extracao_id = $1',
      [id],
    )
  ).rows;

describe('balcao fila confirmar and the due date the text names (#42.1)', () => {
  it('the question names the text’s phrase and both dates; yes creates the charge with the confirmed date', async () => {
    const id = await item();
    const no = await fila(['confirmar', String(id)], false);
    expect(no.code).toBe(1);
    expect(no.asked).toHaveLength(1);
    expect(no.asked[0]).toBe(
      'Atenção: O vencimento 15/01/2027 não é o que a mensagem diz («dia 20» → 20/12/2026). Confirme esse vencimento para criar a cobrança.\n' +
        'Criar a cobrança de R$\u00a0150,00 no Pix · João Silva · vence sex., 15/01/2027 — lojista Padaria Central (#1)?',
    );
    expect(await charges(id)).toEqual([]);

    const yes = await fila(['confirmar', String(id)], true);
    expect(yes.code).toBe(0);
    expect(await charges(id)).toEqual([{ vencimento: VENCIMENTO }]);
  });
});
