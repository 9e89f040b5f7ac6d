import type pg from 'pg';
import { AppError } from '@shared/errors';
import { isValidZone } from '@shared/time';
import { readFrescor, type LeituraFrescor } from './analytics';
import { isConnectionLost, mapDbError, rawDbError } from './errors';
import { connectionLostOn } from './pool';
import { forgetPrepared, preparesStatements } from './prepared';

/**
 * Client-side deadline on top of statement_timeout: a server that stops answering (hung, paused,
 * a pooler waiting for it) gets its connection destroyed after timeout + this, so every wait is
 * bounded (#16).
 */
export const TENANT_CLIENT_GRACE_MS = 3_000;

export interface TenantTxOptions {
  merchantId: number;
  /** statement_timeout for this transaction, ms. */
  timeoutMs: number;
  /** SET LOCAL TimeZone (an IANA zone; validated). date_trunc/extract follow it. */
  timeZone?: string;
  /**
   * Hardened mode for untrusted SQL (free queries): the login role must be `expectRole` with
   * session_user = current_user (no SET ROLE), search_path and standard_conforming_strings are
   * pinned for the transaction, and after ROLLBACK + the session reset the connection is checked
   * clean — otherwise it is destroyed instead of going back to the pool.
   */
  expectRole?: string;
  /**
   * Receives the server's freshness (`balcao_frescor()`): on a hot standby, how far behind the
   * primary the data is (#16). Read with `frescorPool` (the APP role on the same endpoint)
   * BEFORE the tenant transaction — the analytics role may not execute it (#12: a standby's
   * replay time is cluster-wide activity). Without `frescorPool` nothing is read.
   */
  onFrescor?: (l: LeituraFrescor) => void;
  /** The app role's pool on the analytics endpoint (`dbs.appRead`). */
  frescorPool?: pg.Pool;
}

/** What `fn` may report back: `broken` makes the connection be destroyed, not reused. */
export interface TenantTxControl {
  markBroken(reason: string): void;
}

/** A read-only transaction without a tenant (owner connection: the "textbook" benchmark path). */
export interface ReadOnlyTxOptions {
  /** statement_timeout for this transaction, ms. */
  timeoutMs: number;
  /** SET LOCAL TimeZone (an IANA zone; validated). */
  timeZone?: string;
}

interface TxPlan extends ReadOnlyTxOptions {
  merchantId?: number;
  expectRole?: string;
  onFrescor?: (l: LeituraFrescor) => void;
  frescorPool?: pg.Pool;
}

/** statement_timeout clamped to [1 ms, 10 min]: an integer we made, never input. */
function clampTimeout(ms: number): number {
  return Math.max(1, Math.min(Math.trunc(ms), 600_000));
}

/**
 * The one simple-query string that opens a transaction (one round trip): BEGIN READ ONLY, the
 * local settings and, for a tenant, `SELECT balcao_definir_lojista(<validated int>)` with the
 * roles the check needs. Only constants, a clamped integer, a validated positive integer and a
 * zone validated against the IANA database (escaped as a literal) go into it.
 */
function openingSql(client: pg.PoolClient, plan: TxPlan, timeout: number): string {
  const parts = [
    'BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY',
    `SET LOCAL statement_timeout = ${timeout}`,
  ];
  if (plan.timeZone) parts.push(`SET LOCAL TIME ZONE ${client.escapeLiteral(plan.timeZone)}`);
  if (plan.expectRole) {
    parts.push(
      'SET LOCAL search_path = pg_catalog, public, pg_temp',
      'SET LOCAL standard_conforming_strings = on',
      `SET LOCAL idle_in_transaction_session_timeout = ${timeout + 5_000}`,
    );
  }
  if (plan.merchantId !== undefined) {
    parts.push(
      `SELECT balcao_definir_lojista(${plan.merchantId}), current_user::text AS usuario, session_user::text AS sessao`,
    );
  }
  return parts.join('; ');
}

/** Closes the socket under a client that stopped answering: its queries reject, it is destroyed. */
function cutConnection(client: pg.PoolClient): void {
  (
    client as unknown as { connection: { stream: { destroy(): void } } }
  ).connection.stream.destroy();
}

/** pg's client state behind its pipeline mode (pg >= 8.23: `pipeline` is fixed per client). */
interface PipelineState {
  pipeline: boolean;
  _queryQueue: unknown[];
  _sentQueryQueue: unknown[];
  _activeQuery: unknown;
}

/**
 * The opening and `fn`'s queries on the wire together: pg's pipeline mode is switched on for
 * this transaction only, so the queries `fn` sends go out right behind the opening, without
 * waiting for its answer — the caller waits for one round trip, not two. Safe because the
 * opening starts with BEGIN: if any part of it fails, the transaction is aborted and every query
 * behind it fails too (25P02), so nothing runs without the tenant, the timeout or READ ONLY.
 * Switched off only once nothing is in flight; a client still busy is destroyed, not reused.
 * Not for cursors (pg refuses them in pipeline mode) nor for the hardened path, whose roles are
 * checked before its untrusted SQL is sent.
 */
async function pipelined<T>(
  client: pg.PoolClient,
  opening: string,
  fn: () => Promise<T>,
  control: TenantTxControl,
): Promise<T> {
  const state = client as unknown as Partial<PipelineState>;
  if (
    typeof state.pipeline !== 'boolean' ||
    !Array.isArray(state._queryQueue) ||
    !Array.isArray(state._sentQueryQueue)
  ) {
    // A pg without pipeline mode: the opening's round trip, then the queries.
    await client.query(opening);
    return fn();
  }
  const queued = state._queryQueue;
  const sent = state._sentQueryQueue;
  state.pipeline = true;
  const opened = client.query(opening);
  let work: Promise<T>;
  try {
    work = fn();
  } catch (e) {
    work = Promise.reject(e);
  }
  const [o, w] = await Promise.allSettled([opened, work]);
  if (state._activeQuery || sent.length > 0 || queued.length > 0) {
    control.markBroken('consultas ainda em andamento na conexão');
  } else {
    state.pipeline = false;
  }
  // The opening's error first: the queries behind it only failed because of it.
  if (o.status === 'rejected') throw o.reason;
  if (w.status === 'rejected') throw w.reason;
  return w.value;
}

function lastRow<R>(r: pg.QueryResult | pg.QueryResult[]): R | undefined {
  const last = Array.isArray(r) ? r[r.length - 1] : r;
  return last?.rows[0] as R | undefined;
}

/**
 * THE read-only transaction scaffolding (tenant or not): validate, connect, open the transaction
 * (one string; pipelined with `fn`'s queries except in hardened mode), run `fn`, then ALWAYS
 * roll back, reset the session (tenant) and (hardened mode) check the connection clean — or
 * destroy it instead of reusing it.
 */
async function runReadOnly<T>(
  pool: pg.Pool,
  plan: TxPlan,
  fn: (client: pg.PoolClient, control: TenantTxControl) => Promise<T>,
): Promise<T> {
  // A read: a connection lost on the way (set-up included) is retried once on a fresh one.
  try {
    return await runReadOnlyOnce(pool, plan, fn);
  } catch (e) {
    if (!isConnectionLost(e)) throw e;
  }
  try {
    return await runReadOnlyOnce(pool, plan, fn);
  } catch (e) {
    throw isConnectionLost(e) ? mapDbError(rawDbError(e), { phase: 'leitura' }) : e;
  }
}

async function runReadOnlyOnce<T>(
  pool: pg.Pool,
  plan: TxPlan,
  fn: (client: pg.PoolClient, control: TenantTxControl) => Promise<T>,
): Promise<T> {
  if (
    plan.merchantId !== undefined &&
    (!Number.isSafeInteger(plan.merchantId) || plan.merchantId <= 0)
  ) {
    throw new AppError('entrada_invalida', 'Lojista inválido.');
  }
  if (plan.timeZone !== undefined && !isValidZone(plan.timeZone)) {
    throw new AppError('configuracao', 'Fuso horário inválido nas configurações.');
  }
  const timeout = clampTimeout(plan.timeoutMs);
  if (plan.onFrescor && plan.frescorPool && plan.merchantId !== undefined) {
    let l: LeituraFrescor | null;
    try {
      l = await readFrescor(plan.frescorPool, timeout + TENANT_CLIENT_GRACE_MS);
    } catch (e) {
      throw mapDbError(e);
    }
    if (l) plan.onFrescor(l);
  }
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (e) {
    throw mapDbError(e);
  }
  let broken: Error | undefined;
  const control: TenantTxControl = {
    markBroken(reason) {
      broken ??= new Error(reason);
    },
  };
  let hung = false;
  const watchdog = setTimeout(() => {
    hung = true;
    control.markBroken('servidor não respondeu');
    cutConnection(client);
  }, timeout + TENANT_CLIENT_GRACE_MS);
  try {
    // Simple protocol is fine here: nothing in the text comes from outside.
    const opening = openingSql(client, plan, timeout);
    if (!plan.expectRole)
      return await pipelined(client, opening, () => fn(client, control), control);
    // Hardened (untrusted SQL): the roles are checked before the query is even sent.
    const row = lastRow<{ usuario: string; sessao: string }>(await client.query(opening));
    if (!row || row.usuario !== plan.expectRole || row.sessao !== plan.expectRole) {
      control.markBroken('papel inesperado');
      throw new AppError(
        'configuracao',
        'A conexão de análise não está usando o usuário restrito do banco. Verifique ANALYTICS_DATABASE_URL.',
      );
    }
    return await fn(client, control);
  } catch (e) {
    if (hung) {
      // Not a lost connection to retry: the server stopped answering. Bounded, and final.
      throw new AppError(
        'banco_indisponivel',
        'O banco de dados não respondeu a tempo (servidor parado, sobrecarregado ou inacessível). Tente de novo em instantes.',
      );
    }
    throw mapDbError(e);
  } finally {
    clearTimeout(watchdog);
    // The answer (or the error) goes back now; the connection goes back to the pool only once
    // it is reset, or destroyed. Nothing but the pool waits on the reset's round trip.
    void resetAndRelease(
      client,
      plan,
      preparesStatements(pool),
      () => broken,
      (e) => (broken ??= e),
    );
  }
}

/**
 * DISCARD ALL without DISCARD PLANS: cursors, the session user and settings, prepared statements,
 * LISTEN, temporary tables and sequence state. Cached plans stay: they carry no tenant (the
 * merchant is read at run time from the transaction's setting, which ROLLBACK clears), and
 * dropping them made every tenant function plan its statements again on every question (~0.5 ms
 * per function call). Session advisory locks, DISCARD ALL's other part, cannot be taken by the
 * analytics role (every pg_*advisory* function is revoked from it, asserted by
 * sqlguard-executor.test.ts), and it may not call pg_advisory_unlock_all() either. DISCARD ALL
 * cannot run in a multi-statement string; these can, so the reset is one round trip.
 */
const SESSION_RESET_SQL =
  'CLOSE ALL; SET SESSION AUTHORIZATION DEFAULT; RESET ALL; DEALLOCATE ALL; UNLISTEN *; DISCARD TEMP; DISCARD SEQUENCES';

/**
 * The same reset keeping the named statements, after a transaction that ran only our own SQL on
 * a pool that prepares its statements (db/prepared.ts: the compiled sales queries, parsed and
 * planned once per connection). Nothing on that path can PREPARE; the untrusted free SQL is
 * always followed by the full reset, and pg then forgets what it had parsed.
 */
const SESSION_RESET_KEEP_PREPARED_SQL =
  'CLOSE ALL; SET SESSION AUTHORIZATION DEFAULT; RESET ALL; UNLISTEN *; DISCARD TEMP; DISCARD SEQUENCES';

/** Hardened mode: the connection is back to its clean state (no tenant, own role, read-only). */
const CLEAN_CHECK_SQL = `SELECT coalesce(current_setting('balcao.merchant_id', true), '') = ''
    AND current_user = session_user
    AND current_setting('transaction_read_only') = 'on' AS limpo`;

/** Bound on the reset (rollback, session reset, check); after it the socket is cut. */
const RESET_TIMEOUT_MS = 5_000;

/**
 * Rolls back, resets the session (tenant: SESSION_RESET_SQL) and (hardened mode) checks the
 * connection clean, then releases it — destroyed instead of reused when any of that failed or the
 * connection was already marked broken. Never rejects.
 */
async function resetAndRelease(
  client: pg.PoolClient,
  plan: TxPlan,
  prepares: boolean,
  brokenNow: () => Error | undefined,
  markBroken: (e: Error) => void,
): Promise<void> {
  const guard = setTimeout(() => {
    markBroken(new Error('a limpeza da conexão não respondeu'));
    cutConnection(client);
  }, RESET_TIMEOUT_MS);
  guard.unref();
  try {
    const lost = connectionLostOn(client);
    if (lost) markBroken(lost);
    if (!brokenNow()) {
      if (plan.merchantId === undefined) {
        // The owner's path leaves no session state behind.
        await client.query('ROLLBACK');
      } else {
        // One round trip: rollback, then the session state a statement can leave behind (see
        // SESSION_RESET_SQL) and, hardened, the check that the connection is clean.
        const r = await client.query(
          plan.expectRole
            ? `ROLLBACK; ${SESSION_RESET_SQL}; ${CLEAN_CHECK_SQL}`
            : `ROLLBACK; ${prepares ? SESSION_RESET_KEEP_PREPARED_SQL : SESSION_RESET_SQL}`,
        );
        if (plan.expectRole && lastRow<{ limpo: boolean }>(r)?.limpo !== true) {
          markBroken(new Error('conexão não voltou ao estado limpo'));
        }
        // DEALLOCATE ALL dropped our named statements too: pg must parse them again.
        if (plan.expectRole && prepares && !forgetPrepared(client)) {
          markBroken(new Error('estado dos comandos preparados desconhecido'));
        }
      }
    }
  } catch (e) {
    markBroken(e instanceof Error ? e : new Error(String(e)));
  } finally {
    clearTimeout(guard);
    client.release(brokenNow() ?? false);
  }
}

/**
 * Runs `fn` inside a read-only, tenant-scoped transaction on the analytics pool:
 * BEGIN READ ONLY, local statement timeout, tenant set by our code through
 * `balcao_definir_lojista` (validated integer, once per transaction) — one string, written
 * together with the queries `fn` sends (pipelined: `fn` may send several at once and they share
 * the round trip) — then ALWAYS rolled back. The connection is reset (SESSION_RESET_SQL) before
 * it returns to the pool; a connection whose reset fails is destroyed instead of reused.
 * Hardened mode (`expectRole`) waits for the opening and checks the roles before `fn` runs.
 */
export function withTenantReadOnly<T>(
  pool: pg.Pool,
  opts: TenantTxOptions,
  fn: (client: pg.PoolClient, control: TenantTxControl) => Promise<T>,
): Promise<T> {
  return runReadOnly(pool, opts, fn);
}

/**
 * The same scaffolding without a tenant: for the owner connection's "textbook" path only
 * (benchmarks and cross-checks), never for the product's queries.
 */
export function withReadOnly<T>(
  pool: pg.Pool,
  opts: ReadOnlyTxOptions,
  fn: (client: pg.PoolClient, control: TenantTxControl) => Promise<T>,
): Promise<T> {
  return runReadOnly(
    pool,
    { timeoutMs: opts.timeoutMs, ...(opts.timeZone ? { timeZone: opts.timeZone } : {}) },
    fn,
  );
}
