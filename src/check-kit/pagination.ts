/**
 * Pages and walks, shared by every pagination check. A walk yields one page at a time,
 * so a caller holds a page plus whatever set of ids it keeps, never the whole collection.
 */
import { RestprobeError } from '../errors.js';
import { CheckFailure, SetupFailure } from '../model/check.js';
import type { CheckContext, CreatedResource, FixtureMaker, HttpResponse } from '../model/context.js';
import type { CollectionProfile } from '../model/profile.js';
import type { WalkableCollection, WritableCollection } from '../model/needs.js';
import { isSettableSortField } from '../model/needs.js';
import { brief, describe, ensure, expectStatus } from './expect.js';
import { isObject } from '../model/json.js';
import { conventionalEnvelope, envelopeOf, isMismatch, nextMemberName, readEnvelope, readItems, type PageContent, type PageMismatch } from '../model/page-envelope.js';
import { setupError } from './setup.js';
import { anyUnavailable } from '../http/polite.js';
import { versionedUrl } from '../http/session.js';

export interface PageQuery {
  readonly limit?: number;
  readonly cursor?: string;
  readonly offset?: number;
  /** Page style: which page, counted from 0 (the first page's number is added). Without it, `offset` over `limit`. */
  readonly page?: number;
  /** A sort field, `-` first for descending (sent as the collection's syntax says). */
  readonly sort?: string;
  readonly filters?: Readonly<Record<string, string>>;
}

/** A page's items and next cursor (`next_cursor`, or what the envelope names; undefined in offset and page style), with the response. */
export interface Page extends PageContent {
  readonly res: HttpResponse;
}

/** `/v2/projects?label=x&sort=-name&limit=2&cursor=…`, in the collection's own parameter names and syntax. */
export function pagePath(c: CollectionProfile, q: PageQuery): string {
  const p = c.pagination;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(q.filters ?? {})) params.set(k, v);
  if (q.sort !== undefined) {
    const descending = q.sort.startsWith('-');
    if (p.orderParam === undefined) params.set(p.sortParam, q.sort);
    else {
      params.set(p.sortParam, descending ? q.sort.slice(1) : q.sort);
      params.set(p.orderParam, descending ? 'desc' : 'asc');
    }
  }
  if (q.limit !== undefined) params.set(p.limitParam, String(q.limit));
  if (p.style === 'page') {
    const index = q.page ?? pageIndex(q);
    if (index !== undefined) params.set(p.pageParam, String(p.firstPage + index));
  } else if (q.offset !== undefined) params.set(p.offsetParam, String(q.offset));
  if (q.cursor !== undefined) params.set(p.param, q.cursor);
  const query = params.toString();
  return query ? `${c.path}?${query}` : c.path;
}

/** Page style: the page that holds `offset` at `limit` items a page. */
function pageIndex(q: PageQuery): number | undefined {
  if (q.offset === undefined || q.offset === 0) return q.offset;
  if (q.limit === undefined) throw new Error('pagePath: a page-style offset needs a limit to become a page number');
  return Math.floor(q.offset / q.limit);
}

/** Whether pages are positions (offset or page number), which shift under inserts, rather than cursors. */
export const positional = (c: CollectionProfile): boolean => c.pagination.style !== 'cursor';

/**
 * Whether a check judges the page shape itself. Only the checks whose rule it is do
 * (`END-get-collection-200`, and `END-pagination-terminates` for every page of a walk);
 * to every other check a response that is no page is a fixture it cannot use (ERR_SETUP),
 * so one root cause gives one failure.
 */
export interface ShapeOptions {
  readonly judgeShape?: boolean;
}

/** GETs one page; fails unless it is 200 with its items (a `data` array, or where the envelope says) and, cursor style, its next cursor or null. */
export async function fetchPage(ctx: CheckContext, c: CollectionProfile, q: PageQuery, options: ShapeOptions = {}): Promise<Page> {
  return pageOf(await ctx.http.send({ method: 'GET', path: pagePath(c, q) }), c, options);
}

/**
 * A page's answer as a page: 200, read as the collection's style, or the check fails.
 *
 * @example
 * ```ts
 * const page = pageOf(await sharedGet(ctx, { path: c.path }), c, { judgeShape: true });
 * ```
 */
export function pageOf(res: HttpResponse, c: CollectionProfile, options: ShapeOptions = {}): Page {
  expectStatus(res, 200, 'a page of results');
  return readPage(res, c, options);
}

/**
 * {@link fetchPage}, but a page number past the last one answered 404 is the end, undefined:
 * Django REST framework's PageNumberPagination answers so ("Invalid page."), and the
 * conventions say nothing of pages past the end. The first page never is.
 */
export async function fetchPageOrEnd(ctx: CheckContext, c: CollectionProfile, q: PageQuery, options: ShapeOptions = {}): Promise<Page | undefined> {
  return pageOrEnd(ctx, c, q, await ctx.http.send({ method: 'GET', path: pagePath(c, q) }), options);
}

/** {@link fetchPageOrEnd} for an answer already received to the page's GET. */
function pageOrEnd(ctx: CheckContext, c: CollectionProfile, q: PageQuery, res: HttpResponse, options: ShapeOptions): Page | undefined {
  const index = c.pagination.style === 'page' ? (q.page ?? pageIndex(q)) : undefined;
  if (index !== undefined && index > 0 && res.status === 404) {
    ctx.note(`${describe(res)}: a page number past the last page, answered 404 (as Django REST framework does): the end of the pages`);
    return undefined;
  }
  return pageOf(res, c, options);
}

/**
 * GETs one page of a marked query: a page holding an item outside the filter means the
 * collection ignores it, and the page is no fixture (ERR_SETUP, see {@link walk}).
 */
export async function fetchMarkedPage(ctx: CheckContext, c: CollectionProfile, q: PageQuery): Promise<Page> {
  const page = await fetchPage(ctx, c, q);
  expectFiltered(page, q.filters ?? {}, c);
  return page;
}

/**
 * A 200 response as a page of the collection's style, read through the configured envelope
 * (`pagination.envelope`) or, without one, the conventions' `data` and `next_cursor`. Only
 * the checks that judge the shape fail a page the conventions do not describe; to the
 * others a body neither describes is a fixture they cannot use (ERR_SETUP).
 */
export function readPage(res: HttpResponse, c: CollectionProfile, options: ShapeOptions = {}): Page {
  const configured = c.pagination.envelope;
  const problem = pageShapeProblem(res, c);
  if (problem !== undefined && options.judgeShape) {
    const read = configured === undefined ? '' : '; the configured envelope (collections[].pagination.envelope) is what the other page checks read';
    throw new CheckFailure(`${describe(res)}: ${problem.found}, expected ${problem.expected}${read}`, problem.expected, problem.found, res.exchangeIndex, noPage(c));
  }
  if (problem !== undefined && configured === undefined) {
    // A bare array is still the list's items; with no cursor member, a cursor walk may follow it only to its end (see walk).
    const bare = bareItems(res);
    if (bare !== undefined) return { res, items: bare, nextCursor: undefined };
    throw setupError(res, `${describe(res)} is not a page of results (${problem.found}), so this check cannot read it (see END-get-collection-200)`, noPage(c));
  }
  const read = readEnvelope(res, c.pagination);
  if (isMismatch(read)) {
    throw setupError(res, `${describe(res)} does not match the configured page envelope (${read.found}, expected ${read.expected}), so this check cannot read it (see collections[].pagination.envelope)`, `GET ${c.path} answers pages its pagination.envelope does not describe`);
  }
  return { res, ...read };
}

/** A bare array of items: no page (END-get-collection-200 says so, once), but its items are still the list's, for the checks that judge them. */
const bareItems = (res: HttpResponse): readonly Record<string, unknown>[] | undefined => (Array.isArray(res.json) && res.json.every(isObject) ? res.json : undefined);

/**
 * The items a listing holds, for a check that needs only them: through the configured
 * envelope, else the conventions' `data` or a bare array of items; undefined when none.
 */
export function listedItems(res: HttpResponse, c: CollectionProfile): readonly Record<string, unknown>[] | undefined {
  const items = readItems(res, envelopeOf(c.pagination));
  if (!isMismatch(items)) return items;
  return c.pagination.envelope === undefined ? bareItems(res) : undefined;
}

/** The cause every check shares that meets a listing answering no page of the conventions' shape. */
const noPage = (c: CollectionProfile): string => `GET ${c.path} answers no page of results`;

/** What makes a 200 not a page of the collection's style as the conventions (§4) shape it, or undefined when it is one. */
export function pageShapeProblem(res: HttpResponse, c: CollectionProfile): PageMismatch | undefined {
  const read = readEnvelope(res, c.pagination, conventionalEnvelope);
  return isMismatch(read) ? read : undefined;
}

/**
 * Pages a walk may fetch that bring no unseen item, on top of the pages that do, before it
 * is called endless: a store that filters after it scans (DynamoDB-style), or a shared
 * table where the marked items are sparse, answers short and empty pages before the end.
 */
const barrenPagesAllowed = 100;
/** How long a walk may take before it is given up, not judged (a slow walk is no endless one). */
const walkMsAllowed = 60_000;

export interface WalkOptions extends ShapeOptions {
  readonly judgeFilters?: boolean;
  /** Answers to the walk's GETs received already, in order ({@link sharedWalkIds}): each is read where the walk asks that URL, the rest are sent. */
  readonly answered?: readonly HttpResponse[];
  /** Each answer the walk reads, as it reads it. */
  readonly onAnswer?: (res: HttpResponse) => void;
}

/**
 * Walks every page of a query, following `next_cursor` (cursor style), stepping the
 * offset (offset style; without a limit, by the size of the first page) or the page number
 * (page style). Fails when more than `maxPages` pages bring an item the walk has not seen,
 * when a `next_cursor` repeats one the walk already followed (a loop), or when the walk
 * outlasts its requests ({@link barrenPagesAllowed} beyond `maxPages`); a walk that outlasts
 * {@link walkMsAllowed} is not judged (ERR_TIMEOUT). An empty or short page may still carry a `next_cursor`:
 * the conventions ask only that it be null at the end; such pages are noted.
 *
 * A walk filtered by a mark is a fixture: an item outside the filter means the collection
 * ignores it, and the walk cannot show what the check is about (ERR_SETUP). Only the
 * filter check itself passes `judgeFilters` and judges that.
 */
export async function* walk(
  ctx: CheckContext,
  c: CollectionProfile,
  q: Omit<PageQuery, 'cursor' | 'offset'>,
  maxPages: number,
  options: WalkOptions = {},
): AsyncGenerator<Page> {
  const maxRequests = maxPages + barrenPagesAllowed;
  const started = Date.now();
  const seen = new Set<string>();
  const followed = new Set<string>();
  let [progress, barren] = [0, 0];
  let cursor: string | undefined;
  let offset = 0;
  let pageSize = q.limit;
  const endless = (why: string) => {
    const pages = `${progress + barren} pages, ${barren} of them bringing no unseen item`;
    // Every check that walks meets it: one cause, one fix.
    return new CheckFailure(`the walk did not end: ${why} (${pages}), expected ${nextMemberName(c.pagination)} to become null after the last item`, `the end within ${maxPages} pages that bring items`, why, undefined, `walks over ${c.path} do not end`);
  };
  for (let n = 1; ; n++) {
    if (n > maxRequests) throw endless(`still going after ${maxRequests} requests`);
    // Time shows no loop: a run paced under a quota, or held by a Retry-After, walks slowly and ends.
    if (Date.now() - started > walkMsAllowed) {
      throw new RestprobeError('ERR_TIMEOUT', `the walk over ${c.path} was still going after ${walkMsAllowed / 1000} s (${progress + barren} pages, none a loop, ${progress} of at most ${maxPages} bringing unseen items): too slow to tell whether it ends, not judged`, [], { rootCause: `walks over ${c.path} take more than ${walkMsAllowed / 1000} s` });
    }
    const at = c.pagination.style === 'page' ? { page: n - 1 } : { offset };
    const query = positional(c) ? { ...q, ...at } : { ...q, ...(cursor !== undefined && { cursor }) };
    const path = pagePath(c, query);
    const known = options.answered?.[n - 1];
    // The URL as sent: a query-scheme version parameter is added to every request.
    const res = known !== undefined && known.url === versionedUrl(ctx.profile, ctx.http.url(path)) ? known : await ctx.http.send({ method: 'GET', path });
    options.onAnswer?.(res);
    const page = pageOrEnd(ctx, c, query, res, options);
    if (page === undefined) return;
    if (!options.judgeFilters) expectFiltered(page, q.filters ?? {}, c);
    // A page larger than asked for means the limit (or its parameter name) is ignored.
    ensure(q.limit === undefined || page.items.length <= q.limit, `${describe(page.res)}: ${page.items.length} items for ${c.pagination.limitParam}=${q.limit}, expected at most ${q.limit}`, `≤ ${q.limit} items`, `${page.items.length}`);
    const unseen = page.items.filter((i) => !seen.has(String(i[c.idField])));
    for (const i of unseen) seen.add(String(i[c.idField]));
    if (unseen.length > 0) progress++;
    else barren++;
    if (progress > maxPages) throw endless(`more than ${maxPages} pages brought unseen items`);
    yield page;
    if (positional(c)) {
      pageSize ??= page.items.length;
      if (page.items.length === 0 || page.items.length < pageSize) return;
      offset += page.items.length;
      continue;
    }
    if (page.nextCursor === undefined && q.limit !== undefined && page.items.length >= q.limit) {
      // A full page with no cursor member (a bare array): whether more items follow cannot be told.
      throw setupError(page.res, `${describe(page.res)} is a full page with no ${nextMemberName(c.pagination)}, so the walk cannot tell whether more items follow (see END-get-collection-200)`, noPage(c));
    }
    if (page.nextCursor === null || page.nextCursor === undefined) {
      if (barren > 0) ctx.note(`${barren} of the walk's ${n} pages brought no unseen item before ${nextMemberName(c.pagination)} became null (empty or repeated pages: a filtered scan, or sparse items)`);
      return;
    }
    if (followed.has(page.nextCursor)) throw endless(`${describe(page.res)} gave a ${nextMemberName(c.pagination)} the walk had already followed, a loop`);
    followed.add(page.nextCursor);
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
export async function walkIds(ctx: CheckContext, c: CollectionProfile, q: Omit<PageQuery, 'cursor' | 'offset'>, maxPages: number, options: WalkOptions = {}): Promise<string[]> {
  const ids: string[] = [];
  for await (const page of walk(ctx, c, q, maxPages, options)) ids.push(...page.items.map((i) => String(i[c.idField])));
  return ids;
}

/**
 * The answers of a walk of the shared walk set, sent once for the run by the first check
 * that walks `q`, and handed to each check that walks it too (END-sort-honoured's ascending
 * walk is END-sort-ties-deterministic's first, END-pagination-terminates' walk
 * END-pagination-complete-walk's at its size). Each check reads them with its own judgements,
 * as if it had walked; pages past what the sender's walk read are sent. A walk its sender's
 * judgements stopped is not shared: each other check walks for itself.
 *
 * @example
 * ```ts
 * const answers = await sharedWalkAnswers(ctx, c, { limit: 2, filters: set.filters }, pagesFor(7));
 * const ids = await walkIds(ctx, c, { limit: 2, filters: set.filters }, pagesFor(7), { answered: answers });
 * ```
 */
export function sharedWalkAnswers(ctx: CheckContext, c: CollectionProfile, q: Omit<PageQuery, 'cursor' | 'offset'>, maxPages: number, options: WalkOptions = {}): Promise<readonly HttpResponse[]> {
  return ctx.sharedAnswers(
    `the pages of ${ctx.http.url(pagePath(c, q))}`,
    async (sender) => {
      const answers: HttpResponse[] = [];
      for await (const _page of walk(sender, c, q, maxPages, { ...options, onAnswer: (res) => answers.push(res) }));
      return answers;
    },
    (answers, take) => answers.map(take),
    (answers) => !anyUnavailable(answers),
  );
}

/** {@link walkIds} over the answers of {@link sharedWalkAnswers}: the run walks `q` once. */
export async function sharedWalkIds(ctx: CheckContext, c: CollectionProfile, q: Omit<PageQuery, 'cursor' | 'offset'>, maxPages: number, options: WalkOptions = {}): Promise<string[]> {
  return walkIds(ctx, c, q, maxPages, { ...options, answered: await sharedWalkAnswers(ctx, c, q, maxPages, options) });
}

/** Items a check created under one fresh marker, and the filter that lists exactly them. */
export interface MarkedSet {
  readonly marker: string;
  readonly items: readonly CreatedResource[];
  readonly ids: readonly string[];
  readonly filters: Readonly<Record<string, string>>;
}

/**
 * Creates `count` items under a fresh marker (or `marker`, to add to a set), in order;
 * `body(i, marker)` adds fields to each. `ctx` may be a check's context or a run fixture's maker.
 */
export async function createMarked(
  ctx: FixtureMaker,
  c: WalkableCollection,
  count: number,
  body: (i: number, marker: string) => Record<string, unknown> = () => ({}),
  marker = ctx.newMark(),
): Promise<MarkedSet> {
  const items: CreatedResource[] = [];
  for (let i = 0; i < count; i++) items.push(await ctx.create(c, { ...body(i, marker), [c.markField]: marker }));
  return { marker, items, ids: items.map((x) => x.id), filters: { [c.markField]: marker } };
}

/** The sort field the harness can set on the items it creates ({@link isSettableSortField}). */
export const settableSortField = (c: WritableCollection): string | undefined => c.sorts.find((f) => isSettableSortField(c, f));

/** A shared walk set and, where the collection sorts on a field the harness sets, each item's value of it. */
export interface WalkSet extends MarkedSet {
  /** `tied`: four items hold one value; false where the target refused a second item with it (a unique field). */
  readonly sort?: { readonly field: string; readonly values: ReadonlyMap<string, string>; readonly tied: boolean };
}

/**
 * Created out of order, so creation order never passes for sorted order; 7 items cross page
 * boundaries at 1, 2 and 3 a page. Four are tied on the highest sort value (`d`), so pages of
 * 1 and 2 items end inside the tie in either direction: END-sort-ties-deterministic walks them
 * where it would make a set of its own. A field the target keeps unique refuses the second
 * `d`: from there the set takes {@link untiedLetters} (all seven values distinct).
 */
const walkSetLetters = ['c', 'a', 'd', 'b', 'd', 'd', 'd'];
const untiedLetters = ['c', 'a', 'd', 'b', 'g', 'e', 'f'];

/**
 * Marked items that checks only read (walk, page through, take a cursor from), one set per
 * collection for the run, made by the first check that asks: each such check would otherwise
 * create and delete a set of its own. With a sort field the harness sets, the items hold
 * values out of creation order, four of them tied where the field takes ties, so the sort
 * checks read the set too. A check that writes under the mark (inserts, deletes, moves) or
 * needs other values makes its own set.
 */
export async function sharedWalkSet(ctx: CheckContext, c: WalkableCollection): Promise<WalkSet> {
  const field = settableSortField(c);
  return ctx.runFixture(`${c.name}: ${walkSetLetters.length} marked items to walk`, async (maker) => {
    if (!field) return createMarked(maker, c, walkSetLetters.length);
    const marker = maker.newMark();
    const items: CreatedResource[] = [];
    const values = new Map<string, string>();
    const make = async (letter: string): Promise<void> => {
      const value = `${marker}-${letter}`;
      const item = await maker.create(c, { [field]: value, [c.markField]: marker });
      items.push(item);
      values.set(item.id, value);
    };
    let tied = true;
    for (let i = 0; i < walkSetLetters.length; i++) {
      const letter = tied ? walkSetLetters[i]! : untiedLetters[i]!;
      try {
        await make(letter);
      } catch (refused) {
        // Only a value another item holds may be refused for that (a unique field); anything else is the create's own failure.
        if (!tied || letter === untiedLetters[i] || !(refused instanceof SetupFailure)) throw refused;
        tied = false;
        await make(untiedLetters[i]!);
      }
    }
    return { marker, items, ids: items.map((x) => x.id), filters: { [c.markField]: marker }, sort: { field, values, tied } };
  });
}

/** Expected ids missing from a walk, and ids it returned more than once, as message parts. */
export function walkDefects(expected: readonly string[], got: readonly string[]): string[] {
  const seen = new Set(got);
  const missing = expected.filter((id) => !seen.has(id));
  const twice = duplicates(got);
  return [...(missing.length > 0 ? [`missing ${brief(missing)}`] : []), ...(twice.length > 0 ? [`repeated ${brief(twice)}`] : [])];
}

/** Ids that occur more than once. */
export function duplicates(ids: readonly string[]): string[] {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const id of ids) (seen.has(id) ? dup : seen).add(id);
  return [...dup];
}
