/**
 * Test support: an HTTP server on 127.0.0.1:0 whose routes misbehave, for testing that
 * the harness's HTTP layer never crashes, hangs or leaks.
 *
 * Routes:
 * - `/garbage`       non-HTTP bytes written straight onto the socket, then the socket closes;
 * - `/huge`          200 with a JSON-ish body streamed endlessly (until the client goes away);
 * - `/slow-drip`     headers, then one byte every 100 ms forever;
 * - `/no-headers`    the request is accepted and never answered;
 * - `/reset`         headers and part of the promised body, then a TCP reset;
 * - `/redirect-loop` 302 to itself;
 * - `/set-cookie`    200 with Set-Cookie and a body of token/secret/password members;
 * - `/echo`          200 with the request's method, URL, headers and body as JSON (and the
 *                    request's `x-reflect` header as `x-reflected`);
 * - `/deep?depth=N`   200 with an `access_token` member next to N nested arrays (default 100 000);
 * - `/big?bytes=N`   200 with a JSON string body of about N bytes;
 * - `/status?code=N` N with a problem+json body (a 3xx sends `Location: /`);
 * - anything else    404.
 *
 * `close()` never hangs: it destroys every socket and clears every timer it started.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** Values the `/set-cookie` route sends; tests assert they never reach the evidence. */
export const hostileSecrets = {
  cookie: 'sid=cookie-value-7f3a9c; HttpOnly; Path=/',
  cookieValue: 'cookie-value-7f3a9c',
  accessToken: 'access-token-5d1e0b',
  refreshToken: 'refresh-token-9a8c7d',
  clientSecret: 'client-secret-3b2f61',
  password: 'password-e4c2a8',
} as const;

/** The `access_token` the `/deep` route sends next to its deeply nested member. */
export const deepToken = 'deep-token-c0ffee';

export interface HostileServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly url: string;
  /** TCP connections accepted so far. */
  connectionCount(): number;
  /** Requests received so far, by path. */
  requestCount(path: string): number;
  close(): Promise<void>;
}

export async function startHostileServer(): Promise<HostileServer> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const requests = new Map<string, number>();
  let connections = 0;

  const every = (ms: number, fn: () => void): NodeJS.Timeout => {
    const t = setInterval(fn, ms);
    timers.add(t);
    return t;
  };
  const stop = (t: NodeJS.Timeout): void => {
    clearInterval(t);
    timers.delete(t);
  };

  const routes: Record<string, (req: IncomingMessage, res: ServerResponse, url: URL) => void> = {
    '/garbage'(req) {
      // Nothing has been written on this socket yet: these bytes are all the client sees.
      req.socket.end('\x00\x01\x02 THIS IS NOT HTTP \xff\xfe\r\n\r\n', 'latin1');
      req.socket.destroySoon();
    },

    '/huge'(_req, res) {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.from(`{"filler":"${'x'.repeat(64 * 1024 - 16)}"},`);
      res.write('[');
      let open = true;
      res.on('close', () => (open = false));
      // Endless, but with back-pressure: write while the socket accepts, then wait for drain.
      const pump = (): void => {
        while (open && res.write(chunk));
        if (open) res.once('drain', pump);
      };
      pump();
    },

    '/slow-drip'(_req, res) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.flushHeaders();
      const t = every(100, () => {
        if (res.destroyed) stop(t);
        else res.write(' ');
      });
      res.on('close', () => stop(t));
    },

    '/no-headers'() {
      // Never answer. close() destroys the socket.
    },

    '/reset'(req, res) {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
      res.write('{"items":[1,2,3', () => {
        // A TCP RST, not a clean FIN, in the middle of the promised body.
        req.socket.resetAndDestroy();
      });
    },

    '/redirect-loop'(_req, res) {
      res.writeHead(302, { location: '/redirect-loop', 'content-type': 'text/plain' });
      res.end('Found');
    },

    '/set-cookie'(_req, res) {
      const body = JSON.stringify({
        access_token: hostileSecrets.accessToken,
        refresh_token: hostileSecrets.refreshToken,
        client_secret: hostileSecrets.clientSecret,
        password: hostileSecrets.password,
        token_type: 'Bearer',
        expires_in: 3600,
      });
      res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': [hostileSecrets.cookie, 'theme=dark'] });
      res.end(body);
    },

    '/echo'(req, res) {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        const reflect = req.headers['x-reflect'];
        res.writeHead(200, { 'content-type': 'application/json', ...(typeof reflect === 'string' && { 'x-reflected': reflect }) });
        res.end(body);
      });
    },

    '/deep'(_req, res, url) {
      const depth = Number(url.searchParams.get('depth') ?? '100000');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"access_token":"${deepToken}","rest":${'['.repeat(depth)}${']'.repeat(depth)}}`);
    },

    '/endless-interim'(_req, res) {
      // 102 Processing forever: each one restarts a client's wait for headers.
      const t = every(50, () => {
        if (res.destroyed) stop(t);
        else res.writeProcessing();
      });
      res.on('close', () => stop(t));
    },

    '/fat-headers'(_req, res) {
      // A header section of 12 KiB and a body of 2 bytes, likely in one read.
      res.writeHead(200, { 'content-type': 'application/json', 'x-padding': 'p'.repeat(12 * 1024) });
      res.end('{}');
    },

    '/early-hints'(_req, res) {
      // A 1xx interim response first: the client must report the final one.
      res.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"final":true}');
    },

    '/status'(_req, res, url) {
      const status = Number(url.searchParams.get('code') ?? '200');
      res.writeHead(status, { 'content-type': 'application/problem+json', ...(status >= 300 && status < 400 && { location: '/' }) });
      res.end(JSON.stringify({ status }));
    },

    '/big'(_req, res, url) {
      const bytes = Number(url.searchParams.get('bytes') ?? '10000');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: 'b'.repeat(Math.max(0, bytes - 11)) }));
    },
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.set(url.pathname, (requests.get(url.pathname) ?? 0) + 1);
    const route = routes[url.pathname];
    if (route) route(req, res, url);
    else {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"status":404}');
    }
  });
  server.on('connection', (socket: Socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // A reset socket emits ECONNRESET; the server must not crash on it.
    socket.on('error', () => {});
  });
  server.on('clientError', (_err, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    connectionCount: () => connections,
    requestCount: (path) => requests.get(path) ?? 0,
    async close() {
      for (const t of timers) clearInterval(t);
      timers.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      for (const s of sockets) s.destroy();
      sockets.clear();
      await closed;
    },
  };
}
