/**
 * Pages and walks, shared by every pagination check. A walk yields one page at a time,
 * so a caller holds a page plus whatever set of ids it keeps, never the whole collection.
 */
import { randomUUID } from 'node:crypto';
import { CheckFailure } from '../model/check.js';
import type { CheckContext, CreatedResource, HttpResponse } from '../model/context.js';
import type { CollectionProfile } from '../model/profile.js';
import type { WalkableCollection } from '../model/needs.js';
import { brief, describe, ensure, expectJsonObject, expectStatus } from './expect.js';
import { setupError } from './setup.js';

export interface PageQuery {
  readonly limit?: number;
  readonly cursor?: string;
  readonly offset?: number;
  readonly sort?: string;
  readonly filters?: Readonly<Record<string, string>>;
}

export interface Page {
  readonly res: HttpResponse;
  readonly items: readonly Record<string, unknown>[];
  /** `next_cursor` (cursor style); undefined in offset style. */
  readonly nextCursor: string | null | undefined;
}

/** `/v2/projects?label=x&sort=-name&limit=2&cursor=…` */
export function pagePath(c: CollectionProfile, q: PageQuery): string {
  const p = c.pagination;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(q.filters ?? {})) params.set(k, v);
  if (q.sort !== undefined) params.set(p.sortParam, q.sort);
  if (q.limit !== undefined) params.set(p.limitParam, String(q.limit));
  if (q.offset !== undefined) params.set(p.offsetParam, String(q.offset));
  if (q.cursor !== undefined) params.set(p.param, q.cursor);
  const query = params.toString();
  return query ? `${c.path}?${query}` : c.path;
}

/** GETs one page; fails unless it is 200 with a `data` array (and, cursor style, a `next_cursor` string or null). */
export async function fetchPage(ctx: CheckContext, c: CollectionProfile, q: PageQuery): Promise<Page> {
  const res = await ctx.http.send({ method: 'GET', path: pagePath(c, q) });
  expectStatus(res, 200, 'a page of results');
  const body = expectJsonObject(res, 'a page of results');
  const data = body['data'];
  ensure(Array.isArray(data), `${describe(res)}: "data" is not an array, expected the page's items`, 'data: array', typeof data);
  const items = data.filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x));
  ensure(items.length === data.length, `${describe(res)}: "data" holds non-objects, expected item representations`);
  if (c.pagination.style === 'offset') return { res, items, nextCursor: undefined };
  const next = body['next_cursor'];
  ensure(next === null || typeof next === 'string', `${describe(res)}: "next_cursor" is ${JSON.stringify(next)}, expected a string or null`, 'string or null', String(next));
  return { res, items, nextCursor: next };
}

/**
 * Walks every page of a query, following `next_cursor` (cursor style) or stepping the
 * offset (offset style). Fails when the walk does not end within `maxPages`, or when an
 * empty page still points further.
 *
 * A walk filtered by a mark is a fixture: an item outside the filter means the collection
 * ignores it, and the walk cannot show what the check is about (ERR_SETUP). Only the
 * filter check itself passes `judgeFilters` and judges that.
 */
export async function* walk(ctx: CheckContext, c: CollectionProfile, q: Omit<PageQuery, 'cursor' | 'offset'>, maxPages: number, options: { judgeFilters?: boolean } = {}): AsyncGenerator<Page> {
  let cursor: string | undefined;
  let offset = 0;
  for (let n = 1; ; n++) {
    if (n > maxPages) {
      throw new CheckFailure(`the walk did not end within ${maxPages} pages, expected next_cursor to become null after the last item`, `at most ${maxPages} pages`, `more than ${maxPages}`);
    }
    const page = await fetchPage(ctx, c, c.pagination.style === 'offset' ? { ...q, offset } : { ...q, ...(cursor !== undefined && { cursor }) });
    if (!options.judgeFilters) expectFiltered(page, q.filters ?? {}, c);
    // A page larger than asked for means the limit (or its parameter name) is ignored.
    ensure(q.limit === undefined || page.items.length <= q.limit, `${describe(page.res)}: ${page.items.length} items for ${c.pagination.limitParam}=${q.limit}, expected at most ${q.limit}`, `≤ ${q.limit} items`, `${page.items.length}`);
    yield page;
    if (c.pagination.style === 'offset') {
      if (q.limit === undefined || page.items.length < q.limit) return;
      offset += page.items.length;
      continue;
    }
    if (page.nextCursor === null || page.nextCursor === undefined) return;
    ensure(page.items.length > 0, `${describe(page.res)}: an empty page still carries a next_cursor, expected null at the end`, 'next_cursor: null', page.nextCursor);
    cursor = page.nextCursor;
  }
}

/** A page of a marked walk holds only marked items, or the walk is no fixture (see {@link walk}). */
function expectFiltered(page: Page, filters: Readonly<Record<string, string>>, c: CollectionProfile): void {
  const entries = Object.entries(filters);
  const stray = page.items.find((item) => entries.some(([k, v]) => String(item[k]) !== v));
  if (stray === undefined) return;
  const fields = entries.map(([k]) => k).join(', ');
  throw setupError(page.res, `${describe(page.res)} returned item ${String(stray[c.idField])} outside the filter ${brief(filters)}: walks over marked items cannot run (see END-filter-matches)`, `${c.path} ignores the filter on ${fields}`);
}

/**
 * The ids a walk returns, in order (for the small marked sets checks create). The walk's
 * page-size assertion makes a walk over more items than `limit` cross page boundaries.
 */
export async function walkIds(ctx: CheckContext, c: CollectionProfile, q: Omit<PageQuery, 'cursor' | 'offset'>, maxPages: number): Promise<string[]> {
  const ids: string[] = [];
  for await (const page of walk(ctx, c, q, maxPages)) ids.push(...page.items.map((i) => String(i[c.idField])));
  return ids;
}

/** A run-unique marker value. */
export function newMarker(): string {
  return `restprobe-${randomUUID().slice(0, 13)}`;
}

/** Items a check created under one fresh marker, and the filter that lists exactly them. */
export interface MarkedSet {
  readonly marker: string;
  readonly items: readonly CreatedResource[];
  readonly ids: readonly string[];
  readonly filters: Readonly<Record<string, string>>;
}

/** Creates `count` items under a fresh marker, in order; `body(i, marker)` adds fields to each. */
export async function createMarked(
  ctx: CheckContext,
  c: WalkableCollection,
  count: number,
  body: (i: number, marker: string) => Record<string, unknown> = () => ({}),
): Promise<MarkedSet> {
  const marker = newMarker();
  const items: CreatedResource[] = [];
  for (let i = 0; i < count; i++) items.push(await ctx.create(c, { ...body(i, marker), [c.markField]: marker }));
  return { marker, items, ids: items.map((x) => x.id), filters: { [c.markField]: marker } };
}

/** Ids that occur more than once. */
export function duplicates(ids: readonly string[]): string[] {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const id of ids) (seen.has(id) ? dup : seen).add(id);
  return [...dup];
}
