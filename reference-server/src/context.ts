/**
 * What a handler receives and returns. By the time a handler runs, the pipeline has
 * matched the route, checked credentials and Accept, and parsed the body.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Credentials } from './auth.js';
import type { JsonObject } from './body.js';
import type { ConditionalRequest } from './conditional.js';
import type { Reply } from './respond.js';

export interface RequestContext {
  /** As received; HEAD reaches the GET handler with `method: 'HEAD'`. */
  readonly method: string;
  /** The request path, without the query. */
  readonly path: string;
  /** The request headers (lower-case names), for the few handlers that read one. */
  readonly headers: IncomingHttpHeaders;
  /** Decoded path parameters, by the names the route pattern gives them. */
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /** The parsed JSON object, or `undefined` when the operation takes no body or none came. */
  readonly body: JsonObject | undefined;
  /** The request's preconditions (If-Match, If-None-Match) and this node's ETags. */
  readonly conditional: ConditionalRequest;
  /** Who is asking; `undefined` only for operations with `access: 'open'`. */
  readonly credentials?: Credentials;
}

export type Handler = (ctx: RequestContext) => Reply | Promise<Reply>;

/** What the pipeline must do with a request body before calling the handler. */
export type BodyPolicy =
  /** A JSON object is required (creates and updates). */
  | 'required'
  /** A JSON object may come; none is fine (noun actions). */
  | 'optional';

export interface Operation {
  readonly handler: Handler;
  /** Absent: the operation reads no body (GET, DELETE). */
  readonly body?: BodyPolicy;
  /**
   * Absent: credentials and the scope of `scopes.ts` are required. `authenticated`:
   * credentials only, no scope (the index; a session ending itself). `open`: no
   * credentials in headers (the login, whose key comes in its body).
   */
  readonly access?: 'authenticated' | 'open';
  /** A listing also served as `text/csv` (its page's items), to an Accept that prefers it: a second representation, chosen by Accept. */
  readonly csv?: true;
}

/** A path parameter the route pattern guarantees. */
export function param(ctx: RequestContext, name: string): string {
  const value = ctx.params[name];
  if (value === undefined) throw new Error(`route has no parameter ${name}`);
  return value;
}

/** The body of an operation declared `body: 'required'`. */
export function requiredBody(ctx: RequestContext): JsonObject {
  if (ctx.body === undefined) throw new Error('operation declared a required body but none was parsed');
  return ctx.body;
}
