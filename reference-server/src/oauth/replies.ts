/**
 * How the authorization server's endpoints answer. They are not part of the resource API:
 * none of the API's faults (content labels, problem shapes, cache policy) reaches them,
 * so they write their own replies here. Every reply is `no-store` unless it says otherwise.
 */
import type { ServerResponse } from 'node:http';
import { genericProblem, reasonPhrase } from '../problem.js';
import { contentText, mediaTypes, type Reply } from '../respond.js';

/** A problem+json reply (errors that must not be redirected, such as an unknown client). */
export function problem(status: number, detail: string, headers: Readonly<Record<string, string>> = {}): Reply {
  return { status, headers, content: { type: mediaTypes.problem, text: JSON.stringify(genericProblem(status, detail)) } };
}

/** A JSON reply: the API's own. */
export { jsonReply as json } from '../respond.js';

/** 303 to `location` (RFC 6749 §4.1.2 allows any redirect; 303 makes the browser GET it). */
export function seeOther(location: string): Reply {
  return { status: 303, headers: { Location: location } };
}

/** Writes a reply: exact Content-Length, `Cache-Control: no-store` unless the reply sets its own. */
export function writeReply(res: ServerResponse, reply: Reply, head: boolean): void {
  const headers: Record<string, string> = { 'Cache-Control': 'no-store', ...reply.headers };
  if (reply.content !== undefined) headers['Content-Type'] = reply.content.type;
  const text = reply.content === undefined ? undefined : contentText(reply.content);
  // A 204 carries no Content-Length (RFC 9110 §8.6).
  if (reply.status !== 204) headers['Content-Length'] = String(Buffer.byteLength(text ?? '', 'utf8'));
  res.writeHead(reply.status, reasonPhrase(reply.status), headers);
  res.end(head ? undefined : text);
}
