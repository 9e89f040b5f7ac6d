import { AppError } from '@shared/errors';
import type { DadosCobranca, ExtractionStatus, FilaEstado, Uso } from '@shared/extraction-types';
import { sanitizeText } from '@shared/text';
import type pg from 'pg';
import { mapDbError } from '../db/errors';
import { SqlParams } from '../db/sql-params';
import { query, withTransaction } from '../db/tx';
import { sumUso, toUso } from '../llm/usage';
import {
  addCost,
  ATTEMPT_COLS,
  ATTEMPT_ROWS,
  attemptsJson,
  insertAttempts,
  json,
  roundOf,
  type Rodada,
} from './attempts';
import type { ExtractionOutcome } from './outcome';
import { promptVersion } from './prompt-version';

export type { Rodada } from './attempts';

/** The merchant must exist before we spend tokens on its text. */
export async function ensureMerchant(pool: pg.Pool, merchantId: number): Promise<void> {
  // A read: retried once on a fresh connection when the connection is lost (db/tx `query`).
  const found =
    (await query(pool, 'SELECT 1 FROM merchants WHERE id = $1', [merchantId])).length > 0;
  if (!found) {
    throw new AppError(
      'nao_encontrado',
      `Lojista ${merchantId} não encontrado. Use o id de um lojista cadastrado (--merchant N).`,
    );
  }
}

/** Stores a new extraction and its attempts in one transaction; returns its id. */
export async function saveNewExtraction(
  pool: pg.Pool,
  input: { merchantId: number; texto: string; outcome: ExtractionOutcome; chaveLote?: string },
): Promise<number> {
  return withTransaction(pool, (c) => insertExtraction(c, input));
}

/**
 * An outcome's result as both statements list it: status, dados, erros, alertas, the attempts'
 * count (new tentativas) and the model.
 */
function resultValues(o: ExtractionOutcome): unknown[] {
  return [o.status, json(o.dados), json(o.erros), json(o.alertas), o.attempts.length, o.modelo];
}

/** What a new extraction row is written from. */
export interface NewExtraction {
  merchantId: number;
  texto: string;
  outcome: ExtractionOutcome;
  /** Overrides the outcome's queue state (the intake decides where an item goes). */
  filaEstado?: string;
  chaveLote?: string;
  /** Inserted already resolved, as the queue's resolution writes it (the intake's own charge). */
  resolvida?: { por: string; dados: DadosCobranca };
}

/**
 * The CTEs that insert a new extraction (`e`, whose `id` the rest of the statement may use as
 * `(SELECT id FROM e)`) and its attempts (`t`), for a statement other modules add to (the
 * intake writes its whole outcome in one).
 */
export function extractionCtes(p: SqlParams, input: NewExtraction): string {
  const o = input.outcome;
  const r = input.resolvida;
  const por = p.add(r ? r.por : null, '::text');
  const tentativas = ATTEMPT_ROWS({
    extracaoId: '(SELECT id FROM e)',
    tentativas: p.add(attemptsJson(o.attempts)),
    primeiro: '1',
    rodada: '1',
    criadaEm: 'NULL',
  });
  return `e AS (
             INSERT INTO extracoes (merchant_id, texto, status, dados, erros, alertas, tentativas,
               modelo, uso, custo_estimado_usd, duracao_ms, hoje, fila_estado, rodadas, chave_lote,
               dados_revisados, resolvida_por, resolvida_em, resolvida_por_login, versao_prompt)
             VALUES (${[
               input.merchantId,
               sanitizeText(input.texto),
               ...resultValues(o),
               json(o.uso),
               o.custo_estimado_usd,
               o.duracao_ms,
               o.hoje,
               r ? 'resolvida' : (input.filaEstado ?? o.fila_estado),
             ]
               .map((v) => p.add(v))
               .join(', ')},
               jsonb_build_array(${p.add(json(roundOf(o, 1, null)), '::jsonb')} || jsonb_build_object('em', now())),
               ${p.add(input.chaveLote ?? null)}, ${p.add(r ? json(r.dados) : null, '::jsonb')}, ${por},
               CASE WHEN ${por} IS NOT NULL THEN now() END,
               CASE WHEN ${por} IS NOT NULL THEN session_user END, ${p.add(promptVersion())})
             RETURNING id, modelo, versao_prompt),
           t AS (INSERT INTO extracao_tentativas (${ATTEMPT_COLS}) ${tentativas})`;
}

/**
 * Inserts a new extraction and its attempts inside the caller's transaction, in one statement;
 * returns its id. `resolvida` inserts it already resolved — one write of the row instead of an
 * insert and an update.
 */
export async function insertExtraction(c: pg.PoolClient, input: NewExtraction): Promise<number> {
  const p = new SqlParams();
  const res = await c.query<{ id: number }>({
    text: `WITH ${extractionCtes(p, input)} SELECT id FROM e`,
    values: p.values,
  });
  const id = res.rows[0]?.id;
  if (id === undefined) throw new AppError('interno', 'A extração não foi gravada.');
  return id;
}

export interface FollowUpSource {
  id: number;
  merchantId: number;
  texto: string;
  respostas: string[];
  rodadas: number;
  atualizadaEm: string;
}

interface FollowUpRow {
  id: number;
  merchant_id: number;
  texto: string;
  status: ExtractionStatus;
  fila_estado: FilaEstado;
  rodadas: Rodada[];
  atualizada_em: Date;
}

const FOLLOW_UP_COLS = 'id, merchant_id, texto, status, fila_estado, rodadas, atualizada_em';

function checkFollowUp(row: FollowUpRow | undefined, id: number): FollowUpRow {
  if (!row) throw new AppError('nao_encontrado', `Extração ${id} não encontrada.`);
  if (row.status !== 'incompleto') {
    throw new AppError(
      'conflito',
      `A extração ${id} está "${row.status}"; só extrações incompletas recebem a resposta do lojista.`,
    );
  }
  if (row.fila_estado !== 'aberta') {
    throw new AppError(
      'conflito',
      `A extração ${id} já saiu da fila (${row.fila_estado}); não recebe mais complemento.`,
    );
  }
  return row;
}

/** The original text and earlier answers of an `incompleto` extraction still in the queue. */
export async function loadForFollowUp(pool: pg.Pool, id: number): Promise<FollowUpSource> {
  let row: FollowUpRow | undefined;
  try {
    const r = await pool.query<FollowUpRow>({
      text: `SELECT ${FOLLOW_UP_COLS} FROM extracoes WHERE id = $1`,
      values: [id],
    });
    row = r.rows[0];
  } catch (e) {
    throw mapDbError(e);
  }
  const ok = checkFollowUp(row, id);
  return {
    id: ok.id,
    merchantId: ok.merchant_id,
    texto: ok.texto,
    respostas: ok.rodadas.flatMap((r) => (r.resposta ? [r.resposta] : [])),
    rodadas: Math.max(1, ok.rodadas.length),
    atualizadaEm: ok.atualizada_em.toISOString(),
  };
}

/**
 * Stores a follow-up round on the same row: totals accumulate (attempts, usage, cost, time),
 * the round joins `rodadas`, its attempts continue the numbering, and the audit log records
 * before/after. Refuses when the item changed meanwhile.
 */
export async function saveFollowUp(
  pool: pg.Pool,
  input: { prev: FollowUpSource; resposta: string; outcome: ExtractionOutcome; operator: string },
): Promise<number> {
  const { prev, outcome: o } = input;
  return withTransaction(pool, async (c) => {
    const cur = await c.query<
      FollowUpRow & {
        dados: DadosCobranca | null;
        uso: Uso;
        custo_estimado_usd: number | null;
        duracao_ms: number | null;
      }
    >({
      text: `SELECT ${FOLLOW_UP_COLS}, dados, uso, custo_estimado_usd, duracao_ms
             FROM extracoes WHERE id = $1 FOR UPDATE`,
      values: [prev.id],
    });
    const row = checkFollowUp(cur.rows[0], prev.id);
    const before = cur.rows[0]!;
    if (row.atualizada_em.toISOString() !== prev.atualizadaEm) {
      throw new AppError(
        'conflito',
        `A extração ${prev.id} mudou enquanto o modelo respondia. Recarregue e tente de novo.`,
      );
    }
    const rodada = Math.max(row.rodadas.length, 1) + 1;
    const max = await c.query<{ n: number }>({
      text: 'SELECT coalesce(max(numero), 0)::int AS n FROM extracao_tentativas WHERE extracao_id = $1',
      values: [prev.id],
    });
    const firstNumber = (max.rows[0]?.n ?? 0) + 1;
    const uso = sumUso([toUso(before.uso), o.uso]);
    const custo = addCost(before.custo_estimado_usd, o.custo_estimado_usd);
    await c.query({
      text: `UPDATE extracoes SET status = $2, dados = $3, erros = $4, alertas = $5,
               tentativas = tentativas + $6, modelo = $7, uso = $8, custo_estimado_usd = $9,
               duracao_ms = coalesce(duracao_ms, 0) + $10, hoje = $11, fila_estado = $12,
               rodadas = rodadas || jsonb_build_array($13::jsonb || jsonb_build_object('em', now())),
               versao_prompt = $14, atualizada_em = now()
             WHERE id = $1`,
      values: [
        prev.id,
        ...resultValues(o),
        json(uso),
        custo,
        o.duracao_ms,
        o.hoje,
        o.fila_estado,
        json(roundOf(o, rodada, input.resposta)),
        promptVersion(),
      ],
    });
    await insertAttempts(c, prev.id, o.attempts, firstNumber, rodada);
    await c.query({
      text: `INSERT INTO auditoria (operador, acao, extracao_id, antes, depois, detalhes)
             VALUES ($1, 'extracao_complementada', $2, $3, $4, $5)`,
      values: [
        input.operator,
        prev.id,
        json({ status: before.status, dados: before.dados }),
        json({ status: o.status, dados: o.dados }),
        json({ rodada, resposta: input.resposta }),
      ],
    });
    return rodada;
  });
}
