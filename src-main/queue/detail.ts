import type { AttemptView, AuditEntry, Charge, ExtractionDetail } from '@shared/contract/review';
import { AppError } from '@shared/errors';
import type { DadosCobranca, RuleError, Uso } from '@shared/extraction-types';
import type pg from 'pg';
import type { ModelPrice } from '../settings/types';
import { questionFor } from '@shared/question';
import { CHARGE_COLS, ITEM_COLS, toCharge, toItem, type ChargeRow, type ItemRow } from './rows';
import { query } from '../db/tx';
import { estimateCostUsd } from '../llm/usage';
import { changedChargeFields } from '@shared/charge';

const ZERO_USO: Uso = {
  input_tokens: 0,
  output_tokens: 0,
  cache_read_input_tokens: 0,
  cache_creation_input_tokens: 0,
};

/** Fields of the seven that differ between two versions. */
export const changedFields = changedChargeFields;

interface DetailRow extends ItemRow {
  dados_revisados: DadosCobranca | null;
  modelo: string | null;
  uso: Uso | null;
  custo_estimado_usd: number | null;
  hoje: string | null;
  lease_expira_em_ativa: Date | null;
  rodadas: unknown;
}

interface AttemptRow {
  numero: number;
  rodada: number;
  entrada: DadosCobranca | null;
  erros: RuleError[];
  uso: Uso;
  stop_reason: string | null;
  duracao_ms: number | null;
  criada_em: Date;
}

interface AuditRow {
  id: number;
  ocorrido_em: Date;
  operador: string;
  acao: string;
  antes: unknown;
  depois: unknown;
  detalhes: Record<string, unknown>;
}

/** Everything the item view shows: the row, its attempts, its audit trail, its charge. */
export async function getExtraction(
  db: pg.Pool | pg.PoolClient,
  id: number,
  prices: Record<string, ModelPrice>,
): Promise<ExtractionDetail> {
  // The row, its attempts, its audit trail and its charge in ONE statement: one round trip and
  // one turn on the server connection (through PgBouncer a desktop has one; four statements
  // queued there one after another). The three lists come as JSON, their instants as text.
  const rows = await query<
    DetailRow & {
      tentativas_j: (Omit<AttemptRow, 'criada_em'> & { criada_em: string })[];
      auditoria_j: (Omit<AuditRow, 'ocorrido_em'> & { ocorrido_em: string })[];
      cobranca_j: (Omit<ChargeRow, 'criada_em'> & { criada_em: string }) | null;
    }
  >(
    db,
    `SELECT ${ITEM_COLS}, e.dados_revisados, e.modelo, e.uso, e.custo_estimado_usd, e.hoje,
            CASE WHEN e.lease_expira_em > now() THEN e.lease_expira_em END AS lease_expira_em_ativa,
            e.rodadas,
            (SELECT coalesce(json_agg(t ORDER BY t.numero), '[]'::json)
               FROM (SELECT numero, rodada, entrada, erros, uso, stop_reason, duracao_ms, criada_em
                       FROM extracao_tentativas WHERE extracao_id = e.id) t) AS tentativas_j,
            (SELECT coalesce(json_agg(a ORDER BY a.ocorrido_em, a.id), '[]'::json)
               FROM (SELECT id, ocorrido_em, operador, acao, antes, depois, detalhes
                       FROM auditoria WHERE extracao_id = e.id) a) AS auditoria_j,
            -- The charge that stands for the item (one sent back to the queue stays in the audit).
            (SELECT row_to_json(x)
               FROM (SELECT ${CHARGE_COLS} FROM cobrancas c JOIN merchants m ON m.id = c.merchant_id
                      WHERE c.extracao_id = e.id AND c.devolvida_em IS NULL) x) AS cobranca_j
       FROM extracoes e JOIN merchants m ON m.id = e.merchant_id WHERE e.id = $1`,
    [id],
  );
  const row = rows[0];
  if (!row) throw new AppError('nao_encontrado', `Item ${id} não encontrado na fila.`);
  const attempts: AttemptRow[] = row.tentativas_j.map((a) => ({
    ...a,
    criada_em: new Date(a.criada_em),
  }));
  const audit: AuditRow[] = row.auditoria_j.map((a) => ({
    ...a,
    ocorrido_em: new Date(a.ocorrido_em),
  }));
  const charges: ChargeRow[] = row.cobranca_j
    ? [{ ...row.cobranca_j, criada_em: new Date(row.cobranca_j.criada_em) }]
    : [];
  const timeline: AttemptView[] = attempts.map((a, i) => {
    const prev = i > 0 ? attempts[i - 1] : undefined;
    return {
      numero: a.numero,
      rodada: a.rodada,
      entrada: a.entrada,
      erros: Array.isArray(a.erros) ? a.erros : [],
      uso: { ...ZERO_USO, ...a.uso },
      custoUsd: row.modelo
        ? (estimateCostUsd({ ...ZERO_USO, ...a.uso }, row.modelo, prices) ?? 0)
        : 0,
      stopReason: a.stop_reason,
      duracaoMs: a.duracao_ms,
      criadaEm: a.criada_em.toISOString(),
      mudancas: prev ? changedFields(prev.entrada, a.entrada) : [],
    };
  });
  const eventos: AuditEntry[] = audit.map((a) => ({
    id: a.id,
    ocorridoEm: a.ocorrido_em.toISOString(),
    operador: a.operador,
    acao: a.acao,
    antes: a.antes,
    depois: a.depois,
    detalhes: a.detalhes,
  }));
  const current = row.dados_revisados ?? row.dados;
  const charge: Charge | null = charges[0] ? toCharge(charges[0]) : null;
  return {
    ...toItem(row),
    dados: row.dados,
    dadosRevisados: row.dados_revisados,
    erros: Array.isArray(row.erros) ? row.erros : [],
    modelo: row.modelo,
    uso: row.uso,
    custoUsd: row.custo_estimado_usd,
    hoje: row.hoje,
    tentativasDetalhe: timeline,
    respostas: roundsOf(row.rodadas),
    eventos,
    pergunta: questionFor(current?.faltando ?? []),
    leaseExpiraEm: row.lease_expira_em_ativa ? row.lease_expira_em_ativa.toISOString() : null,
    cobranca: charge,
    descarte: row.descarte_motivo
      ? { motivo: row.descarte_motivo, detalhe: row.descarte_detalhe, por: row.resolvida_por }
      : null,
  };
}

/** Rounds after the first, from `extracoes.rodadas` (written by the extraction and by re-runs). */
function roundsOf(v: unknown): { rodada: number; resposta: string | null }[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((r: { rodada?: unknown; resposta?: unknown }) =>
    typeof r?.rodada === 'number' && r.rodada > 1
      ? [{ rodada: r.rodada, resposta: typeof r.resposta === 'string' ? r.resposta : null }]
      : [],
  );
}
