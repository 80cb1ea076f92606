/**
 * The one way the harness sends HTTP: undici's `dispatch()` over a keep-alive Agent (one
 * pool per origin), with a per-request deadline, a response-body cap and a run-wide
 * request budget. Transport failures become typed {@link RestprobeError}s.
 */
import { trusting } from './trust.js';
import type { Dispatcher } from 'undici';
import { Agent, ProxyAgent } from './undici-dispatchers.js';
import { RestprobeError } from '../errors.js';
import type { TargetProfile } from '../model/profile.js';
import type { RawRequest, RawResponse } from '../model/raw-exchange.js';
import { splitUrl, type TargetUrl } from './target-url.js';
import { RequestBudget } from './budget.js';

export interface ClientOptions {
  readonly timeoutMs: number;
  readonly maxBodyBytes: number;
  /** Connections per origin. */
  readonly connections: number;
  readonly maxRequests: number;
  /** The run's shared budget; default: one of this client's own, of `maxRequests`. */
  readonly budget?: RequestBudget;
  /** Send every request through this HTTP proxy. */
  readonly proxy?: string;
  /** Extra trusted CA certificates (PEM) for HTTPS targets, beside Node's own; verification is never turned off. */
  readonly ca?: string;
}

export type { RawRequest, RawResponse };

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
  /** The cap this client counts against: shared by every client of a run. */
  readonly budget: RequestBudget;
  /**
   * Bytes a server sent that are not HTTP, seen when an idle keep-alive connection
   * broke (e.g. a body after a 304 or a HEAD response, which the parser must not read).
   */
  readonly protocolErrors: string[] = [];
  /**
   * Requests undici still holds: close() waits for none of them. One the harness has
   * given up on (timed out, cancelled) before undici started it counts until undici lets go.
   */
  private inFlight = 0;
  /** One function for every exchange to call when undici is done with it, rather than a closure each. */
  private readonly settled = (): void => {
    this.inFlight--;
  };

  constructor(readonly options: ClientOptions) {
    this.budget = options.budget ?? new RequestBudget(options.maxRequests);
    const trust = options.ca === undefined ? {} : { secureContext: trusting(options.ca) };
    const agentOptions = {
      connections: options.connections,
      keepAliveTimeout: 4_000,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      connect: { timeout: options.timeoutMs, ...trust },
    };
    // An http:// target goes to the proxy as an absolute-form request, which forward proxies
    // and gateways both take; only an https:// target is tunnelled with CONNECT.
    this.dispatcher = options.proxy
      ? new ProxyAgent({ ...agentOptions, uri: options.proxy, proxyTunnel: false, ...(options.ca !== undefined && { requestTls: trust }) })
      : new Agent(agentOptions);
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

  /** Sends one request; rejects with a {@link RestprobeError} on any transport failure. */
  send(req: RawRequest): Promise<RawResponse> {
    if (req.signal?.aborted) return Promise.reject(abortError(req, req.signal));
    // A request whose whole time went by before it left is not sent at all.
    if (req.startedAt !== undefined && performance.now() - req.startedAt >= this.options.timeoutMs) return Promise.reject(timeoutError(req, this.options.timeoutMs));
    try {
      this.budget.spend(req.outsideBudget ? 'cleanup' : 'probe');
    } catch (err) {
      return Promise.reject(err);
    }
    if (!req.outsideBudget) this.sent++;
    let target: TargetUrl;
    try {
      target = splitUrl(req.url);
    } catch (err) {
      return Promise.reject(new RestprobeError('ERR_PROTOCOL', `${req.method} ${req.url}: not a URL`, [], { cause: err }));
    }
    this.inFlight++;
    return new Promise((resolve, reject) => {
      const collector = new ResponseCollector(req, this.options, resolve, reject, this.settled);
      try {
        this.dispatcher.dispatch(
          {
            origin: target.origin,
            path: target.path,
            method: req.method as Dispatcher.HttpMethod,
            // undici's ProxyAgent adds Host to the object it is given: give it a copy of ours.
            headers: this.options.proxy === undefined ? req.headers : { ...req.headers },
            body: req.body ?? null,
          },
          collector,
        );
      } catch (err) {
        // ProxyAgent throws some refusals (a Proxy-Authorization header) instead of
        // reporting them to the handler.
        collector.onResponseError(undefined, err as Error);
      }
    });
  }

  /** Closes the pools; requests still in flight are aborted rather than awaited. */
  async close(): Promise<void> {
    await (this.inFlight > 0 ? this.dispatcher.destroy() : this.dispatcher.close());
  }
}

/** The harness's own timer for one exchange: a module function, so a request allocates no closure for it. */
function onDeadline(collector: ResponseCollector): void {
  collector.onTimeout();
}

/** The most a kept body may waste of the socket read it is a view of. */
const retainedWasteBytes = 4096;

/**
 * Collects one response straight from undici's parser through `dispatch()`, without the
 * promise, body stream and headers copy that `request()` adds to every request (a third
 * of the throughput, measured by `npm run bench`). A class, so a request allocates one
 * object, not a closure per callback.
 *
 * The deadline bounds the whole exchange (connect, headers, body) by one timer of its own
 * per request: when it fires the promise rejects at once and the undici request is aborted.
 * undici's connect, headers and body timeouts stay as a coarser backstop; the deadline is
 * also checked as 1xx responses and body chunks arrive. The request's abort signal, if
 * any, ends the exchange the same way.
 */
class ResponseCollector implements Dispatcher.DispatchHandler {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private status = 0;
  private headers: Record<string, string | string[]> = {};
  private readonly deadline: number;
  private readonly timer: NodeJS.Timeout;
  /** undici's handle on the request, once it has started it. */
  private controller: Dispatcher.DispatchController | undefined;
  /** Why the harness gave up before undici started the request: abort it on start. */
  private pendingAbort: RestprobeError | undefined;
  /** The promise has settled. */
  private ended = false;
  /** undici has reported the request's end (response or error). */
  private released = false;

  constructor(
    private readonly req: RawRequest,
    private readonly options: ClientOptions,
    private readonly resolve: (res: RawResponse) => void,
    private readonly reject: (err: RestprobeError) => void,
    /** Called once, when undici is done with the request either way. */
    private readonly settled: () => void,
  ) {
    this.deadline = (req.startedAt ?? performance.now()) + options.timeoutMs;
    this.timer = setTimeout(onDeadline, Math.max(0, this.deadline - performance.now()), this);
    this.timer.unref();
    // The collector is its own listener (handleEvent): no closure per request.
    req.signal?.addEventListener('abort', this);
  }

  /** undici takes a handler for the controller API only when it has this method. */
  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.pendingAbort !== undefined) controller.abort(this.pendingAbort);
  }

  /** The deadline passed: give up now, whatever undici's own timers say. */
  onTimeout(): void {
    this.giveUp(timeoutError(this.req, this.options.timeoutMs));
  }

  /** The request's signal aborted. */
  handleEvent(): void {
    this.giveUp(abortError(this.req, this.req.signal!));
  }

  private giveUp(err: RestprobeError): void {
    if (!this.end()) return;
    this.reject(err);
    if (this.controller !== undefined) this.controller.abort(err);
    else this.pendingAbort = err;
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    // Each 1xx interim response restarts undici's headers timer: an endless stream of them
    // is stopped here.
    if (statusCode < 200 && performance.now() > this.deadline) return controller.abort(timeoutError(this.req, this.options.timeoutMs));
    // 1xx interim responses come first; the final response replaces them.
    this.status = statusCode;
    this.headers = headers as Record<string, string | string[]>;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (performance.now() > this.deadline) return controller.abort(timeoutError(this.req, this.options.timeoutMs));
    this.size += chunk.length;
    if (this.size > this.options.maxBodyBytes) {
      const { method, url } = this.req;
      return controller.abort(new RestprobeError('ERR_BODY_TOO_LARGE', `${method} ${url}: response body passed the ${this.options.maxBodyBytes}-byte cap (http.maxBodyBytes)`));
    }
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    this.release();
    if (this.end()) this.resolve({ status: this.status, headers: this.headers, body: this.body() });
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, err: Error): void {
    this.release();
    if (this.end()) this.reject(toTransportError(err, this.req, this.options));
  }

  /** True the first time only: an exchange settles once. Stops the timer and the signal listener. */
  private end(): boolean {
    if (this.ended) return false;
    this.ended = true;
    clearTimeout(this.timer);
    this.req.signal?.removeEventListener('abort', this);
    return true;
  }

  private release(): void {
    if (this.released) return;
    this.released = true;
    this.settled();
  }

  private body(): Buffer {
    if (this.chunks.length !== 1) return Buffer.concat(this.chunks, this.size);
    // A lone chunk is a view of the socket's read, header bytes and all: keep it only
    // when that wastes little, since the evidence holds it for the rest of the check.
    const chunk = this.chunks[0]!;
    return chunk.buffer.byteLength - chunk.byteLength > retainedWasteBytes ? Buffer.from(chunk) : chunk;
  }
}

function timeoutError(req: RawRequest, timeoutMs: number, cause?: unknown): RestprobeError {
  return new RestprobeError('ERR_TIMEOUT', `${req.method} ${req.url}: no complete response within ${timeoutMs} ms (http.timeoutMs)`, [], { cause });
}

/** The signal's reason when it is the harness's own error (e.g. a check's deadline), else a generic one. */
function abortError(req: RawRequest, signal: AbortSignal): RestprobeError {
  const reason: unknown = signal.reason;
  if (reason instanceof RestprobeError) return reason;
  return new RestprobeError('ERR_TIMEOUT', `${req.method} ${req.url}: aborted`, [], { cause: reason });
}

const unreachableCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** OpenSSL's and Node's codes for a certificate the client does not trust. */
const untrustedCodes = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT', 'CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID', 'CERT_UNTRUSTED', 'CERT_REVOKED', 'ERR_TLS_CERT_ALTNAME_INVALID',
]);

function toTransportError(err: unknown, req: RawRequest, options: ClientOptions): RestprobeError {
  if (err instanceof RestprobeError) return err;
  const where = `${req.method} ${req.url}`;
  const code = errorCode(err);
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return timeoutError(req, options.timeoutMs, err);
  }
  if (code !== undefined && untrustedCodes.has(code)) {
    return new RestprobeError('ERR_TLS_UNTRUSTED', `${where}: the target's TLS certificate is not trusted (${code}); give its CA with --ca FILE (http.ca)`, [], { cause: err });
  }
  const detail = err instanceof Error ? err.message : String(err);
  if (options.proxy !== undefined) {
    // Through a proxy every connection is to the proxy: name it, not the target.
    if (code !== undefined && unreachableCodes.has(code)) {
      return new RestprobeError('ERR_PROXY', `${where}: cannot connect to the proxy ${options.proxy} (${code})`, [], { cause: err });
    }
    if (/Proxy Authentication Required/i.test(detail)) {
      return new RestprobeError('ERR_PROXY', `${where}: the proxy ${options.proxy} wants its own credentials (407 Proxy Authentication Required)`, [], { cause: err });
    }
    const refused = /Proxy response \((\d+)\)/.exec(detail);
    if (refused) return new RestprobeError('ERR_PROXY', `${where}: the proxy ${options.proxy} refused to tunnel (${refused[1]})`, [], { cause: err });
  }
  if (code !== undefined && unreachableCodes.has(code)) {
    return new RestprobeError('ERR_TARGET_UNREACHABLE', `${where}: cannot connect (${code})`, [], { cause: err });
  }
  // OpenSSL's answer to plain HTTP where a TLS handshake was expected: the URL's scheme is wrong, for every request alike.
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || /wrong version number/i.test(detail)) {
    return new RestprobeError('ERR_TARGET_UNREACHABLE', `${where}: the TLS handshake failed: the server speaks plain HTTP (did you mean ${req.url.replace(/^https:/, 'http:')}?)`, [], { cause: err });
  }
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
    ...(profile.http.ca !== undefined && { ca: profile.http.ca }),
    ...overrides,
  });
}
