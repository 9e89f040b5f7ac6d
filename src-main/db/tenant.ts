import type pg from 'pg';
import { AppError } from '@shared/errors';
import { isValidZone } from '@shared/time';
import { FRESCOR_COLUNAS, leituraFromRow, type LeituraFrescor } from './analytics';
import { mapDbError } from './errors';

/**
 * Client-side deadline on top of statement_timeout: a server that stops answering (hung, paused,
 * network gone) gets its connection destroyed after timeout + this, so every wait is bounded.
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
   * pinned for the transaction, and after ROLLBACK + DISCARD ALL the connection is checked clean
   * — otherwise it is destroyed instead of going back to the pool.
   */
  expectRole?: string;
  /**
   * Receives the server's freshness (`balcao_frescor()`, read in the set-up round trip): on a hot
   * standby, how far behind the primary the data is (#16).
   */
  onFrescor?: (l: LeituraFrescor) => void;
}

/** What `fn` may report back: `broken` makes the connection be destroyed, not reused. */
export interface TenantTxControl {
  markBroken(reason: string): void;
}

/**
 * Runs `fn` inside a read-only, tenant-scoped transaction on the analytics pool:
 * BEGIN READ ONLY, local statement timeout, tenant set by our code through
 * `balcao_definir_lojista` (validated integer, once per transaction), then ALWAYS rolled back.
 * The connection is reset (DISCARD ALL) before it returns to the pool; a connection whose
 * reset fails is destroyed instead of reused.
 */
export async function withTenantReadOnly<T>(
  pool: pg.Pool,
  opts: TenantTxOptions,
  fn: (client: pg.PoolClient, control: TenantTxControl) => Promise<T>,
): Promise<T> {
  if (!Number.isSafeInteger(opts.merchantId) || opts.merchantId <= 0) {
    throw new AppError('entrada_invalida', 'Lojista inválido.');
  }
  if (opts.timeZone !== undefined && !isValidZone(opts.timeZone)) {
    throw new AppError('configuracao', 'Fuso horário inválido nas configurações.');
  }
  const timeout = Math.max(1, Math.min(Math.trunc(opts.timeoutMs), 600_000));
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
  // A connection we destroy (or the server drops) must not surface as an unhandled 'error'.
  const onClientError = () => control.markBroken('erro na conexão');
  client.on('error', onClientError);
  const watchdog = setTimeout(() => {
    control.markBroken('servidor não respondeu');
    (
      client as unknown as { connection: { stream: { destroy(): void } } }
    ).connection.stream.destroy();
  }, timeout + TENANT_CLIENT_GRACE_MS);
  try {
    // Not user input: a clamped integer and a zone validated against the IANA database.
    // SET LOCAL does not take parameters.
    const sets = [
      'BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY',
      `SET LOCAL statement_timeout = ${timeout}`,
    ];
    if (opts.timeZone) sets.push(`SET LOCAL TIME ZONE ${client.escapeLiteral(opts.timeZone)}`);
    if (opts.expectRole) {
      sets.push(
        'SET LOCAL search_path = pg_catalog, public, pg_temp',
        'SET LOCAL standard_conforming_strings = on',
        `SET LOCAL idle_in_transaction_session_timeout = ${timeout + 5_000}`,
      );
    }
    // One round trip: our own constant text (simple protocol is fine, nothing comes from outside).
    await client.query(sets.join('; '));
    const r = await client.query<{ usuario: string; sessao: string }>({
      text:
        'SELECT balcao_definir_lojista($1), current_user::text AS usuario, session_user::text AS sessao' +
        (opts.onFrescor ? `, ${FRESCOR_COLUNAS} FROM balcao_frescor() f` : ''),
      values: [opts.merchantId],
    });
    if (opts.onFrescor) {
      const l = leituraFromRow(r.rows[0] as Record<string, unknown> | undefined);
      if (l) opts.onFrescor(l);
    }
    if (opts.expectRole) {
      const row = r.rows[0];
      if (!row || row.usuario !== opts.expectRole || row.sessao !== opts.expectRole) {
        control.markBroken('papel inesperado');
        throw new AppError(
          'configuracao',
          'A conexão de análise não está usando o usuário restrito do banco. Verifique ANALYTICS_DATABASE_URL.',
        );
      }
    }
    return await fn(client, control);
  } catch (e) {
    throw mapDbError(e);
  } finally {
    try {
      if (!broken) {
        await client.query('ROLLBACK');
        await client.query('DISCARD ALL');
        if (opts.expectRole) {
          const c = await client.query<{ limpo: boolean }>(
            `SELECT coalesce(current_setting('balcao.merchant_id', true), '') = ''
                AND current_user = session_user
                AND current_setting('transaction_read_only') = 'on' AS limpo`,
          );
          if (c.rows[0]?.limpo !== true) control.markBroken('conexão não voltou ao estado limpo');
        }
      }
    } catch (e) {
      broken = e instanceof Error ? e : new Error(String(e));
    }
    clearTimeout(watchdog);
    client.removeListener('error', onClientError);
    client.release(broken ?? false);
  }
}
