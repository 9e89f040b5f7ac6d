import { AppError } from '@shared/errors';
import type {
  Alerta,
  DadosCobranca,
  ExtractionStatus,
  RuleError,
  Uso,
} from '@shared/extraction-types';
import type pg from 'pg';
import { addCost, insertAttempts, roundOf, type AttemptRecord } from '../extraction/attempts';
import { promptVersion } from '../extraction/prompt-version';

/** One extraction run without storage (the queue stores it, with the lease and the audit). */
export interface RerunOutcome {
  status: ExtractionStatus;
  dados: DadosCobranca;
  erros: RuleError[];
  alertas: Alerta[];
  attempts: (AttemptRecord & { details: RuleError[] | undefined })[];
  uso: Uso;
  custo_estimado_usd: number | null;
  modelo: string;
  hoje: string;
  duracao_ms: number;
}

export interface RerunSource {
  texto: string;
  status: ExtractionStatus;
  tentativas: number;
  dados: DadosCobranca | null;
  erros: unknown;
  /** The merchant's answers of earlier rounds, in order. */
  respostas: string[];
  /** When the item was stored: the due-date check reads its text from then (#42.1). */
  chegada: Date;
}

export async function loadRerunSource(c: pg.PoolClient, id: number): Promise<RerunSource> {
  const r = await c.query<Omit<RerunSource, 'respostas'> & { rodadas: unknown }>({
    text: `SELECT texto, status, tentativas, dados, erros, rodadas, criada_em AS chegada
             FROM extracoes WHERE id = $1`,
    values: [id],
  });
  const row = r.rows[0];
  if (!row) throw new AppError('nao_encontrado', `Item ${id} não encontrado na fila.`);
  const rounds = Array.isArray(row.rodadas) ? (row.rodadas as { resposta?: unknown }[]) : [];
  return {
    texto: row.texto,
    status: row.status,
    tentativas: row.tentativas,
    dados: row.dados,
    erros: row.erros,
    respostas: rounds.flatMap((x) => (typeof x?.resposta === 'string' ? [x.resposta] : [])),
    chegada: row.chegada,
  };
}

const add = (a: Partial<Uso> | null | undefined, b: Uso): Uso => ({
  input_tokens: (a?.input_tokens ?? 0) + b.input_tokens,
  output_tokens: (a?.output_tokens ?? 0) + b.output_tokens,
  cache_read_input_tokens: (a?.cache_read_input_tokens ?? 0) + b.cache_read_input_tokens,
  cache_creation_input_tokens:
    (a?.cache_creation_input_tokens ?? 0) + b.cache_creation_input_tokens,
});

/**
 * Stores one more round of the extraction on the same item (the layout the extraction
 * uses for follow-ups): totals accumulate, the round joins `rodadas`, its attempts continue
 * the numbering with their round number. The item stays open with the agent; a draft from
 * before the re-run is dropped (the form starts from the new result).
 */
export async function storeRound(
  c: pg.PoolClient,
  id: number,
  o: RerunOutcome,
  resposta: string | null,
): Promise<number> {
  const cur = await c.query<{
    uso: Uso | null;
    custo_estimado_usd: number | null;
    rodadas: unknown[];
    max_numero: number;
    max_rodada: number;
  }>({
    text: `SELECT uso, custo_estimado_usd, rodadas,
                  t.max_numero, t.max_rodada
             FROM extracoes,
                  (SELECT coalesce(max(numero), 0)::int AS max_numero,
                          coalesce(max(rodada), 1)::int AS max_rodada
                     FROM extracao_tentativas WHERE extracao_id = $1) t
            WHERE id = $1`,
    values: [id],
  });
  const row = cur.rows[0];
  if (!row) throw new AppError('nao_encontrado', `Item ${id} não encontrado na fila.`);
  // Rounds are numbered by the attempts already stored (a first run may or may not have
  // written its round into `rodadas`).
  const rodada =
    Math.max(row.max_rodada, Array.isArray(row.rodadas) ? row.rodadas.length : 0, 1) + 1;
  const custo = addCost(row.custo_estimado_usd, o.custo_estimado_usd);
  await c.query({
    text: `UPDATE extracoes SET status = $2, dados = $3, erros = $4, alertas = $5,
             tentativas = tentativas + $6, modelo = $7, uso = $8, custo_estimado_usd = $9,
             duracao_ms = coalesce(duracao_ms, 0) + $10, hoje = $11, fila_estado = 'aberta',
             dados_revisados = NULL,
             rodadas = rodadas || jsonb_build_array($12::jsonb || jsonb_build_object('em', now())),
             versao_prompt = $13, atualizada_em = now()
           WHERE id = $1`,
    values: [
      id,
      o.status,
      JSON.stringify(o.dados),
      JSON.stringify(o.erros),
      JSON.stringify(o.alertas),
      o.attempts.length,
      o.modelo,
      JSON.stringify(add(row.uso, o.uso)),
      custo,
      o.duracao_ms,
      o.hoje,
      JSON.stringify(roundOf(o, rodada, resposta)),
      promptVersion(),
    ],
  });
  await insertAttempts(c, id, o.attempts, row.max_numero + 1, rodada);
  return rodada;
}
