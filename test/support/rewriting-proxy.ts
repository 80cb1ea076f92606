/**
 * Test support: a reverse proxy on 127.0.0.1:0 that rewrites what passes through it, so a
 * test can put a variant of the reference server in front of the harness: one that
 * differs in exactly one behaviour, conforming or not (how the verdict-accuracy review
 * reproduced its findings).
 *
 * A rewrite sees the whole request (path with query, headers, body) and may change it or
 * answer it itself; another sees the whole response and may change it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { request } from 'undici';

export interface ProxiedRequest {
  readonly method: string;
  /** Path and query, as sent. */
  readonly path: string;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface ProxiedResponse {
  readonly status: number;
  /** Lower-case names; Content-Length is recomputed (kept as is for HEAD). */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface Rewrites {
  /** The request to forward instead, or a response to answer with (nothing is forwarded). */
  request?(req: ProxiedRequest): ProxiedRequest | ProxiedResponse;
  /** The response to send instead. */
  response?(res: ProxiedResponse, req: ProxiedRequest): ProxiedResponse | Promise<ProxiedResponse>;
}

export interface RewritingProxy {
  readonly url: string;
  /** Sends a request upstream as it is (for rewrites that gather pages themselves). */
  upstream(req: ProxiedRequest): Promise<ProxiedResponse>;
  close(): Promise<void>;
}

/** The body of a JSON response or request, parsed; undefined when it is not JSON. */
export function jsonOf(x: { readonly body: string }): any {
  try {
    return JSON.parse(x.body);
  } catch {
    return undefined;
  }
}

/** The same response with another JSON body. */
export function withJson(res: ProxiedResponse, value: unknown, status = res.status): ProxiedResponse {
  return { ...res, status, body: JSON.stringify(value) };
}

/** The query of a proxied request. */
export function queryOf(req: ProxiedRequest): URLSearchParams {
  return new URL(req.path, 'http://x').searchParams;
}

/** The path of a proxied request without its query. */
export function pathOf(req: ProxiedRequest): string {
  return new URL(req.path, 'http://x').pathname;
}

const hopByHop = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host']);

export async function startRewritingProxy(upstreamUrl: string, rewrites: Rewrites): Promise<RewritingProxy> {
  const upstream = async (req: ProxiedRequest): Promise<ProxiedResponse> => {
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !hopByHop.has(k)));
    const up = await request(`${upstreamUrl}${req.path}`, {
      method: req.method as 'GET',
      headers,
      body: req.method === 'GET' || req.method === 'HEAD' || req.body.length === 0 ? undefined : req.body,
    });
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(up.headers)) if (v !== undefined && !hopByHop.has(k)) out[k] = Array.isArray(v) ? v.join(', ') : v;
    if (req.method === 'HEAD' && up.headers['content-length'] !== undefined) out['content-length'] = String(up.headers['content-length']);
    return { status: up.statusCode, headers: out, body: await up.body.text() };
  };

  const handle = async (incoming: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(incoming.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    const original: ProxiedRequest = { method: incoming.method ?? 'GET', path: incoming.url ?? '/', headers, body: Buffer.concat(chunks).toString('utf8') };
    const rewritten = rewrites.request ? rewrites.request(original) : original;
    let answer = 'status' in rewritten ? rewritten : await upstream(rewritten);
    if (!('status' in rewritten) && rewrites.response) answer = await rewrites.response(answer, rewritten);
    const out: Record<string, string> = { ...answer.headers };
    if (original.method !== 'HEAD') {
      delete out['content-length'];
      if (answer.status !== 204 && answer.status !== 304) out['content-length'] = String(Buffer.byteLength(answer.body));
    }
    res.writeHead(answer.status, out);
    res.end(original.method === 'HEAD' || answer.status === 204 || answer.status === 304 ? undefined : answer.body);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    upstream,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
