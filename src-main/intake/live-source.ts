/**
 * Which live queue a desktop runs (#39.1). LISTEN (live.ts) needs a session connection straight
 * to the primary; the change log (live-feed.ts) works through any pool, PgBouncer's transaction
 * pooling included. A desktop where people sign in (a team server, maybe behind PgBouncer) reads
 * the change log through the person's own pool: no connection of its own, none direct. An app on
 * a service login LISTENs where its connection is known to be a session one — DIRECT_DATABASE_URL,
 * or the app role derived from DATABASE_URL (the embedded default: migrations need a session
 * connection, so that server is direct) — and reads the change log when APP_DATABASE_URL was set
 * without a direct URL (it may be a pooler).
 */
import type pg from 'pg';
import type { Logger } from '../util/logger';
import { startQueueListener, type QueueChange, type QueueListener } from './live';
import { startQueueFeed } from './live-feed';

export type LiveSource = { kind: 'escuta'; url: string } | { kind: 'mudancas' };

export function liveSourceOf(
  s: { directDatabaseUrl: string | undefined; appDatabaseUrl: string | undefined },
  modo: 'servico' | 'pessoal',
  appUrl: string,
): LiveSource {
  if (modo === 'pessoal') return { kind: 'mudancas' };
  if (s.directDatabaseUrl) return { kind: 'escuta', url: s.directDatabaseUrl };
  if (!s.appDatabaseUrl) return { kind: 'escuta', url: appUrl };
  return { kind: 'mudancas' };
}

/** Starts the live queue of `source`: LISTEN on its URL, or the change log read through `pool`. */
export function startLiveQueue(opts: {
  source: LiveSource;
  pool: pg.Pool;
  onChange: (c: QueueChange) => void;
  logger?: Logger;
  /** The change log's pause between reads (live-feed.ts's default otherwise). */
  feedIntervalMs?: number;
}): QueueListener {
  const { onChange, logger } = opts;
  return opts.source.kind === 'escuta'
    ? startQueueListener({
        connectionString: opts.source.url,
        onChange,
        ...(logger ? { logger } : {}),
      })
    : startQueueFeed({
        pool: opts.pool,
        onChange,
        ...(logger ? { logger } : {}),
        ...(opts.feedIntervalMs !== undefined ? { intervalMs: opts.feedIntervalMs } : {}),
      });
}
