/**
 * Where sales reads go (#16). With ANALYTICS_DATABASE_URL on a hot standby, every sales question,
 * chip re-run, merchant search and free-SQL query reads there (`dbs.analytics`, `dbs.appRead`);
 * logs and queue writes stay on the app pool (the primary). Each tenant transaction reads the
 * replica's freshness in its set-up round trip (`balcao_frescor()`); this module turns it into
 * the answer's `frescor`, marks it possibly stale above BALCAO_MAX_LAG_S, and — only with
 * BALCAO_ANALYTICS_FALLBACK=primary — reads from the primary instead when the replica lags or
 * does not answer. Without the fallback a replica that is down gives one clear pt-BR error.
 */
import type pg from 'pg';
import { AppError } from '@shared/errors';
import { frescorDaReplica, frescorDoPrimario, type Frescor } from '@shared/freshness';
import { mapDbError } from './errors';
import type { Clock } from '../clock';
import type { SettingsSource } from '../settings/types';
import type { Logger } from '../util/logger';
import type { Databases } from './pool';

/** What `balcao_frescor()` says about the server a transaction read. */
export interface LeituraFrescor {
  emRecuperacao: boolean;
  dadosAte: Date;
  atrasoS: number | null;
}

/** Columns a tenant transaction adds to its set-up SELECT (from `balcao_frescor() f`). */
export const FRESCOR_COLUNAS =
  'f.em_recuperacao AS f_rec, f.dados_ate AS f_ate, f.atraso_s AS f_atraso';

export function leituraFromRow(row: Record<string, unknown> | undefined): LeituraFrescor | null {
  if (!row || typeof row.f_rec !== 'boolean') return null;
  const ate = row.f_ate instanceof Date ? row.f_ate : new Date(String(row.f_ate));
  const atraso = row.f_atraso === null || row.f_atraso === undefined ? null : Number(row.f_atraso);
  return {
    emRecuperacao: row.f_rec,
    dadosAte: ate,
    atrasoS: Number.isFinite(atraso) ? atraso : null,
  };
}

/**
 * The endpoint's freshness, read by the APP role (the analytics role cannot execute
 * `balcao_frescor()`), before a tenant transaction: data read afterwards is at least this fresh.
 */
export async function readFrescor(
  pool: pg.Pool,
  timeoutMs = 3_000,
): Promise<LeituraFrescor | null> {
  const r = await pool.query({
    text: `SELECT ${FRESCOR_COLUNAS} FROM balcao_frescor() f`,
    query_timeout: timeoutMs,
  } as pg.QueryConfig);
  return leituraFromRow(r.rows[0] as Record<string, unknown> | undefined);
}

export interface AnalyticsPools {
  /** Analytics role: tenant transactions. */
  analytics: pg.Pool;
  /** App role on the same server: merchant search/lookup. */
  appRead: pg.Pool;
}

export interface AnalyticsDeps {
  dbs: Pick<Databases, 'app' | 'analytics' | 'appRead' | 'fallback'>;
  settings: SettingsSource;
  clock: Clock;
  logger?: Logger;
}

/** The pools a read uses first (the analytics endpoint). */
export function readPools(dbs: AnalyticsDeps['dbs']): AnalyticsPools {
  return { analytics: dbs.analytics, appRead: dbs.appRead ?? dbs.app };
}

/** The endpoint did not answer (refused, reset, connect/read deadline). */
export function isUnavailable(e: unknown): boolean {
  return (
    e instanceof AppError &&
    (e.code === 'banco_indisponivel' || (e.code as string) === 'conexao_perdida')
  );
}

export function analyticsUnavailableError(fallback: boolean): AppError {
  return new AppError(
    'banco_indisponivel',
    'O banco de análise (ANALYTICS_DATABASE_URL) não respondeu a tempo. As perguntas de vendas ' +
      'ficam indisponíveis até ele voltar; a fila de revisão continua funcionando.' +
      (fallback
        ? ' O banco principal também não respondeu.'
        : ' Para ler do banco principal enquanto isso, defina BALCAO_ANALYTICS_FALLBACK=primary.'),
  );
}

/**
 * Runs a read on the analytics endpoint. `run` gets the pools and a sink for the freshness its
 * tenant transaction read. Returns the value and the answer's freshness (null when the
 * endpoint is a primary and no fallback happened).
 */
export async function readAnalytics<T>(
  deps: AnalyticsDeps,
  run: (pools: AnalyticsPools, onFrescor: (l: LeituraFrescor) => void) => Promise<T>,
): Promise<{ value: T; frescor: Frescor | null }> {
  const s = deps.settings.get();
  const fallback = s.analyticsFallback === 'primary' ? deps.dbs.fallback : undefined;
  // Real time, not the business clock (which a CLI --hoje shifts): freshness is about instants.
  const opts = () => ({ agora: new Date(), zone: s.timeZone, maxLagS: s.maxLagS });
  let leitura: LeituraFrescor | null = null;
  let value: T;
  try {
    // Freshness of a separate endpoint (a standby) by the APP role, before the tenant
    // transaction: the analytics role may not read replication state (#12).
    if (deps.dbs.appRead) {
      try {
        leitura = await readFrescor(deps.dbs.appRead, s.analyticsConnectTimeoutMs + 3_000);
      } catch (e) {
        throw mapDbError(e);
      }
    }
    value = await run(readPools(deps.dbs), (l) => {
      leitura = l;
    });
  } catch (e) {
    // Analytics on the primary itself (no separate endpoint): the database's own message.
    if (!isUnavailable(e) || (!deps.dbs.appRead && !fallback)) throw e;
    deps.logger?.warn({ err: e }, 'banco de análise indisponível');
    if (!fallback) throw analyticsUnavailableError(false);
    try {
      const v = await run(fallback, () => undefined);
      return { value: v, frescor: frescorDoPrimario({ tipo: 'indisponivel' }, opts()) };
    } catch (e2) {
      if (isUnavailable(e2)) throw analyticsUnavailableError(true);
      throw e2;
    }
  }
  const l = leitura as LeituraFrescor | null;
  if (!l || !l.emRecuperacao) return { value, frescor: null };
  const f = frescorDaReplica(l, opts());
  if (!f.desatualizado || !fallback) return { value, frescor: f };
  deps.logger?.warn({ atrasoS: l.atrasoS }, 'réplica atrasada: lendo do banco principal');
  const v = await run(fallback, () => undefined);
  return { value: v, frescor: frescorDoPrimario({ tipo: 'atraso', atrasoS: l.atrasoS }, opts()) };
}
