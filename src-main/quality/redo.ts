/**
 * A wrong automatic charge corrected from the quality review (#39.4, last sentence): the
 * supervisor's judgement (some field wrong), the charge cancelled at the PSP by the charges' own
 * cancel (`psp/admin.ts`, `PATCH /cob/{txid}`, audited 'cobranca_cancelada') and the item sent
 * back to the queue by the queue's own reopen (audited 'reaberta') for a person to redo it. The
 * PSP call cannot share a transaction with the database, so each step is its own and the whole
 * is safe to run again: a step already done is not done twice.
 */
import type { QualityCancelResult, QualityJudgeInput } from '@shared/contract/quality';
import { AppError } from '@shared/errors';
import type pg from 'pg';
import { query, withTransaction } from '../db/tx';
import { cancel, showEnvio } from '../psp/admin';
import type { DispatchDeps } from '../psp/dispatch';
import { reopenInTx } from '../queue/supervisor';
import { judgeSample } from './review';

export const MOTIVO_REFAZER = 'Cobrança automática errada, cancelada na revisão de qualidade.';

export async function cancelWrongCharge(
  dispatch: DispatchDeps,
  input: QualityJudgeInput,
  operador: string,
): Promise<QualityCancelResult> {
  const pool: pg.Pool = dispatch.pool;
  const id = input.cobrancaId;
  const [amostra] = await query<{
    origem: string;
    extracao_id: string;
    julgada_por: string | null;
  }>(
    pool,
    'SELECT origem, extracao_id, julgada_por FROM qualidade_amostras WHERE cobranca_id = $1',
    [id],
  );
  if (!amostra) {
    throw new AppError(
      'nao_encontrado',
      `A cobrança ${id} não está entre as amostras de qualidade.`,
    );
  }
  if (amostra.origem !== 'automatica') {
    throw new AppError(
      'conflito',
      `A cobrança ${id} foi confirmada por um agente: daqui só se cancela uma cobrança criada automaticamente (as outras, em Cobranças).`,
    );
  }
  const extracaoId = Number(amostra.extracao_id);
  // 1. The judgement, unless it was saved already (by this supervisor's earlier try or another).
  const julgadaPor =
    amostra.julgada_por ?? (await judgeSample(pool, { ...input, operador })).julgadaPor;
  // 2. The charge cancelled at the PSP and here (skipped when a try before did it).
  const envio = await showEnvio(pool, id);
  if (envio.estado !== 'cancelada') await cancel(dispatch, id, operador);
  // 3. The item back in the queue, unless it already is.
  await withTransaction(pool, async (c) => {
    const [cur] = (
      await c.query<{ fila_estado: string; devolvida: boolean }>({
        text: `SELECT e.fila_estado, c.devolvida_em IS NOT NULL AS devolvida
                 FROM extracoes e JOIN cobrancas c ON c.id = $2 WHERE e.id = $1`,
        values: [extracaoId, id],
      })
    ).rows;
    if (cur?.devolvida) return;
    await reopenInTx(c, {
      id: extracaoId,
      operador,
      motivo: MOTIVO_REFAZER,
      detalhes: { origem: 'revisao_qualidade', cobranca_id: id },
    });
  });
  return { cobrancaId: id, extracaoId, julgadaPor };
}
