/**
 * Cursor pagination (conventions §4 "Collection query parameters"): `limit` and an
 * opaque `cursor`, answered with `{ data, next_cursor }`.
 *
 * A cursor is `base64url(JSON {scope, after}) "." base64url(HMAC-SHA256)`. `after` is
 * the sequence number of the last item served (a keyset, stable under writes); `scope`
 * is the collection it belongs to, so a cursor cannot be replayed on another listing.
 * The MAC key is random per process: cursors cannot be forged or tampered with.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FieldError } from './problem.js';

export const defaultLimit = 20;
export const maxLimit = 100;
/** Longer cursors than this were never issued; refuse them before any decoding. */
const maxCursorLength = 512;

const cursorKey = randomBytes(32);

function tag(payload: string): Buffer {
  return createHmac('sha256', cursorKey).update(payload).digest();
}

/** A cursor that resumes `scope` after the item with sequence number `after`. */
export function encodeCursor(scope: string, after: number): string {
  const payload = Buffer.from(JSON.stringify({ scope, after })).toString('base64url');
  return `${payload}.${tag(payload).toString('base64url')}`;
}

/** The sequence number a cursor resumes after, or `undefined` when it is not one of ours. */
export function decodeCursor(scope: string, cursor: string): number | undefined {
  if (cursor.length > maxCursorLength) return undefined;
  const [payload, mac, ...rest] = cursor.split('.');
  if (payload === undefined || mac === undefined || rest.length > 0) return undefined;
  const expected = tag(payload);
  const presented = Buffer.from(mac, 'base64url');
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return undefined;
  try {
    const decoded: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if (typeof decoded !== 'object' || decoded === null) return undefined;
    const { scope: s, after } = decoded as { scope?: unknown; after?: unknown };
    if (s !== scope || typeof after !== 'number' || !Number.isSafeInteger(after) || after < 0) return undefined;
    return after;
  } catch {
    return undefined;
  }
}

/**
 * A query parameter that may appear at most once. A repeated one is an error, since
 * picking one of the values would be a guess.
 */
export function singleParam(query: URLSearchParams, name: string, errors: FieldError[]): string | undefined {
  const values = query.getAll(name);
  if (values.length > 1) {
    errors.push({ field: name, message: 'must be given at most once' });
    return undefined;
  }
  return values[0];
}

/** Where a page starts and how long it is. */
export interface PageRequest {
  readonly limit: number;
  readonly afterSeq: number;
}

/** Reads `limit` and `cursor`, adding an entry to `errors` for each bad one. */
export function readPageRequest(
  query: URLSearchParams,
  scope: string,
  faults: ReadonlySet<string>,
  errors: FieldError[],
): PageRequest {
  let limit = defaultLimit;
  const rawLimit = singleParam(query, 'limit', errors);
  if (rawLimit !== undefined) {
    if (faults.has('bad-limit-500') && Number.isNaN(Number(rawLimit))) {
      // Fault: a careless handler trusts the limit to be a number.
      throw new TypeError('limit is not a number');
    }
    const n = /^[0-9]{1,3}$/.test(rawLimit) ? Number(rawLimit) : NaN;
    if (Number.isInteger(n) && n >= 1 && n <= maxLimit) limit = n;
    else errors.push({ field: 'limit', message: `must be an integer from 1 to ${maxLimit}` });
  }
  let afterSeq = 0;
  const rawCursor = singleParam(query, 'cursor', errors);
  if (rawCursor !== undefined) {
    const after = decodeCursor(scope, rawCursor);
    if (after === undefined) {
      errors.push({ field: 'cursor', message: 'is not a cursor this listing issued; use next_cursor as given' });
    } else {
      afterSeq = after;
    }
  }
  return { limit, afterSeq };
}

/** The page body: `{ data, next_cursor }`, `next_cursor` null on the last page. */
export function pageBody(
  data: readonly unknown[],
  nextCursor: string | null,
  faults: ReadonlySet<string>,
): unknown {
  if (faults.has('collection-unwrapped')) return data;
  return { data, next_cursor: nextCursor };
}
