/**
 * The one way the harness sends HTTP: undici `request()` over a keep-alive Agent (one
 * pool per origin), with a per-request deadline, a response-body cap and a run-wide
 * request budget. Transport failures become typed {@link RestprobeError}s.
 */
import { Agent, ProxyAgent, type Dispatcher, request } from 'undici';
import { RestprobeError } from '../errors.js';
import type { TargetProfile } from '../model/profile.js';

export interface ClientOptions {
  readonly timeoutMs: number;
  readonly maxBodyBytes: number;
  /** Connections per origin. */
  readonly connections: number;
  readonly maxRequests: number;
  /** Send every request through this HTTP proxy. */
  readonly proxy?: string;
}

export interface RawRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body?: string | Uint8Array | undefined;
  /** Cleanup requests do not count against `maxRequests`. */
  readonly outsideBudget?: boolean;
}

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[]>;
  readonly body: Buffer;
}

/**
 * @example
 * ```ts
 * const client = new HttpClient({ timeoutMs: 10_000, maxBodyBytes: 5 << 20, connections: 4, maxRequests: 20_000 });
 * const res = await client.send({ method: 'GET', url: 'http://127.0.0.1:8080/v2', headers: {} });
 * await client.close();
 * ```
 */
export class HttpClient {
  private readonly dispatcher: Dispatcher;
  private sent = 0;
  /**
   * Bytes a server sent that are not HTTP, seen when an idle keep-alive connection
   * broke (e.g. a body after a 304 or a HEAD response, which the parser must not read).
   */
  readonly protocolErrors: string[] = [];
  /** Requests in flight: close() waits for none of them. */
  private inFlight = 0;

  constructor(readonly options: ClientOptions) {
    const agentOptions = {
      connections: options.connections,
      keepAliveTimeout: 4_000,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      connect: { timeout: options.timeoutMs },
    };
    this.dispatcher = options.proxy ? new ProxyAgent({ ...agentOptions, uri: options.proxy }) : new Agent(agentOptions);
    this.dispatcher.on('disconnect', (origin, _targets, err) => {
      // llhttp's own codes, or undici's 'bad response' for bytes where no response was due.
      const code = String((err as { code?: unknown }).code);
      if (/^HPE_/.test(code) || (code === 'UND_ERR_SOCKET' && /bad response/i.test(err.message))) {
        this.protocolErrors.push(`${origin.origin}: ${err.message}`);
      }
    });
  }

  /** Requests sent so far by this client. */
  get requestCount(): number {
    return this.sent;
  }

  async send(req: RawRequest): Promise<RawResponse> {
    if (!req.outsideBudget && this.sent >= this.options.maxRequests) {
      throw new RestprobeError(
        'ERR_REQUEST_BUDGET',
        `request budget spent: ${this.sent} requests sent, safety.maxRequests is ${this.options.maxRequests}`,
      );
    }
    if (!req.outsideBudget) this.sent++;
    this.inFlight++;
    // Every phase has its deadline: connect, headers, each wait between body chunks (undici's
    // timeouts) and the whole body (readCapped). A signal per request would cost a third
    // of the throughput (measured by `npm run bench`).
    const deadline = performance.now() + this.options.timeoutMs;
    try {
      const res = await request(req.url, {
        dispatcher: this.dispatcher,
        method: req.method as Dispatcher.HttpMethod,
        headers: req.headers,
        body: req.body,
      });
      const body = await readCapped(res.body, this.options.maxBodyBytes, deadline, req, this.options.timeoutMs);
      return { status: res.statusCode, headers: res.headers as Record<string, string | string[]>, body };
    } catch (err) {
      throw toTransportError(err, req, this.options.timeoutMs);
    } finally {
      this.inFlight--;
    }
  }

  /** Closes the pools; requests still in flight are aborted rather than awaited. */
  async close(): Promise<void> {
    await (this.inFlight > 0 ? this.dispatcher.destroy() : this.dispatcher.close());
  }
}

async function readCapped(body: Dispatcher.ResponseData['body'], cap: number, deadline: number, req: RawRequest, timeoutMs: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (performance.now() > deadline) {
      // A slow drip never trips the idle timeout: the whole exchange has a deadline too.
      body.destroy();
      throw new RestprobeError('ERR_TIMEOUT', `${req.method} ${req.url}: no complete response within ${timeoutMs} ms (http.timeoutMs)`);
    }
    size += (chunk as Buffer).length;
    if (size > cap) {
      body.destroy();
      throw new RestprobeError(
        'ERR_BODY_TOO_LARGE',
        `${req.method} ${req.url}: response body passed the ${cap}-byte cap (http.maxBodyBytes)`,
      );
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

const unreachableCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

function toTransportError(err: unknown, req: RawRequest, timeoutMs: number): RestprobeError {
  if (err instanceof RestprobeError) return err;
  const where = `${req.method} ${req.url}`;
  const code = errorCode(err);
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return new RestprobeError('ERR_TIMEOUT', `${where}: no complete response within ${timeoutMs} ms (http.timeoutMs)`, [], { cause: err });
  }
  if (code !== undefined && unreachableCodes.has(code)) {
    return new RestprobeError('ERR_TARGET_UNREACHABLE', `${where}: cannot connect (${code})`, [], { cause: err });
  }
  const detail = err instanceof Error ? err.message : String(err);
  return new RestprobeError('ERR_PROTOCOL', `${where}: the connection failed mid-exchange (${code ?? detail})`, [], { cause: err });
}

function errorCode(err: unknown): string | undefined {
  // undici wraps socket errors: the code may sit on the error or on its cause.
  for (let e: unknown = err, i = 0; e && i < 4; e = (e as { cause?: unknown }).cause, i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** A client with the profile's timeout, body cap, concurrency, budget and proxy. */
export function clientForProfile(profile: TargetProfile, overrides: Partial<ClientOptions> = {}): HttpClient {
  return new HttpClient({
    timeoutMs: profile.http.timeoutMs,
    maxBodyBytes: profile.http.maxBodyBytes,
    connections: profile.http.concurrency,
    maxRequests: profile.safety.maxRequests,
    ...(profile.http.proxy !== undefined && { proxy: profile.http.proxy }),
    ...overrides,
  });
}
