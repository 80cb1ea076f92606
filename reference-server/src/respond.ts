/**
 * Replies and how they are written: the only code that touches `ServerResponse`.
 *
 * Handlers return a {@link Reply}; problems become replies in {@link problemReply}. A JSON
 * reply keeps its value until {@link send} serialises it, once, writing its links for the
 * request's version (links.ts). {@link send} adds the headers every response carries (exact Content-Length, the cache
 * policy) so that no handler can forget them. A 304 is written without its content.
 */
import type { ServerResponse } from 'node:http';
import { cacheHeadersFor } from './caching.js';
import { faultActive } from './request-faults.js';
import { serialise, type LinkWriter } from './links.js';
import { reasonPhrase, type Problem, type ProblemError } from './problem.js';

/** A response, before it is written. */
export interface Reply {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Absent for bodiless statuses (204) and bodiless answers (DELETE under a fault). A 304
   * keeps the content of the 200 it stands for; {@link send} never writes it.
   */
  readonly content?: Content;
  /** The content holds a secret (a minted key): no cache may store it. */
  readonly holdsSecret?: boolean;
}

/**
 * What a reply carries: a JSON value, serialised when it is sent, or text made whole
 * where it is made (a problem, an HTML page).
 */
export type Content = { readonly type: string; readonly value: unknown } | { readonly type: string; readonly text: string };

/** The bytes of a content, as text; a value's links written by `write` (none: as route paths). */
export function contentText(content: Content, write?: LinkWriter): string {
  if ('text' in content) return content.text;
  if (write !== undefined) return serialise(content.value, write);
  // The ETag and the send of a current-version reply read the same bytes: serialised once.
  let text = canonicalText.get(content);
  if (text === undefined) canonicalText.set(content, (text = serialise(content.value)));
  return text;
}

const canonicalText = new WeakMap<Content, string>();

export const mediaTypes = {
  json: 'application/json',
  mergePatch: 'application/merge-patch+json',
  problem: 'application/problem+json',
} as const;

/** A JSON reply. `value` may be `null`; it is serialised as is. */
export function jsonReply(
  status: number,
  value: unknown,
  headers: Readonly<Record<string, string>> = {},
): Reply {
  return { status, headers, content: { type: mediaTypes.json, value } };
}

/** A reply without content (204, or a deliberately empty 200 under a fault). */
export function emptyReply(status: number, headers: Readonly<Record<string, string>> = {}): Reply {
  return { status, headers };
}

/** The problem body, with the faults that bend problem bodies applied. */
export function renderProblem(problem: Problem): Reply {
  const { type, title, status, detail, errors } = problem;
  // Fault `precondition-failed-bare`: a precondition helper answers 412 itself, outside the error handler, with no body.
  if (faultActive('precondition-failed-bare') && status === 412) return emptyReply(412);
  const body: Record<string, unknown> = { type, title, status, detail };
  if (faultActive('problem-without-detail')) {
    delete body['title'];
    delete body['detail'];
  }
  if (faultActive('problem-status-always-400')) body['status'] = 400;
  if (errors !== undefined) {
    body['errors'] =
      faultActive('validation-errors-without-field') && status === 422
        ? errors.map(({ message }) => ({ message }))
        : errors;
  }
  const httpStatus = faultActive('validation-error-as-200') && status === 422 ? 200 : status;
  const contentType = faultActive('errors-as-plain-json') ? mediaTypes.json : mediaTypes.problem;
  return { status: httpStatus, content: { type: contentType, text: JSON.stringify(body) } };
}

/** The reply for a thrown problem, keeping the headers its status needs. */
export function problemReply(error: ProblemError): Reply {
  return { ...renderProblem(error.problem), headers: error.headers };
}

/** How a reply is to be written. */
export interface SendOptions {
  /** The request was HEAD: same headers as GET, no content (RFC 9110 §9.3.2). */
  readonly head: boolean;
  /** The request method, as received (drives the cache policy). */
  readonly method: string;
  /** The request carried valid credentials (drives the cache policy). */
  readonly authenticated: boolean;
  /** The content was chosen by the Accept header (drives Vary). */
  readonly negotiated: boolean;
  /** A request header besides Accept that chose the content (the version's, `X-API-Version`), for Vary. */
  readonly varyAlso?: string;
  /** How the request reaches a route path, for the links in a JSON value (none: as route paths). */
  readonly writeLink?: LinkWriter;
}

/** Writes a reply. Every header here is set on purpose; nothing else is added but Date. */
export function send(res: ServerResponse, reply: Reply, options: SendOptions): void {
  const headers: Record<string, string> = { ...reply.headers };
  const notModified = reply.status === 304;
  // A 304 keeps the content it replaces only for fault not-modified-with-body.
  const content = notModified || reply.content === undefined ? undefined : { type: reply.content.type, text: contentText(reply.content, options.writeLink) };
  if (content !== undefined) {
    // Fault `success-as-text-plain`: every successful response is labelled text/plain.
    const mislabelled = faultActive('success-as-text-plain') && reply.status >= 200 && reply.status < 300;
    headers['Content-Type'] = mislabelled ? 'text/plain; charset=utf-8' : content.type;
    headers['Content-Length'] = String(Buffer.byteLength(content.text, 'utf8'));
  } else if (reply.status !== 204 && !notModified) {
    // A bodiless non-204 still says so, or the client would wait for a close.
    headers['Content-Length'] = '0';
  }
  Object.assign(
    headers,
    cacheHeadersFor(
      { method: options.method, status: reply.status, authenticated: options.authenticated, negotiated: options.negotiated, ...(options.varyAlso !== undefined && { varyAlso: options.varyAlso }), holdsSecret: reply.holdsSecret === true },
    ),
  );
  if (options.head && faultActive('head-drops-headers')) {
    delete headers['Content-Type'];
    delete headers['Content-Length'];
  }
  const stray = strayContent(reply, options);
  if (stray !== undefined) {
    sendWithStrayContent(res, reply.status, headers, { type: stray.type, text: contentText(stray, options.writeLink) });
    return;
  }
  res.writeHead(reply.status, reasonPhrase(reply.status), headers);
  // A string (not a Buffer) lets node send the header section and the body in one write.
  res.end(options.head || content === undefined ? undefined : content.text);
}

/**
 * Content a fault sends after a response that has none: the representation after a 304
 * (`not-modified-with-body`) or after a HEAD response (`head-with-body`), a JSON body
 * after a DELETE's 204 (`delete-204-with-body`).
 */
function strayContent(reply: Reply, options: SendOptions): Content | undefined {
  if (reply.status === 304 && !options.head && faultActive('not-modified-with-body')) return reply.content;
  if (reply.status === 200 && options.head && faultActive('head-with-body')) return reply.content;
  if (reply.status === 204 && options.method === 'DELETE' && faultActive('delete-204-with-body')) return { type: mediaTypes.json, text: '{"deleted":true}' };
  return undefined;
}

/**
 * A response that has no content, followed by content anyway. Node never writes content
 * after a 304, a 204 or a HEAD response, so the bytes go on the raw socket right after
 * the header section. A client reads no body there, so the bytes are left on the
 * connection, where they break the next response (or the connection, if it closes).
 */
function sendWithStrayContent(
  res: ServerResponse,
  status: number,
  headers: Readonly<Record<string, string>>,
  content: { readonly type: string; readonly text: string },
): void {
  res.writeHead(status, reasonPhrase(status), { ...headers, 'Content-Type': content.type });
  res.flushHeaders();
  res.socket?.write(Buffer.from(content.text, 'utf8'));
  res.end();
}
