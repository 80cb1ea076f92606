/**
 * Test support: a stand-in's `http.Server` listening on 127.0.0.1:0, with a `close()` that
 * never hangs on a keep-alive or silent connection (it destroys every socket first).
 */
import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Listening {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * @example
 * ```ts
 * const { url, close } = await listenOnLoopback(createServer((req, res) => res.end()));
 * ```
 */
export async function listenOnLoopback(server: Server): Promise<Listening> {
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
