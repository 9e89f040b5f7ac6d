/**
 * Writing one append-only log row so that it is neither lost nor doubled: the caller's row key
 * (`chave`, chosen once before the first try) makes the INSERT idempotent (`ON CONFLICT (chave)
 * DO NOTHING`), so a try whose connection died after the server committed cannot add a second
 * row; a lost or refused connection is retried (bounded) on a fresh one.
 */
import type pg from 'pg';
import { isConnectionLost, isUnreachable } from './errors';

export const LOG_WRITE_ATTEMPTS = 3;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function writeLogRow(
  pool: Pick<pg.Pool, 'query'>,
  query: { text: string; values: unknown[] },
  opts: { attempts?: number; backoffMs?: number } = {},
): Promise<void> {
  const attempts = opts.attempts ?? LOG_WRITE_ATTEMPTS;
  for (let i = 1; ; i++) {
    try {
      await pool.query(query);
      return;
    } catch (e) {
      if (i >= attempts || !(isConnectionLost(e) || isUnreachable(e))) throw e;
      await sleep((opts.backoffMs ?? 100) * i);
    }
  }
}
