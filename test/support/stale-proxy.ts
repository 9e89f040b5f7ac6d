import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL that can make every connection through it stale: the
 * server side is closed while the client side stays open and silent, as after a failover, a
 * pooler restart or a NAT that forgot the flow. The client learns of it only when it next
 * sends something: the proxy then closes its socket, so that query fails with "Connection
 * terminated". Loopback only.
 */
export interface StaleProxy {
  /** The connection string through the proxy (same user, password and database). */
  url: string;
  /** Server connections opened through the proxy so far. */
  opened(): number;
  /** Cuts every open connection's server side; the clients notice at their next write. */
  goStale(): void;
  close(): Promise<void>;
}

export async function startStaleProxy(target: string): Promise<StaleProxy> {
  const to = new URL(target);
  const pairs = new Set<{ client: Socket; server: Socket; stale: boolean }>();
  let opened = 0;
  const server: Server = createServer((client) => {
    const upstream = connect(Number(to.port || 5432), to.hostname || '127.0.0.1');
    opened++;
    const pair = { client, server: upstream, stale: false };
    pairs.add(pair);
    client.on('data', (b) => {
      if (pair.stale) client.destroy();
      else upstream.write(b);
    });
    upstream.on('data', (b) => {
      if (!pair.stale) client.write(b);
    });
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    upstream.on('close', () => {
      if (!pair.stale) end();
    });
    upstream.on('error', () => undefined);
    client.on('error', () => undefined);
    client.on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    opened: () => opened,
    goStale() {
      for (const p of pairs) {
        p.stale = true;
        p.server.destroy();
      }
    },
    close() {
      for (const p of pairs) {
        p.client.destroy();
        p.server.destroy();
      }
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
