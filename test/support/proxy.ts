/**
 * A forward proxy on 127.0.0.1:0 for `--proxy` tests: CONNECT tunnels and absolute-form
 * requests alike, counting what passed through it.
 */
import { createServer, request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';

export interface TestProxy {
  readonly url: string;
  /** CONNECT tunnels opened plus absolute-form requests forwarded. */
  readonly passed: () => number;
  close(): Promise<void>;
}

export async function startProxy(): Promise<TestProxy> {
  let passed = 0;
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    passed++;
    const upstream = httpRequest(req.url!, { method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    passed++;
    const [host, port] = (req.url ?? '').split(':');
    const target = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      target.write(head);
      target.pipe(client);
      client.pipe(target);
    });
    sockets.add(target);
    target.on('close', () => sockets.delete(target));
    target.on('error', () => client.destroy());
    client.on('error', () => target.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    passed: () => passed,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
