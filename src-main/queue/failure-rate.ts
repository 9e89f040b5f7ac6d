import type pg from 'pg';
import { query } from '../db/tx';

/**
 * The validation-failure rate of extractions created since `fromSql` (an SQL expression): the
 * share that ended `falhou`. One computation for `balcao fila status` and the team panel, each
 * compared with BALCAO_ALERTA_FALHAS_VALIDACAO.
 */
export async function validationFailureRate(
  pool: pg.Pool,
  fromSql: string,
  values: unknown[] = [],
): Promise<{ extracoes: number; falhou: number; taxa: number }> {
  const [r] = await query<{ n: number; falhou: number }>(
    pool,
    `SELECT count(*)::int AS n, count(*) FILTER (WHERE status = 'falhou')::int AS falhou
       FROM extracoes WHERE criada_em >= ${fromSql}`,
    values,
  );
  const n = r?.n ?? 0;
  const falhou = r?.falhou ?? 0;
  return { extracoes: n, falhou, taxa: n ? falhou / n : 0 };
}

/** The alert as both views show it: above the threshold (a %), with at least one extraction. */
export function failureAlert(
  rate: { extracoes: number; falhou: number; taxa: number },
  limitePct: number,
) {
  const limite = limitePct / 100;
  return { ...rate, limite, alerta: rate.extracoes > 0 && rate.taxa > limite };
}
