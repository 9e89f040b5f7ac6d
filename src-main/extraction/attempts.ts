/**
 * How an extraction run is written down, shared by the first run, the merchant's follow-up
 * (./persist.ts) and the queue's re-run (queue/rerun.ts): the `rodadas` entry, the jsonb text,
 * the accumulated cost and the one attempt writer of `extracao_tentativas`.
 */
import type { DadosCobranca, ExtractionStatus, Uso } from '@shared/extraction-types';
import { sanitizeDeep } from '@shared/text';
import type pg from 'pg';
import type { ExtractionOutcome } from './outcome';

/** One round of an extraction as kept in `extracoes.rodadas`. */
export interface Rodada {
  rodada: number;
  /** The merchant's answer that started this round (null for the first). */
  resposta: string | null;
  status: ExtractionStatus;
  dados: DadosCobranca;
  erros: unknown[];
  alertas: unknown[];
  tentativas: number;
  hoje: string;
  modelo: string;
}

/**
 * JSON for a jsonb column, which refuses NUL and lone surrogates: NULs are dropped (model text
 * like "bolo\u0000 de cenoura" is stored as "bolo de cenoura"), lone surrogates become U+FFFD.
 */
export function json(v: unknown): string {
  return JSON.stringify(sanitizeDeep(v, (s) => s.replaceAll('\u0000', '')));
}

/** The `rodadas` entry for one extraction run (first run: resposta null). */
export function roundOf(
  o: Pick<ExtractionOutcome, 'status' | 'dados' | 'erros' | 'alertas' | 'hoje' | 'modelo'> & {
    attempts: readonly unknown[];
  },
  rodada: number,
  resposta: string | null,
): Rodada {
  return {
    rodada,
    resposta,
    status: o.status,
    dados: o.dados,
    erros: o.erros,
    alertas: o.alertas,
    tentativas: o.attempts.length,
    hoje: o.hoje,
    modelo: o.modelo,
  };
}

/** The estimated cost of the rounds so far plus this one (null while neither has one). */
export function addCost(before: number | null, added: number | null): number | null {
  return before === null && added === null
    ? null
    : Math.round(((before ?? 0) + (added ?? 0)) * 1e6) / 1e6;
}

/** One model attempt as `extracao_tentativas` keeps it. */
export interface AttemptRecord {
  input: unknown;
  details: unknown[] | undefined;
  usage: Uso;
  stopReason: string | null;
  durationMs: number;
}

/** Writes a round's attempts, numbered on from `firstNumber`, inside the caller's transaction. */
export async function insertAttempts(
  c: pg.PoolClient,
  extracaoId: number,
  attempts: readonly AttemptRecord[],
  firstNumber: number,
  rodada: number,
  /** When they were made (demo data); default: now. */
  criadaEm?: Date,
): Promise<void> {
  for (const [i, a] of attempts.entries()) {
    await c.query({
      text: `INSERT INTO extracao_tentativas
               (extracao_id, numero, entrada, erros, uso, stop_reason, duracao_ms, rodada, criada_em)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, coalesce($9::timestamptz, now()))`,
      values: [
        extracaoId,
        firstNumber + i,
        json(a.input ?? null),
        json(a.details ?? []),
        json(a.usage),
        a.stopReason,
        a.durationMs,
        rodada,
        criadaEm?.toISOString() ?? null,
      ],
    });
  }
}
