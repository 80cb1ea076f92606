/**
 * A reverse proxy in front of a server: forwards every request as it is and records its
 * method, path and headers, so tests can see exactly what the harness sent. Options make
 * it the gateways real deployments have: one that serves the API under a path prefix, and
 * one that answers some requests itself (a refusal, a dropped connection).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { request } from 'undici';

export interface Recorded {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string | string[] | undefined>;
}

export interface RecordingProxyOptions {
  /** Serve the upstream under this path prefix (`/api`): stripped before forwarding; any other path gets 404. */
  readonly prefix?: string;
  /** Answer a request here instead of forwarding it: a status, or 'reset' to drop the connection. */
  readonly intercept?: (req: IncomingMessage) => number | 'reset' | undefined;
  /** Headers of an intercepted answer, by its status. */
  readonly headers?: (status: number) => Record<string, string>;
  /** Hold a request this long before forwarding it (a slow backend). */
  readonly delayMs?: (req: IncomingMessage) => number;
  /** Forward the request, but keep the upstream's answer (of this status) from the client: an answer lost on the way back. */
  readonly holdAnswer?: (req: IncomingMessage, status: number) => boolean;
}

export interface RecordingProxy {
  readonly url: string;
  readonly requests: Recorded[];
  close(): Promise<void>;
}

export async function startRecordingProxy(upstream: string, options: RecordingProxyOptions = {}): Promise<RecordingProxy> {
  const requests: Recorded[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((req, res) => {
    const delay = options.delayMs?.(req) ?? 0;
    if (delay > 0) {
      const t = setTimeout(() => {
        timers.delete(t);
        handle(req, res);
      }, delay);
      timers.add(t);
      return;
    }
    handle(req, res);
  });
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers });
    const answer = options.intercept?.(req);
    if (answer === 'reset') return void req.socket.destroy();
    if (answer !== undefined) {
      return void res.writeHead(answer, { 'content-type': 'application/problem+json', ...options.headers?.(answer) }).end(JSON.stringify({ type: 'about:blank', title: 'intercepted', status: answer, detail: 'answered by the proxy' }));
    }
    const prefix = options.prefix ?? '';
    // A request sent to it as to a forward proxy (absolute-form): a server must accept it (RFC 9112 §3.2.2).
    const url = /^https?:\/\//i.test(req.url ?? '') ? ((u) => u.pathname + u.search)(new URL(req.url!)) : (req.url ?? '/');
    if (prefix && !url.startsWith(`${prefix}/`)) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('gateway: no route');
    const headers = { ...req.headers };
    delete headers.host;
    delete headers.connection;
    const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : req;
    request(`${upstream}${url.slice(prefix.length)}`, { method: req.method as 'GET', headers, body })
      .then(async (up) => {
        if (options.holdAnswer?.(req, up.statusCode) === true) return void (await up.body.dump());
        const { connection: _c, 'keep-alive': _k, 'transfer-encoding': _t, ...rest } = up.headers;
        res.writeHead(up.statusCode, rest);
        res.end(Buffer.from(await up.body.arrayBuffer()));
      })
      .catch(() => res.destroy());
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    requests,
    async close() {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
