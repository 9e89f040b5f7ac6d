/**
 * A wrong automatic charge corrected from the quality review (#39.4, last sentence): the charge
 * cancelled at the PSP by the charges' own cancel (`psp/admin.ts`, `PATCH /cob/{txid}`, audited
 * 'cobranca_cancelada'), then — in one transaction — the supervisor's judgement (some field
 * wrong, audited 'qualidade_julgada') and the item sent back to the queue by the queue's own
 * reopen (audited 'reaberta') for a person to redo it. The PSP call cannot share a transaction
 * with the database, so it goes first: when it fails, nothing is saved and the sample is still
 * there to try again; a run after a failure skips what was done (the charge already cancelled).
 */
import type { QualityCancelResult, QualityJudgeInput } from '@shared/contract/quality';
import { AppError } from '@shared/errors';
import type pg from 'pg';
import { query, withTransaction } from '../db/tx';
import { cancel, showEnvio } from '../psp/admin';
import type { DispatchDeps } from '../psp/dispatch';
import { reopenInTx } from '../queue/supervisor';
import { judgeInTx } from './review';

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
  // 1. The charge cancelled at the PSP and here (skipped when a run before did it).
  const envio = await showEnvio(pool, id);
  if (envio.estado !== 'cancelada') await cancel(dispatch, id, operador);
  // 2. The judgement and the item back in the queue, together (each skipped when already done).
  return withTransaction(pool, async (c) => {
    const [cur] = (
      await c.query<{ julgada_por: string | null; devolvida: boolean }>({
        text: `SELECT a.julgada_por, c.devolvida_em IS NOT NULL AS devolvida
                 FROM qualidade_amostras a JOIN cobrancas c ON c.id = a.cobranca_id
                WHERE a.cobranca_id = $1 FOR UPDATE OF a`,
        values: [id],
      })
    ).rows;
    const julgadaPor = cur?.julgada_por ?? (await judgeInTx(c, { ...input, operador })).julgadaPor;
    if (!cur?.devolvida) {
      await reopenInTx(c, {
        id: extracaoId,
        operador,
        motivo: MOTIVO_REFAZER,
        detalhes: { origem: 'revisao_qualidade', cobranca_id: id },
      });
    }
    return { cobrancaId: id, extracaoId, julgadaPor };
  });
}
