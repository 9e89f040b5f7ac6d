import type pg from 'pg';

/** What agents do in the queue; stored in `auditoria.acao`. */
export type AuditAction =
  | 'assumiu'
  | 'liberou'
  | 'rascunho_salvo'
  | 'cobranca_criada'
  /** A merchant's WhatsApp number registered or removed (#37; detalhes: merchant). */
  | 'contato_whatsapp_adicionado'
  | 'contato_whatsapp_removido'
  /** A question that could not reach the merchant: the item is back in the queue (#37). */
  | 'pergunta_nao_enviada'
  | 'pergunta_ao_lojista'
  | 'resposta_registrada'
  | 'reprocessada'
  | 'descartada'
  | 'extracao_complementada'
  /** A supervisor took over another person's live lease (detalhes: who had it). */
  | 'assumiu_de'
  /** A supervisor reopened a discarded item (undo). */
  | 'reaberta'
  /** A charge removed at the PSP (#36). */
  | 'cobranca_cancelada'
  /** A charge sent to the PSP again after a failure (#36). */
  | 'cobranca_reenviada'
  /** A merchant's Pix key set or changed (#36). */
  | 'chave_pix_alterada'
  /** A supervisor's judgement of a quality sample, field by field (#39.4). */
  | 'qualidade_julgada'
  /** A supervisor assigned an open item to a person (#39.5; detalhes: em_lote). */
  | 'atribuida';

export interface AuditRecord {
  operador: string;
  acao: AuditAction;
  extracaoId: number | null;
  antes?: unknown;
  depois?: unknown;
  detalhes?: Record<string, unknown>;
}

/** The audit log's columns as every writer lists them (here, and the one-statement writers). */
export const AUDIT_COLS = 'operador, acao, extracao_id, antes, depois, detalhes';

/**
 * Appends one entry to the append-only audit log. Always called with the client of the
 * transaction that makes the change, so the change and its record commit (or vanish) together.
 */
export async function writeAudit(c: pg.PoolClient, r: AuditRecord): Promise<number> {
  const res = await c.query<{ id: number }>({
    text: `INSERT INTO auditoria (${AUDIT_COLS}) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    values: [
      r.operador,
      r.acao,
      r.extracaoId,
      r.antes === undefined ? null : JSON.stringify(r.antes),
      r.depois === undefined ? null : JSON.stringify(r.depois),
      JSON.stringify(r.detalhes ?? {}),
    ],
  });
  return res.rows[0]!.id;
}
