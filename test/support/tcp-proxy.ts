import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy a test puts between server processes and a shared service (Postgres, Redis), so the test can take
 * the service away from those processes alone — the service itself, which other suites use, is never touched.
 * `cut()` resets every open connection and every new one (what clients see when the service restarts or crashes);
 * `blackHole()` accepts connections and forwards nothing either way (a network partition: requests hang; bytes wait
 * in the sockets, as TCP would retransmit them, so connections that live through it are intact); `restore()`
 * forwards again.
 */
export interface TcpProxy {
  readonly port: number;
  /** The proxied URL: `url` with its host and port replaced by the proxy's. */
  rewrite(url: string): string;
  cut(): void;
  blackHole(): void;
  restore(): void;
  /** Connections opened through the proxy so far. */
  readonly connectionsOpened: number;
  close(): Promise<void>;
}

type Mode = 'forward' | 'cut' | 'black-hole';

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: Mode = 'forward';
  let opened = 0;
  const pairs = new Set<[Socket, Socket]>();
  const server: Server = createServer((client) => {
    if (mode === 'cut') {
      client.resetAndDestroy();
      return;
    }
    opened++;
    const upstream = connect(target.port, target.host);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    relay(client, upstream);
    relay(upstream, client);
  });
  /** Bytes held back while black-holed, flushed in order on restore. */
  const held: (() => void)[] = [];
  const relay = (from: Socket, to: Socket) =>
    from.on('data', (chunk) => {
      if (mode === 'forward') to.write(chunk);
      else held.push(() => to.write(chunk));
    });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    rewrite(url) {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.toString();
    },
    cut() {
      mode = 'cut';
      for (const [client, upstream] of pairs) {
        client.resetAndDestroy();
        upstream.destroy();
      }
      pairs.clear();
    },
    blackHole() {
      mode = 'black-hole';
    },
    restore() {
      mode = 'forward';
      for (const flush of held.splice(0)) flush();
    },
    get connectionsOpened() {
      return opened;
    },
    async close() {
      for (const [client, upstream] of pairs) {
        client.destroy();
        upstream.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Host and port of a service URL (`postgres://…`, `redis://…`). */
export function hostPortOf(url: string, defaultPort: number): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname || '127.0.0.1', port: Number(parsed.port || defaultPort) };
}
