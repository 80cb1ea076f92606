/**
 * The request pipeline. Each stage either passes the request on or answers it, in the
 * order the conventions make observable:
 *
 * route match (404) → OPTIONS (no credentials needed) → method (405 + Allow) →
 * credentials (401) → scope (403) → Accept (406) → Content-Type (415) → body size (413) →
 * JSON (400) → JSON object (422) → handler (its own 404, then write preconditions 412,
 * then 422, or success) → ETag, and GET/HEAD preconditions (304, 412).
 *
 * Whatever a stage throws becomes a problem+json reply; anything unexpected becomes a
 * generic 500 that reveals nothing.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { authenticate, authorize, type AccessTokenVerifier, type Credentials, type KeyRing } from './auth.js';
import { bodyRequired, hasBody, MalformedJsonError, parseJson, readBody, requireObject, type JsonObject } from './body.js';
import { ConditionalRequest, Validators } from './conditional.js';
import type { BodyPolicy, Operation } from './context.js';
import type { FaultName } from './faults.js';
import { faultActive, withFaults } from './request-faults.js';
import { pageAsCsv } from './csv.js';
import { prefersCsv } from './media-types.js';
import { acceptedBodyTypes, requireAcceptableJson, requireSupportedContentType } from './negotiation.js';
import { genericProblem, notFound, ProblemError, reasonPhrase } from './problem.js';
import { contentText, emptyReply, mediaTypes, problemReply, renderProblem, send, type Reply } from './respond.js';
import { createRoutes } from './routes.js';
import type { RateLimiter } from './rate-limit.js';
import { SessionStore } from './sessions.js';
import { allowedMethods, parseTarget, Router, type Method, type Route } from './router.js';
import { currentVersion, linkWriter, shapeReply, versionHeader, versionOf, type Versioned, type Versioning } from './versions.js';

export interface AppConfig {
  /** The keys that authenticate (the server's own, and minted ones). */
  readonly keys: KeyRing;
  /** The session records every node shares. Default: a fresh store. */
  readonly sessions?: SessionStore;
  readonly faults: ReadonlySet<FaultName>;
  /** Bulk projects to create up front; none by default. */
  readonly seedProjects?: number;
  /** The routes and the stores behind them; nodes of one server share them. Default: fresh ones. */
  readonly routes?: readonly Route<Operation>[];
  /** This node's ETags. Default: node 1 with its own memory. */
  readonly validators?: Validators;
  /** This node's rate limiter (over the counters every node shares); none by default. */
  readonly limiter?: RateLimiter;
  /** How clients name the API version: in the path (`/v2/…`, the default) or in Accept. */
  readonly versioning?: Versioning;
  /** Verifies JWT access tokens (the authorization server's); none: bearer values are API keys only. */
  readonly accessTokens?: AccessTokenVerifier;
}

const bodyMethods = ['POST', 'PUT', 'PATCH'] as const;
type BodyMethod = (typeof bodyMethods)[number];

function isMethod(method: string): method is Method {
  return method === 'GET' || method === 'POST' || method === 'PUT' || method === 'PATCH' || method === 'DELETE';
}

function isBodyMethod(method: string): method is BodyMethod {
  return (bodyMethods as readonly string[]).includes(method);
}

/** 204 naming what the path supports (RFC 9110 §9.3.7, RFC 5789 §3.1, LDP Accept-Post). */
function optionsReply(route: Route<Operation>): Reply {
  if (faultActive('options-without-allow')) return emptyReply(204);
  const headers: Record<string, string> = { Allow: allowedMethods(route).join(', ') };
  if (route.operations.POST !== undefined) headers['Accept-Post'] = acceptedBodyTypes('POST').join(', ');
  if (route.operations.PATCH !== undefined && !faultActive('options-without-accept-patch')) headers['Accept-Patch'] = acceptedBodyTypes('PATCH').join(', ');
  return emptyReply(204, headers);
}

/** 404 for a path that names no resource. */
function unknownPath(): Reply {
  if (faultActive('unknown-path-html')) {
    const html = '<!DOCTYPE html><html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>';
    return { status: 404, content: { type: 'text/html; charset=utf-8', text: html } };
  }
  throw notFound();
}

/** The JSON object a body-taking operation works on, through 415, 413, 400 and 422. */
async function readJsonBody(
  req: IncomingMessage,
  method: BodyMethod,
  policy: BodyPolicy,
): Promise<JsonObject | undefined> {
  if (!hasBody(req)) {
    if (policy === 'required') throw bodyRequired();
    return undefined;
  }
  if (!faultActive('content-type-ignored')) requireSupportedContentType(method, req.headers['content-type']);
  const raw = await readBody(req);
  let parsed: unknown;
  try {
    parsed = parseJson(raw);
  } catch (error) {
    if (error instanceof MalformedJsonError && faultActive('malformed-json-500')) {
      throw new Error('fault malformed-json-500: the parse error escaped', { cause: error });
    }
    if (error instanceof MalformedJsonError && faultActive('error-leaks-stack')) {
      // Fault: a debugging aid left on, the parser's stack trace in the detail.
      throw new ProblemError({ ...error.problem, detail: `${error.problem.detail}\n${error.stack ?? ''}` });
    }
    throw error;
  }
  return requireObject(parsed);
}

/** Fault `credential-in-location`: the presented key rides along in the new item's URL. */
function withKeyInLocation(reply: Reply, credentials: Credentials | undefined): Reply {
  const location = reply.headers?.['Location'];
  const key = credentials?.keys[0];
  if (location === undefined || key === undefined) return reply;
  return { ...reply, headers: { ...reply.headers, Location: `${location}?api_key=${encodeURIComponent(key)}` } };
}

/**
 * Throws 403 when the credentials lack the request's scope; under fault
 * `forbidden-write-applied` returns the refusal instead, for the caller to throw after the
 * handler ran.
 */
function scopeRefusal(credentials: Credentials, method: string, path: string): ProblemError | undefined {
  try {
    authorize(credentials, method, path);
    return undefined;
  } catch (error) {
    if (faultActive('forbidden-write-applied') && error instanceof ProblemError) return error;
    throw error;
  }
}

/** The Node request listener for one node (its own stores unless `config.routes` shares them). */
export function createRequestListener(config: AppConfig): (req: IncomingMessage, res: ServerResponse) => void {
  const sessions = config.sessions ?? new SessionStore();
  const router = new Router(config.routes ?? createRoutes({ seedProjects: config.seedProjects, keys: config.keys, sessions, faults: config.faults }));
  const { keys, faults } = config;
  const validators = config.validators ?? new Validators(faults);
  const versioning = config.versioning ?? 'url';

  async function answer(req: IncomingMessage, seen: { authenticated: boolean; negotiated: boolean; versioned?: Versioned }): Promise<Reply> {
    const method = req.method ?? '';
    // Counted first: a refused request costs nothing more (§8.1).
    const refusal = await config.limiter?.admit(req);
    if (refusal !== undefined) return refusal;
    const target = parseTarget(req.url ?? '');
    const query = target.query;
    // With a header scheme every answer depends on the header that names the version.
    if (versioning === 'header' || versioning === 'x-api-version') seen.negotiated = true;
    seen.versioned = versionOf(target.path, query, req.headers, versioning);
    const path = seen.versioned.path;
    const match = router.match(path);
    if (match === undefined) return unknownPath();
    if (method === 'OPTIONS') return optionsReply(match.route);
    const operation = method === 'HEAD' ? match.route.operations.GET : isMethod(method) ? match.route.operations[method] : undefined;
    if (operation === undefined) {
      if (faultActive('method-not-allowed-without-allow')) throw new ProblemError(genericProblem(405, `This path does not support ${method}.`));
      // Fault `allow-lists-refused-method`: a static Allow that lists every method, the refused one too.
      const allow = faultActive('allow-lists-refused-method') ? [...new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', method])].join(', ') : allowedMethods(match.route).join(', ');
      throw new ProblemError(genericProblem(405, `This path does not support ${method}; see Allow.`), { Allow: allow });
    }
    // The login (`access: 'open'`) takes its key in the body; everything else needs credentials.
    const credentials = operation.access === 'open' ? undefined : await authenticate(req.headers, query, { keys, sessions, ...(config.accessTokens && { accessTokens: config.accessTokens }) });
    const forbidden = credentials !== undefined && operation.access === undefined ? scopeRefusal(credentials, method, path) : undefined;
    seen.authenticated = credentials !== undefined;
    const serve = async (): Promise<Reply> => {
      // A listing's CSV, where Accept prefers it (not under the header scheme, whose Accept names the version; not for a deprecated version's renames).
      const csv = operation.csv === true && versioning !== 'header' && seen.versioned?.version === currentVersion && !faultActive('accept-ignored') && prefersCsv(req.headers.accept);
      if (!csv && !faultActive('accept-ignored')) requireAcceptableJson(req.headers.accept);
      seen.negotiated = true;
      const body =
        operation.body !== undefined && isBodyMethod(method)
          ? await readJsonBody(req, method, operation.body)
          : undefined;
      const conditional = new ConditionalRequest(method, req.headers, validators);
      const handled = await operation.handler({ method, path, headers: req.headers, params: match.params, query, body, conditional, ...(credentials && { credentials }) });
      const reply = conditional.complete(csv ? pageAsCsv(handled) : handled);
      return method === 'POST' && faultActive('credential-in-location') ? withKeyInLocation(reply, credentials) : reply;
    };
    if (forbidden === undefined) return serve();
    // Fault `forbidden-write-applied`: the request is served as if allowed, then refused whatever it answered.
    await serve().catch(() => undefined);
    throw forbidden;
  }

  // Each request is answered with this server's faults in force (request-faults.ts).
  return (req, res) => withFaults(faults, () => {
    const seen: { authenticated: boolean; negotiated: boolean; versioned?: Versioned } = { authenticated: false, negotiated: false };
    answer(req, seen)
      .catch((error: unknown): Reply => {
        if (error instanceof ProblemError) return problemReply(error);
        // Only faults reach this: a generic 500, no stack, no message.
        return renderProblem(genericProblem(500, 'The server failed to handle this request.'));
      })
      .then((answered) => {
        const reply = seen.versioned === undefined ? answered : shapeReply(answered, seen.versioned, versioning);
        send(res, config.limiter?.withFields(req, reply) ?? reply, {
          head: req.method === 'HEAD',
          method: req.method ?? '',
          authenticated: seen.authenticated,
          negotiated: seen.negotiated,
          ...(versioning === 'x-api-version' && { varyAlso: versionHeader }),
          writeLink: seen.versioned && linkWriter(seen.versioned, versioning),
        });
      })
      .catch(() => {
        // Writing failed (the client is gone): nothing is left to do but drop the socket.
        res.destroy();
      });
  });
}

/**
 * Answers requests Node cannot parse (bad syntax, oversized headers) with a problem body
 * too, instead of Node's bare default, then closes the connection.
 */
export function createClientErrorListener(
  faults: ReadonlySet<FaultName>,
  /** Headers every response of this listener carries (Strict-Transport-Security over HTTPS). */
  extraHeaders: Readonly<Record<string, string>> = {},
): (error: Error, socket: Duplex) => void {
  return (error, socket) => {
    const code = (error as { code?: unknown }).code;
    if (code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = code === 'HPE_HEADER_OVERFLOW' ? 431 : code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const detail =
      status === 431
        ? 'The request header section is too large.'
        : status === 408
          ? 'The request was not received in time.'
          : 'The request is not valid HTTP/1.1.';
    const reply = withFaults(faults, () => renderProblem(genericProblem(status, detail)));
    const text = reply.content === undefined ? '' : contentText(reply.content);
    socket.end(
      `HTTP/1.1 ${reply.status} ${reasonPhrase(reply.status)}\r\n` +
        `Content-Type: ${reply.content?.type ?? mediaTypes.problem}\r\n` +
        `Content-Length: ${Buffer.byteLength(text)}\r\n` +
        'Cache-Control: no-store\r\n' +
        Object.entries(extraHeaders).map(([name, value]) => `${name}: ${value}\r\n`).join('') +
        'Connection: close\r\n\r\n' +
        text,
    );
  };
}
