import pg from 'pg';

/**
 * Runs `fn` on a short-lived client (not a pool's) and always ends it, also when connecting
 * fails (a client-side failure leaves the socket open). Errors reach the caller from connect,
 * `fn` or its queries; an idle client's 'error' event is ignored.
 */
export async function withClient<T>(
  config: string | pg.ClientConfig,
  fn: (c: pg.Client) => Promise<T>,
): Promise<T> {
  const c = new pg.Client(typeof config === 'string' ? { connectionString: config } : config);
  c.on('error', () => undefined);
  try {
    await c.connect();
    return await fn(c);
  } finally {
    await c.end().catch(() => undefined);
  }
}
