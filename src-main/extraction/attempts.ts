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

/**
 * The attempts of a round as one jsonb array, for {@link ATTEMPT_ROWS}: one statement writes
 * them all, whatever their number.
 */
export function attemptsJson(attempts: readonly AttemptRecord[]): string {
  return json(
    attempts.map((a) => ({
      entrada: a.input ?? null,
      erros: a.details ?? [],
      uso: a.usage,
      stop_reason: a.stopReason,
      duracao_ms: a.durationMs,
    })),
  );
}

/**
 * The SELECT that turns {@link attemptsJson}'s array into `extracao_tentativas` rows, numbered on
 * from `primeiro`: `INSERT INTO extracao_tentativas (${ATTEMPT_COLS}) ${ATTEMPT_ROWS(...)}`. Its
 * arguments are SQL expressions (placeholders, or a CTE's column for an id inserted in the same
 * statement).
 */
export const ATTEMPT_COLS =
  'extracao_id, numero, entrada, erros, uso, stop_reason, duracao_ms, rodada, criada_em';
export const ATTEMPT_ROWS = (p: {
  extracaoId: string;
  tentativas: string;
  primeiro: string;
  rodada: string;
  criadaEm: string;
}) =>
  `SELECT ${p.extracaoId}, ${p.primeiro}::int + (t.n - 1)::int, t.a -> 'entrada', t.a -> 'erros',
          t.a -> 'uso', t.a ->> 'stop_reason', (t.a ->> 'duracao_ms')::numeric, ${p.rodada}::int,
          coalesce(${p.criadaEm}::timestamptz, now())
     FROM jsonb_array_elements(${p.tentativas}::jsonb) WITH ORDINALITY AS t(a, n)`;

/**
 * Writes a round's attempts, numbered on from `firstNumber`, inside the caller's transaction:
 * one statement for all of them.
 */
export async function insertAttempts(
  c: pg.PoolClient,
  extracaoId: number,
  attempts: readonly AttemptRecord[],
  firstNumber: number,
  rodada: number,
  /** When they were made (demo data); default: now. */
  criadaEm?: Date,
): Promise<void> {
  if (attempts.length === 0) return;
  await c.query({
    text: `INSERT INTO extracao_tentativas (${ATTEMPT_COLS})
           ${ATTEMPT_ROWS({ extracaoId: '$1', tentativas: '$2', primeiro: '$3', rodada: '$4', criadaEm: '$5' })}`,
    values: [
      extracaoId,
      attemptsJson(attempts),
      firstNumber,
      rodada,
      criadaEm?.toISOString() ?? null,
    ],
  });
}
