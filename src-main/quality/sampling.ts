import type { SqlParams } from '../db/sql-params';
import { DEFAULT_QUALITY_SAMPLING, type QualitySampling } from '../settings/quality-sampling';

/** The operator name of automatic creations (the intake's "sistema"). */
const SISTEMA = 'sistema';

/**
 * The CTEs that decide, in the statement that writes a charge (CTE `c`), whether it goes to the
 * quality review (#39.4):
 *   - `qs` reads the counter of the extraction's (model, prompt version) without a lock;
 *   - `qv` bumps it only while it is below `inicial` — the bump re-checks that on the locked row,
 *     whose lock orders the creators of the pair's first charges, so each of the first
 *     `inicial` gets its exact place, counted in the database and not in a process. Past them no
 *     creator writes or locks the row: a counter bumped by every creation was one hot row that
 *     every confirm of a team waited on (bench-fila, #39.1; migration 1110);
 *   - `qa` records the sample when the charge is one of the first `inicial` or when the charge
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
  return `qs AS (
             SELECT f.modelo, f.versao_prompt,
                    (SELECT v.criadas FROM qualidade_versoes v
                      WHERE v.modelo = f.modelo AND v.versao_prompt = f.versao_prompt) AS criadas
               FROM c, (SELECT coalesce(modelo, '') AS modelo, coalesce(versao_prompt, '') AS versao_prompt
                          FROM (${fonte}) f0) f),
           qv AS (
             INSERT INTO qualidade_versoes AS v (modelo, versao_prompt)
             SELECT modelo, versao_prompt FROM qs WHERE criadas IS NULL OR criadas < ${inicial}
             ON CONFLICT (modelo, versao_prompt) DO UPDATE SET criadas = v.criadas + 1
               WHERE v.criadas < ${inicial}
             RETURNING modelo, versao_prompt, criadas),
           qa AS (
             INSERT INTO qualidade_amostras (cobranca_id, extracao_id, modelo, versao_prompt,
               origem, ordem, motivo)
             SELECT c.id, c.extracao_id, qs.modelo, qs.versao_prompt, ${origem},
                    CASE WHEN qv.criadas <= ${inicial} THEN qv.criadas END,
                    CASE WHEN qv.criadas <= ${inicial} THEN 'inicial' ELSE 'sorteio' END
               FROM c CROSS JOIN qs LEFT JOIN qv ON true
              WHERE qv.criadas <= ${inicial} OR balcao_qualidade_sorteio(c.id) < ${limite})`;
}
