/**
 * Test support: a stand-in API on 127.0.0.1:0 with a rate limiter unlike the reference
 * server's, for proving the rate-limit checks on limiters that conform differently and on
 * ones that break the rules in ways the reference faults do not. `GET /things` answers
 * 200 `{ "data": [] }` until the client's quota is spent.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback } from './loopback.js';

export interface LimiterServerOptions {
  /** Requests per window; 0 for no limiter at all. */
  readonly limit: number;
  readonly windowMs: number;
  /**
   * Default `fixed-window` (windows aligned to the clock, as many gateways do). `trickle`: a
   * window opened by each client's first request, in which past the limit every other request
   * is admitted, `limit` times, then none: what a sliding log shows a client that sends as
   * fast as its spent quota comes back, whatever the machine's pace. `penalty-box`: past the
   * limit, blocked for a window, which every request while blocked starts again (INCR and
   * EXPIRE on each request).
   */
  readonly algorithm?: 'fixed-window' | 'sliding-log' | 'token-bucket' | 'trickle' | 'penalty-box';
  /** Who a quota belongs to: the X-API-Key (default; other keys get 401), or the address. */
  readonly keyedBy?: 'key' | 'ip';
  /** How a refusal states its wait; default `seconds` (rounded up); `seconds-down` rounds down (ASP.NET's documented sample). */
  readonly retryAfter?: 'seconds' | 'seconds-down' | 'http-date' | 'fractional' | 'rfc850' | 'none';
  /** Send Retry-After-Ms too. */
  readonly msHint?: boolean;
  /** RateLimit fields; `draft-06-whole` says the whole quota remains on every answer (a lie). */
  readonly fields?: 'none' | 'draft-10' | 'draft-10-token-names' | 'draft-07' | 'draft-06-whole' | 'legacy';
  /** The status of a refusal; default 429. */
  readonly limitedStatus?: number;
  /** The refusal's body: problem+json (default), or a plain JSON object. */
  readonly body?: 'problem' | 'json';
  /** How much longer than the real wait Retry-After says (not a millisecond field); default none. */
  readonly overstateMs?: number;
  /** A token bucket's capacity, where more than `limit` (AWS API Gateway's burst); default `limit`. */
  readonly capacity?: number;
  /** Answer the nth request of `GET /things` (from 1) with a gateway's 502 page instead, once. */
  readonly gatewayErrorAt?: number;
  /** How long each served answer takes (a slow endpoint; the limiter's refusals are quick); default none. */
  readonly delayMs?: number;
  /** How far the server's clock is from the machine's: its HTTP-dates are off by this much, and it sends no Date to tell. */
  readonly clockOffsetMs?: number;
  /** Nodes of one deployment, each on a port of its own, every one counting in the one limiter (a shared counter store); default 1. */
  readonly nodes?: number;
  /** Each node counts in a limiter of its own instead (counters per node, which §8.2 forbids). */
  readonly perNode?: boolean;
  /** How long node i holds each answer after the limiter has taken the request (a node farther away); default none. */
  readonly nodeDelayMs?: readonly number[];
}

export interface LimiterServer {
  readonly url: string;
  /** Every node's URL, `url` first. */
  readonly urls: readonly string[];
  /** Keys the server accepts (keyedBy `key`). */
  readonly keys: { readonly API_KEY: string; readonly LIMIT_KEY: string; readonly LIMIT_KEY_2: string };
  close(): Promise<void>;
}

interface Verdict {
  readonly admitted: boolean;
  readonly remaining: number;
  /** Until the next request is admitted. */
  readonly waitMs: number;
}

type Limiter = (client: string, now: number) => Verdict;

function limiterFor(o: LimiterServerOptions): Limiter {
  const { limit, windowMs } = o;
  if (o.algorithm === 'sliding-log') {
    const logs = new Map<string, number[]>();
    return (client, now) => {
      const log = (logs.get(client) ?? []).filter((t) => now - t < windowMs);
      logs.set(client, log);
      if (log.length < limit) {
        log.push(now);
        return { admitted: true, remaining: limit - log.length, waitMs: 0 };
      }
      return { admitted: false, remaining: 0, waitMs: log[0]! + windowMs - now };
    };
  }
  if (o.algorithm === 'trickle') {
    const windows = new Map<string, { start: number; n: number }>();
    return (client, now) => {
      const held = windows.get(client);
      const w = held !== undefined && now - held.start < windowMs ? held : { start: now, n: 0 };
      windows.set(client, w);
      const n = w.n++;
      const admitted = n < limit || ((n - limit) % 2 === 1 && n - limit < 2 * limit);
      return { admitted, remaining: admitted ? Math.max(0, limit - n - 1) : 0, waitMs: admitted ? 0 : w.start + windowMs - now };
    };
  }
  if (o.algorithm === 'penalty-box') {
    const state = new Map<string, { used: number; blockedUntil: number }>();
    return (client, now) => {
      const c = state.get(client) ?? { used: 0, blockedUntil: 0 };
      state.set(client, c);
      if (c.blockedUntil > 0 && now >= c.blockedUntil) Object.assign(c, { used: 0, blockedUntil: 0 });
      if (c.blockedUntil === 0 && c.used < limit) {
        c.used++;
        return { admitted: true, remaining: limit - c.used, waitMs: 0 };
      }
      c.blockedUntil = now + windowMs;
      return { admitted: false, remaining: 0, waitMs: windowMs };
    };
  }
  if (o.algorithm === 'token-bucket') {
    const buckets = new Map<string, { tokens: number; at: number }>();
    const rate = limit / windowMs;
    const capacity = o.capacity ?? limit;
    return (client, now) => {
      const b = buckets.get(client) ?? { tokens: capacity, at: now };
      b.tokens = Math.min(capacity, b.tokens + (now - b.at) * rate);
      b.at = now;
      buckets.set(client, b);
      if (b.tokens >= 1) {
        b.tokens -= 1;
        return { admitted: true, remaining: Math.floor(b.tokens), waitMs: 0 };
      }
      return { admitted: false, remaining: 0, waitMs: (1 - b.tokens) / rate };
    };
  }
  const windows = new Map<string, { index: number; used: number }>();
  return (client, now) => {
    const index = Math.floor(now / windowMs);
    const w = windows.get(client)?.index === index ? windows.get(client)! : { index, used: 0 };
    windows.set(client, w);
    const end = (index + 1) * windowMs - now;
    if (w.used < limit) {
      w.used++;
      return { admitted: true, remaining: limit - w.used, waitMs: 0 };
    }
    return { admitted: false, remaining: 0, waitMs: end };
  };
}

/** `Sunday, 06-Nov-94 08:49:37 GMT`: RFC 850's date, which senders must no longer generate. */
function rfc850(at: Date): string {
  const day = at.toLocaleDateString('en-GB', { weekday: 'long', timeZone: 'UTC' });
  const [, dd, mon, yyyy, time] = /^\w+, (\d{2}) (\w{3}) (\d{4}) (\S+) GMT$/.exec(at.toUTCString())!;
  return `${day}, ${dd}-${mon}-${yyyy!.slice(2)} ${time} GMT`;
}

function retryHeaders(o: LimiterServerOptions, realWaitMs: number, now: number): Record<string, string> {
  const waitMs = realWaitMs + (o.overstateMs ?? 0);
  const at = new Date(Math.ceil((now + waitMs) / 1000) * 1000);
  const value = {
    seconds: String(Math.ceil(waitMs / 1000)),
    'seconds-down': String(Math.floor(waitMs / 1000)),
    'http-date': at.toUTCString(),
    fractional: (waitMs / 1000).toFixed(3),
    rfc850: rfc850(at),
    none: undefined,
  }[o.retryAfter ?? 'seconds'];
  return { ...(value !== undefined && { 'retry-after': value }), ...(o.msHint === true && { 'retry-after-ms': String(Math.ceil(realWaitMs)) }) };
}

function fieldHeaders(o: LimiterServerOptions, v: Verdict, now: number): Record<string, string> {
  const t = Math.ceil(v.waitMs / 1000);
  const w = o.windowMs % 1000 === 0 ? `;w=${o.windowMs / 1000}` : '';
  switch (o.fields ?? 'none') {
    case 'draft-10':
      return { 'ratelimit-policy': `"default";q=${o.limit}${w}`, ratelimit: `"default";r=${v.remaining};t=${t}` };
    case 'draft-10-token-names':
      return { 'ratelimit-policy': `default;q=${o.limit}${w}`, ratelimit: `default;r=${v.remaining};t=${t}` };
    case 'draft-07':
      return { ratelimit: `limit=${o.limit}, remaining=${v.remaining}, reset=${t}` };
    case 'draft-06-whole':
      return { 'ratelimit-limit': String(o.limit), 'ratelimit-remaining': String(o.limit), 'ratelimit-reset': String(t) };
    case 'legacy':
      return { 'x-ratelimit-limit': String(o.limit), 'x-ratelimit-remaining': String(v.remaining), 'x-ratelimit-reset': String(Math.ceil((now + v.waitMs) / 1000)) };
    case 'none':
      return {};
  }
}

export async function startLimiterServer(o: LimiterServerOptions): Promise<LimiterServer> {
  const keys = { API_KEY: 'sk-stand-in-api-7d3a9f01c2', LIMIT_KEY: 'sk-stand-in-limit-4e8b2a67d1', LIMIT_KEY_2: 'sk-stand-in-limit-2-9c1f5b03e8' };
  const known = new Set(Object.values(keys));
  const shared = limiterFor(o);
  const sendNow = (res: ServerResponse, status: number, type: string, body: unknown, headers: Record<string, string>): void => {
    const text = JSON.stringify(body);
    if (o.clockOffsetMs !== undefined) res.sendDate = false;
    res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text), ...headers });
    res.end(text);
  };
  let things = 0;
  const node = (held: number, limiter: Limiter) => createServer((req: IncomingMessage, res: ServerResponse) => {
    const send = (...args: Parameters<typeof sendNow>): void => void (held > 0 ? setTimeout(() => sendNow(...args), held) : sendNow(...args));
    const key = req.headers['x-api-key'];
    if (o.keyedBy !== 'ip' && (typeof key !== 'string' || !known.has(key))) {
      return send(res, 401, 'application/problem+json', { type: 'about:blank', title: 'Unauthorized', status: 401, detail: 'no valid key' }, { 'www-authenticate': 'ApiKey' });
    }
    if (req.url?.split('?')[0] !== '/things') return send(res, 404, 'application/problem+json', { type: 'about:blank', title: 'Not Found', status: 404, detail: 'no such path' }, {});
    if (++things === o.gatewayErrorAt) return void res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body><h1>502 Bad Gateway</h1></body></html>');
    if (o.limit === 0) return void setTimeout(() => send(res, 200, 'application/json', { data: [] }, {}), o.delayMs ?? 0);
    const now = Date.now();
    const verdict = limiter(o.keyedBy === 'ip' ? `ip:${req.socket.remoteAddress}` : String(key), now);
    const fields = fieldHeaders(o, verdict, now);
    if (verdict.admitted) return void setTimeout(() => send(res, 200, 'application/json', { data: [] }, fields), o.delayMs ?? 0);
    const status = o.limitedStatus ?? 429;
    const problem = { type: 'about:blank', title: 'Too Many Requests', status, detail: `at most ${o.limit} requests per ${o.windowMs} ms` };
    return o.body === 'json'
      ? send(res, status, 'application/json', { error: 'rate limited' }, { ...fields, ...retryHeaders(o, verdict.waitMs, now + (o.clockOffsetMs ?? 0)) })
      : send(res, status, 'application/problem+json', problem, { ...fields, ...retryHeaders(o, verdict.waitMs, now + (o.clockOffsetMs ?? 0)) });
  });
  const listening = await Promise.all(Array.from({ length: o.nodes ?? 1 }, (_n, i) => listenOnLoopback(node(o.nodeDelayMs?.[i] ?? 0, o.perNode === true ? limiterFor(o) : shared))));
  return {
    url: listening[0]!.url,
    urls: listening.map((l) => l.url),
    keys,
    close: async () => void (await Promise.all(listening.map((l) => l.close()))),
  };
}
