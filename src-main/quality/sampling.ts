import type { SqlParams } from '../db/sql-params';
import { DEFAULT_QUALITY_SAMPLING, type QualitySampling } from '../settings/quality-sampling';

/** The operator name of automatic creations (the intake's "sistema"). */
const SISTEMA = 'sistema';

/**
 * The CTEs that decide, in the statement that writes a charge (CTE `c`), whether it goes to the
 * quality review (#39.4):
 *   - `qv` bumps the counter of the extraction's (model, prompt version) — its row lock orders
 *     concurrent creators, so each charge gets its exact place among the pair's charges, counted
 *     in the database and not in a process;
 *   - `qa` records the sample when that place is within the first `inicial` or when the charge
 *     id's draw (`balcao_qualidade_sorteio`, the same as `qualityDraw`) falls below the share.
 * No charge (`c` empty: it already existed) → nothing counted, nothing sampled.
 * `versaoDe` names a CTE with `modelo, versao_prompt` of an extraction written by the same
 * statement; without it they are read from `extracoes` by `extracaoId`.
 */
export function samplingCtes(
  p: SqlParams,
  x: {
    extracaoId: string;
    operador: string;
    amostra?: QualitySampling | undefined;
    versaoDe?: string | undefined;
  },
): string {
  const cfg = x.amostra ?? DEFAULT_QUALITY_SAMPLING;
  const inicial = p.add(cfg.inicial, '::bigint');
  const limite = p.add(Math.round(cfg.percentual * 100), '::int');
  const origem = p.add(x.operador === SISTEMA ? 'automatica' : 'agente', '::text');
  const fonte = x.versaoDe
    ? `SELECT modelo, versao_prompt FROM ${x.versaoDe}`
    : `SELECT modelo, versao_prompt FROM extracoes WHERE id = ${x.extracaoId}`;
  return `qv AS (
             INSERT INTO qualidade_versoes AS v (modelo, versao_prompt)
             SELECT coalesce(f.modelo, ''), coalesce(f.versao_prompt, '') FROM c, (${fonte}) f
             ON CONFLICT (modelo, versao_prompt) DO UPDATE SET criadas = v.criadas + 1
             RETURNING modelo, versao_prompt, criadas),
           qa AS (
             INSERT INTO qualidade_amostras (cobranca_id, extracao_id, modelo, versao_prompt,
               origem, ordem, motivo)
             SELECT c.id, c.extracao_id, qv.modelo, qv.versao_prompt, ${origem}, qv.criadas,
                    CASE WHEN qv.criadas <= ${inicial} THEN 'inicial' ELSE 'sorteio' END
               FROM c, qv
              WHERE qv.criadas <= ${inicial} OR balcao_qualidade_sorteio(c.id) < ${limite})`;
}
