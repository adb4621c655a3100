/**
 * A TCP proxy for fault-injection tests: clients connect to the proxy, which pipes to the
 * target. `down()` cuts every open connection and refuses new ones (they are accepted and
 * closed at once, as a restarting database or a broken network would look); `up()` lets them
 * through again.
 */
import net from 'node:net';

export interface TcpProxy {
  port: number;
  /** The URL with its host and port replaced by the proxy's. */
  url(target: string): string;
  /** Open client connections now. */
  readonly connections: number;
  down(): void;
  up(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let refusing = false;
  const server = net.createServer((client) => {
    if (refusing) {
      client.destroy();
      return;
    }
    const upstream = net.connect(targetPort, targetHost);
    const pair = [client, upstream];
    for (const s of pair) {
      sockets.add(s);
      s.on('error', () => pair.forEach((x) => x.destroy()));
      s.on('close', () => {
        sockets.delete(s);
        pair.forEach((x) => x.destroy());
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    url(target) {
      const u = new URL(target);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    get connections() {
      return [...sockets].length / 2;
    },
    down() {
      refusing = true;
      for (const s of sockets) s.destroy();
    },
    up() {
      refusing = false;
    },
    close() {
      refusing = true;
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
