/**
 * Reading a page through its envelope: the configured one (`collections[].pagination.envelope`)
 * or the conventions' `{ "data": [...], "next_cursor": … }` (§4). One reader serves the
 * checks' pages, the page-shape judgement and the engine's search for marked items.
 */
import type { HttpResponse } from './context.js';
import { brief, summarise } from './describe-response.js';
import { isObject } from './json.js';
import { resolvePointer, tokensOf } from './json-pointer.js';
import type { PageEnvelope, PaginationProfile } from './profile.js';

/** The conventions' page (§4): the items in `data`, the next cursor in `next_cursor`; the defaults of `pagination.envelope`'s keys. */
export const conventionalEnvelope: PageEnvelope = { items: '/data', next: '/next_cursor', nextIs: 'cursor' };

/** The envelope a collection's pages are read through: the configured one, else the conventions'. */
export const envelopeOf = (pagination: PaginationProfile): PageEnvelope => pagination.envelope ?? conventionalEnvelope;

/** How a walk's messages name where pages give the next page: `next_cursor`, or the envelope's member (`next`, `/links/next`). */
export function nextMemberName(pagination: PaginationProfile): string {
  const { next } = envelopeOf(pagination);
  return soleMember(next) ?? next;
}

/** A page's items and, cursor style, its next cursor (null at the end; undefined in offset and page style). */
export interface PageContent {
  readonly items: readonly Record<string, unknown>[];
  readonly nextCursor: string | null | undefined;
}

/** Why a body is not a page of the envelope: what was found, then what was expected. */
export interface PageMismatch {
  readonly found: string;
  readonly expected: string;
}

/** A body as a page needs it: the parsed JSON, its text (for messages) and the URL it came from (a relative next URL resolves against it). */
export type PageBody = Pick<HttpResponse, 'json' | 'text' | 'url'>;

/** The member a one-member pointer names (`/data` → `data`); undefined for `""` or a deeper pointer. */
function soleMember(pointer: string): string | undefined {
  const tokens = tokensOf(pointer) ?? [];
  return tokens.length === 1 ? tokens[0] : undefined;
}

/** How a message names what a pointer points at: `"data"` for one member, the pointer for a deeper one. */
function memberName(pointer: string): string {
  const member = soleMember(pointer);
  return member === undefined ? pointer : JSON.stringify(member);
}

/**
 * The items and next cursor of a page, read through `envelope` (default: the configured
 * one, else the conventions'), or what makes the body no such page.
 *
 * @example
 * ```ts
 * const drf = { ...pagination, envelope: { items: '/results', next: '/next', nextIs: 'url' as const } };
 * readEnvelope({ json: { results: [{ id: 1 }], next: '/items?cursor=cD0y' }, text: '…', url: 'http://h/items' }, drf);
 * // { items: [{ id: 1 }], nextCursor: 'cD0y' }
 * ```
 */
export function readEnvelope(page: PageBody, pagination: PaginationProfile, envelope: PageEnvelope = envelopeOf(pagination)): PageContent | PageMismatch {
  const items = readItems(page, envelope);
  if (isMismatch(items)) return items;
  if (pagination.style !== 'cursor') return { items, nextCursor: undefined };
  const next = resolvePointer(page.json, envelope.next);
  const nextName = memberName(envelope.next);
  // A configured envelope's last page may leave its next member out (HAL's _links.next, JSON:API's
  // links.next) or empty (next_cursor: ""): the end. The conventions' own page says null (§4).
  const configured = pagination.envelope !== undefined && envelope === pagination.envelope;
  if (next === null || (configured && (next === undefined || next === ''))) return { items, nextCursor: null };
  if (typeof next !== 'string') {
    const what = envelope.nextIs === 'url' ? "the next page's URL" : 'a string';
    return { found: `${nextName} is ${next === undefined ? 'missing' : brief(next, 40)}`, expected: `${nextName} ${what} or null` };
  }
  if (envelope.nextIs === 'cursor') return { items, nextCursor: next };
  const cursor = cursorInUrl(next, page.url, pagination.param);
  return typeof cursor === 'string' ? { items, nextCursor: cursor } : { found: `${nextName} is ${JSON.stringify(next)}, ${cursor.found}`, expected: cursor.expected };
}

/**
 * The items of a page, where `envelope.items` points, or what makes the body hold none: for
 * a reader that needs no next cursor (a search by mark).
 */
export function readItems(page: PageBody, envelope: PageEnvelope): readonly Record<string, unknown>[] | PageMismatch {
  const items = resolvePointer(page.json, envelope.items);
  const name = memberName(envelope.items);
  if (!Array.isArray(items)) {
    if (envelope.items === '') return { found: `the body is ${summarise(page)}`, expected: "a JSON array of the page's items" };
    if (!isObject(page.json)) return { found: `the body is ${summarise(page)}`, expected: `a JSON object with a ${name} array` };
    return { found: `${name} is ${items === undefined ? 'missing' : brief(items, 40)}`, expected: `a ${name} array of the page's items` };
  }
  if (!items.every(isObject)) return { found: `${name} holds non-objects`, expected: `item representations in ${name}` };
  return items;
}

/**
 * The cursor a next-page URL carries in `param`. Only the cursor is taken: restprobe builds
 * the next page's URL on the base URL itself, so a next URL naming another origin (a backend
 * behind a TLS proxy answers `http://backend:8000/…`) is read, never followed.
 */
function cursorInUrl(next: string, pageUrl: string, param: string): string | PageMismatch {
  let url: URL;
  try {
    url = new URL(next, pageUrl);
  } catch {
    return { found: 'which is no URL', expected: "the next page's URL" };
  }
  const cursor = url.searchParams.get(param);
  if (cursor === null) return { found: `a URL without a "${param}" query parameter`, expected: `the next page's URL with its cursor in "${param}" (pagination.param)` };
  return cursor;
}

/** Whether a read is a mismatch rather than a page. */
export const isMismatch = <T extends object>(read: T | PageMismatch): read is PageMismatch => 'found' in read && 'expected' in read;
