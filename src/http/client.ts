/**
 * The one way the harness sends HTTP: undici `request()` over a keep-alive Agent (one
 * pool per origin), with a per-request deadline, a response-body cap and a run-wide
 * request budget. Transport failures become typed {@link RestprobeError}s.
 */
import { Agent, type Dispatcher, request } from 'undici';
import { RestprobeError } from '../errors.js';

export interface ClientOptions {
  readonly timeoutMs: number;
  readonly maxBodyBytes: number;
  /** Connections per origin. */
  readonly connections: number;
  readonly maxRequests: number;
}

export interface RawRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body?: string | Uint8Array;
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

  constructor(readonly options: ClientOptions) {
    this.dispatcher = new Agent({
      connections: options.connections,
      keepAliveTimeout: 4_000,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      connect: { timeout: options.timeoutMs },
    });
  }

  /** Requests sent so far by this client. */
  get requestCount(): number {
    return this.sent;
  }

  async send(req: RawRequest): Promise<RawResponse> {
    if (this.sent >= this.options.maxRequests) {
      throw new RestprobeError(
        'ERR_REQUEST_BUDGET',
        `request budget spent: ${this.sent} requests sent, safety.maxRequests is ${this.options.maxRequests}`,
      );
    }
    this.sent++;
    // One deadline for the whole exchange: connect, headers and the full body.
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    try {
      const res = await request(req.url, {
        dispatcher: this.dispatcher,
        method: req.method as Dispatcher.HttpMethod,
        headers: req.headers,
        body: req.body,
        signal,
      });
      const body = await readCapped(res.body, this.options.maxBodyBytes, req);
      return { status: res.statusCode, headers: res.headers as Record<string, string | string[]>, body };
    } catch (err) {
      throw toTransportError(err, req, this.options.timeoutMs, signal.aborted);
    }
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}

async function readCapped(body: Dispatcher.ResponseData['body'], cap: number, req: RawRequest): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
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

function toTransportError(err: unknown, req: RawRequest, timeoutMs: number, timedOut: boolean): RestprobeError {
  if (err instanceof RestprobeError) return err;
  const where = `${req.method} ${req.url}`;
  const code = errorCode(err);
  if (timedOut || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
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
