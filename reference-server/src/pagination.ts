/**
 * Page parameters (conventions §4 "Collection query parameters", §8.4): `limit` on every
 * collection, plus an opaque `cursor` (answered with `{ data, next_cursor }`) or an
 * `offset` (answered with `{ data, total }`); one listing pages by number instead
 * (`page` from 1 and `per_page`, with the sort direction in `order`), as many real APIs do.
 *
 * A cursor is `base64url(JSON {l, b, k}) "." base64url(HMAC-SHA256)`:
 * - `l`: the listing it was issued for (the collection path, which names the parent);
 * - `b`: a digest of the filter values and the sort it was issued for;
 * - `k`: `[sort value, sequence number]` of the last item served, or null for "from the
 *   start" (a keyset position, stable under inserts and deletes).
 *
 * The MAC key is random per process: cursors cannot be forged or tampered with, and one
 * issued for another listing, filter or sort is refused.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { faultActive } from './request-faults.js';
import type { FieldError } from './problem.js';
import type { SortKey } from './store.js';

/** The page size without `limit`: 10, as Stripe's lists and many framework tutorials (DRF's PAGE_SIZE) give. */
export const defaultLimit = 10;
export const maxLimit = 100;
/**
 * Longer cursors than this were never issued; refuse them before any decoding. A cursor
 * carries a sort value (a name of at most 200 characters, plus surrounding spaces the
 * validation tolerates), so this is generous.
 */
const maxCursorLength = 16 * 1024;

const cursorKey = randomBytes(32);

function tag(payload: string): Buffer {
  return createHmac('sha256', cursorKey).update(payload).digest();
}

/** What a cursor says: the listing and view it belongs to, and where to resume. */
export interface CursorPosition {
  readonly scope: string;
  readonly binding: string;
  /** The last item served; null to start from the beginning. */
  readonly key: SortKey | null;
  /** Fault `cursor-overrides-filter`: the filter parameters the cursor was issued for, as a query string. */
  readonly filters?: string;
}

export function encodeCursor(position: CursorPosition): string {
  const { scope, binding, key, filters } = position;
  const k = key === null ? null : [key.value, key.seq];
  const payload = Buffer.from(JSON.stringify({ l: scope, b: binding, k, ...(filters !== undefined && { f: filters }) })).toString('base64url');
  return `${payload}.${tag(payload).toString('base64url')}`;
}

function isKey(k: unknown): k is [string, number] {
  return (
    Array.isArray(k) &&
    k.length === 2 &&
    typeof k[0] === 'string' &&
    typeof k[1] === 'number' &&
    Number.isSafeInteger(k[1]) &&
    k[1] >= 0
  );
}

/** The position a cursor names, or `undefined` when it is not one this process issued. */
export function decodeCursor(cursor: string): CursorPosition | undefined {
  if (cursor.length > maxCursorLength) return undefined;
  const [payload, mac, ...rest] = cursor.split('.');
  if (payload === undefined || mac === undefined || rest.length > 0) return undefined;
  // Compared as text: decoding would ignore the spare low bits of the last character,
  // so a cursor with that character changed would still pass.
  const expected = Buffer.from(tag(payload).toString('base64url'));
  const presented = Buffer.from(mac);
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return undefined;
  try {
    const decoded: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if (typeof decoded !== 'object' || decoded === null) return undefined;
    const { l, b, k, f } = decoded as { l?: unknown; b?: unknown; k?: unknown; f?: unknown };
    if (typeof l !== 'string' || typeof b !== 'string') return undefined;
    const filters = typeof f === 'string' ? { filters: f } : {};
    if (k === null) return { scope: l, binding: b, key: null, ...filters };
    if (!isKey(k)) return undefined;
    return { scope: l, binding: b, key: { value: k[0], seq: k[1] }, ...filters };
  } catch {
    return undefined;
  }
}

/** Fault `offset-cursor`: the "cursor" is a plain base64url offset, unsigned. */
export function encodeOffsetCursor(offset: number): string {
  return Buffer.from(String(offset)).toString('base64url');
}

/** Fault `offset-cursor`: the offset in such a cursor, or `undefined`. */
export function decodeOffsetCursor(cursor: string): number | undefined {
  if (cursor.length > 32) return undefined;
  const text = Buffer.from(cursor, 'base64url').toString('latin1');
  return /^[0-9]{1,15}$/.test(text) ? Number(text) : undefined;
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

/**
 * The page size: `limit`, or the default. A value above the maximum is refused (the
 * conventions allow clamping or refusing; refusing tells the client its page is not the
 * size it asked for), as are 0, negatives, non-integers and repeats.
 *
 * Faults: `default-page-unbounded` (no limit: everything), `limit-uncapped` (no maximum),
 * `limit-zero-accepted` (0 and negatives give the default), `bad-limit-500`.
 */
export function readLimit(query: URLSearchParams, errors: FieldError[], cap = maxLimit, name = 'limit'): number {
  const raw = singleParam(query, name, errors);
  // A listing capped below the default page size answers pages of its cap.
  const byDefault = Math.min(defaultLimit, cap);
  if (raw === undefined) return faultActive('default-page-unbounded') ? Infinity : byDefault;
  if (faultActive('bad-limit-500') && Number.isNaN(Number(raw))) {
    // Fault: a careless handler trusts the limit to be a number.
    throw new TypeError('limit is not a number');
  }
  if (faultActive('limit-zero-accepted') && /^(?:0+|-[0-9]+)$/.test(raw)) return byDefault;
  const n = /^[0-9]+$/.test(raw) ? Number(raw) : NaN;
  if (n > cap && !faultActive('limit-uncapped')) {
    errors.push({ field: name, message: `must be at most ${cap}, the maximum page size` });
  } else if (Number.isSafeInteger(n) && n >= 1) {
    return n;
  } else {
    errors.push({ field: name, message: `must be an integer from 1 to ${cap}` });
  }
  return defaultLimit;
}

/** The `offset` of an offset-style listing: an integer ≥ 0, default 0. Past the end is fine. */
export function readOffset(query: URLSearchParams, errors: FieldError[]): number {
  const raw = singleParam(query, 'offset', errors);
  if (raw === undefined) return 0;
  if (/^[0-9]+$/.test(raw)) return Number(raw); // a huge one is past the end: an empty page
  errors.push({ field: 'offset', message: 'must be an integer of 0 or more' });
  return 0;
}

/** The `page` of a page-number listing: an integer ≥ 1, default 1. Past the end is fine. */
export function readPageNumber(query: URLSearchParams, errors: FieldError[]): number {
  const raw = singleParam(query, 'page', errors);
  if (raw === undefined) return 1;
  if (/^[0-9]{1,9}$/.test(raw) && Number(raw) >= 1) return Number(raw);
  errors.push({ field: 'page', message: 'must be an integer of 1 or more' });
  return 1;
}

/**
 * A page-number listing takes the sort field in `sort` and its direction in `order`
 * (`asc` or `desc`): the query with `sort` in the `-field` form the listing reads.
 */
export function withOrder(query: URLSearchParams, defaultSort: string, errors: FieldError[]): URLSearchParams {
  const out = new URLSearchParams(query);
  const sort = singleParam(query, 'sort', errors);
  const order = singleParam(query, 'order', errors);
  if (order !== undefined && order !== 'asc' && order !== 'desc') errors.push({ field: 'order', message: 'must be "asc" or "desc"' });
  if (sort?.startsWith('-')) errors.push({ field: 'sort', message: 'must be a field name; give the direction in "order"' });
  out.delete('order');
  out.delete('sort');
  if (sort !== undefined || order === 'desc') out.set('sort', `${order === 'desc' ? '-' : ''}${sort ?? defaultSort}`);
  return out;
}

/** The cursor-style page body: `{ data, next_cursor }`, `next_cursor` null on the last page. */
export function pageBody(
  data: readonly unknown[],
  nextCursor: string | null,
): unknown {
  if (faultActive('collection-unwrapped')) return data;
  return { data, next_cursor: nextCursor };
}

/** The offset-style page body: `{ data, total }`, `total` counting every match. */
export function offsetPageBody(data: readonly unknown[], total: number): unknown {
  if (faultActive('collection-unwrapped')) return data;
  return { data, total };
}
