/**
 * A reverse proxy in front of a server: forwards every request as it is and records its
 * method, path and headers, so tests can see exactly what the harness sent.
 */
import { createServer } from 'node:http';
import { request } from 'undici';

export interface Recorded {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string | string[] | undefined>;
}

export interface RecordingProxy {
  readonly url: string;
  readonly requests: Recorded[];
  close(): Promise<void>;
}

export async function startRecordingProxy(upstream: string): Promise<RecordingProxy> {
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers });
    const headers = { ...req.headers };
    delete headers.host;
    delete headers.connection;
    const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : req;
    request(`${upstream}${req.url}`, { method: req.method as 'GET', headers, body })
      .then(async (up) => {
        const { connection: _c, 'keep-alive': _k, 'transfer-encoding': _t, ...rest } = up.headers;
        res.writeHead(up.statusCode, rest);
        res.end(Buffer.from(await up.body.arrayBuffer()));
      })
      .catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
