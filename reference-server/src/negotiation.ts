/**
 * Content negotiation: what the client accepts (Accept, RFC 9110 §12.5.1) and what it
 * sends (Content-Type, §8.3). The server has one representation, `application/json`.
 */
import { genericProblem, ProblemError } from './problem.js';
import { mediaTypes } from './respond.js';

/** The header scheme's vendor media type (versions.ts) is JSON: it is answered as application/json. */
const vendorSubtype = 'vnd.restprobe+json';
const token = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const qvalue = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/** Splits a header value on `separator`, leaving quoted strings whole. */
function splitOutsideQuotes(value: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i] ?? '';
    if (quoted && c === '\\') {
      current += c + (value[i + 1] ?? '');
      i++;
    } else if (c === '"') {
      quoted = !quoted;
      current += c;
    } else if (c === separator && !quoted) {
      parts.push(current);
      current = '';
    } else {
      current += c;
    }
  }
  parts.push(current);
  return parts;
}

interface MediaRange {
  readonly type: string;
  readonly subtype: string;
  readonly q: number;
}

/** One `media-range [ weight ]`; `undefined` when it is malformed (and so ignored). */
function parseMediaRange(text: string): MediaRange | undefined {
  const [essence = '', ...params] = splitOutsideQuotes(text, ';');
  const [type = '', subtype = '', ...rest] = essence.trim().toLowerCase().split('/');
  if (rest.length > 0 || !token.test(type) || !token.test(subtype)) return undefined;
  if (type === '*' && subtype !== '*') return undefined;
  let q = 1;
  for (const param of params) {
    const eq = param.indexOf('=');
    const name = param.slice(0, eq === -1 ? undefined : eq).trim().toLowerCase();
    if (name !== 'q') continue; // Other parameters do not change what JSON we send.
    const value = eq === -1 ? '' : param.slice(eq + 1).trim();
    if (!qvalue.test(value)) return undefined;
    q = Number(value);
  }
  return { type, subtype, q };
}

/**
 * Whether an Accept header admits `application/json`. The most specific matching range
 * decides (so `application/json;q=0, *\/*` refuses JSON). An absent or empty header
 * accepts anything.
 */
export function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  // Clients repeat one Accept header: parse it once. (A pure function of the header, and
  // the header is no secret, so the shortcut's timing tells nothing.)
  if (accept === lastAccept.header) return lastAccept.accepts;
  const accepts = judgeAccept(accept);
  lastAccept = { header: accept, accepts };
  return accepts;
}

let lastAccept = { header: '', accepts: true };

function judgeAccept(accept: string): boolean {
  let best: { specificity: number; q: number } | undefined;
  for (const part of splitOutsideQuotes(accept, ',')) {
    if (part.trim() === '') continue;
    const range = parseMediaRange(part);
    if (range === undefined) continue;
    const specificity =
      range.type === 'application' && (range.subtype === 'json' || range.subtype === vendorSubtype)
        ? 3
        : range.type === 'application' && range.subtype === '*'
          ? 2
          : range.type === '*'
            ? 1
            : 0;
    if (specificity === 0) continue;
    if (best === undefined || specificity > best.specificity || (specificity === best.specificity && range.q > best.q)) {
      best = { specificity, q: range.q };
    }
  }
  return best !== undefined && best.q > 0;
}

/** Throws 406 unless the request accepts `application/json`. */
export function requireAcceptableJson(accept: string | undefined): void {
  if (!acceptsJson(accept)) {
    throw new ProblemError(
      genericProblem(406, 'This resource is available only as application/json; send an Accept header that admits it.'),
    );
  }
}

/** The media types a body may have, by method: PATCH also takes a JSON merge patch. */
export function acceptedBodyTypes(method: 'POST' | 'PUT' | 'PATCH'): readonly string[] {
  return method === 'PATCH' ? [mediaTypes.mergePatch, mediaTypes.json] : [mediaTypes.json];
}

/** `type/subtype` of a Content-Type, lowercased, parameters (charset…) dropped. */
export function mediaTypeEssence(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

/**
 * Throws 415 unless the body's Content-Type is one the method takes. The answer lists
 * what would have been taken: `Accept-Post`/`Accept-Patch`, and `Accept` as RFC 9110
 * §15.5.16 suggests.
 */
export function requireSupportedContentType(
  method: 'POST' | 'PUT' | 'PATCH',
  contentType: string | undefined,
): void {
  const accepted = acceptedBodyTypes(method);
  if (contentType !== undefined && accepted.includes(mediaTypeEssence(contentType))) return;
  const list = accepted.join(', ');
  const headers: Record<string, string> = { Accept: list };
  if (method === 'POST') headers['Accept-Post'] = list;
  if (method === 'PATCH') headers['Accept-Patch'] = list;
  throw new ProblemError(
    genericProblem(
      415,
      contentType === undefined
        ? `The request has a body but no Content-Type; send it as ${list}.`
        : `${method} bodies here must be sent as ${list}.`,
    ),
    headers,
  );
}
