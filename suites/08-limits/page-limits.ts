/** §8.4: every collection has a `limit` with a maximum cap; an unbounded list is never returned. */
import { CheckSkipped, defineCheck } from '../../src/model/check.js';
import type { CollectionProfile } from '../../src/model/profile.js';
import type { CheckContext } from '../../src/model/context.js';
import { brief, describe, ensure, expectStatus } from '../../src/check-kit/expect.js';
import { Unmet, maxCapToFill, needs, type CappedWalk } from '../../src/model/needs.js';
import { createMarked, fetchPage, fetchPageOrEnd, pagePath, positional, readPage, sharedWalkSet, walk, walkDefects, type MarkedSet, type Page } from '../../src/check-kit/pagination.js';

/**
 * The sizes the cap checks fill a collection to, smallest first: just past the common
 * default page sizes (10, 20, 25, 50), then past the cap. A default page that splits a
 * smaller set already shows its bound, so a run fills a collection to its cap only when it
 * must; a step between costs a walk (a page or two), a step too far five items made and deleted.
 */
/** The most items LIM-default-page-bounded adds to a collection as it is, before it fills one of its own instead ({@link fillSteps}' first step, made and deleted, costs twice that many requests and more). */
const topUpAtMost = 5;

function fillSteps(max: number): number[] {
  return [...[11, 21, 26, 51].filter((n) => n <= max), max + 1];
}

/**
 * The cap checks' fill of one collection, for the run: marked items added a step at a time
 * ({@link fillSteps}), all under one mark, so a walk filtered by it lists every step made so
 * far. `alone` keeps steps from being added while a check walks the fill (a walk would meet
 * items it did not expect, or pages shifted under it).
 */
interface Fill {
  /** Runs `f` with the fill to itself: no other check adds a step meanwhile. */
  readonly alone: <T>(f: () => Promise<T>) => Promise<T>;
  /** The largest step made so far: every item made under the fill's mark. */
  largest: MarkedSet | undefined;
}

function fillOf(ctx: CheckContext, c: CappedWalk): Promise<Fill> {
  return ctx.runFixture(`${c.name}: the cap checks' fill`, async () => {
    let tail: Promise<unknown> = Promise.resolve();
    return {
      largest: undefined,
      alone: <T>(f: () => Promise<T>): Promise<T> => {
        const run = tail.then(f);
        tail = run.catch(() => undefined);
        return run;
      },
    };
  });
}

/**
 * Within `fill.alone`: the fill with at least `n` items (a {@link fillSteps} size). Each step
 * is a run fixture made by adding to the step below it, by the first cap check that needs it;
 * the checks only read them. So a run creates at most maxLimit + 1 items for its cap checks
 * however many steps they climb.
 */
async function filledTo(ctx: CheckContext, c: CappedWalk, fill: Fill, n: number): Promise<MarkedSet> {
  if (fill.largest !== undefined && fill.largest.ids.length >= n) return fill.largest;
  const below = fillSteps(c.maxLimit).filter((m) => m < n).at(-1);
  const base = below === undefined ? undefined : await filledTo(ctx, c, fill, below);
  fill.largest = await ctx.runFixture(`${c.name}: ${n} marked items (its cap is ${c.maxLimit})`, async (maker) => {
    if (base === undefined) return createMarked(maker, c, n);
    const more = await createMarked(maker, c, n - base.ids.length, undefined, base.marker);
    return { ...base, items: [...base.items, ...more.items], ids: [...base.ids, ...more.ids] };
  });
  return fill.largest;
}

export const defaultPageBounded = defineCheck({
  id: 'LIM-default-page-bounded',
  title: 'Without limit, pages are bounded and drop nothing',
  rule: 'A collection MUST NOT return an unbounded list: without `limit`, every page MUST hold at most the maximum page size, and the pages MUST together list every item once (none silently dropped).',
  severity: 'must',
  needs: ['collection'],
  uses: ['cappedWalk'],
  // A walk that skips or never ends at a given page size is those checks' finding.
  dependsOn: ['END-get-collection-200'],
  assumes: ['END-pagination-complete-walk', 'END-offset-pages-disjoint'],
  async run(ctx, { collection, cappedWalk: c }) {
    const max = c?.maxLimit ?? collection.pagination.maxLimit;
    // The collection as it is first: default pages that show the bound and drop nothing at it
    // need no fill (a staging database, and a read-only run too).
    const first = await fetchPage(ctx, collection, {});
    withinMax(first, max);
    const shown = first.items.length > 0 ? await boundShown(ctx, collection, first, max) : undefined;
    if (shown !== undefined) return ctx.note(`${collection.name} already lists more than a default page: ${shown}${max === undefined ? '' : ` (the maximum is ${max})`}`);
    if (c === undefined) {
      const why = unfillable(ctx);
      throw new CheckSkipped(`without a limit, ${collection.name} listed ${first.items.length} items and showed no bound, and restprobe may not fill it to show one: ${why.reason}`, why.configKey);
    }
    // A collection a few items short of the smallest step (a staging one nearly empty): those
    // few are made, and the collection read again as it is; a fill of its own is made only
    // where that shows no bound (a larger default page, or other writers moving the pages).
    const short = fillSteps(c.maxLimit)[0]! - first.items.length;
    if (first.items.length > 0 && short > 0 && short <= topUpAtMost) {
      const made: string[] = [];
      for (let i = 0; i < short; i++) made.push((await ctx.create(c)).id);
      const again = await fetchPage(ctx, collection, {});
      withinMax(again, max);
      const now = await boundShown(ctx, collection, again, max, made);
      if (now !== undefined) return ctx.note(`${collection.name} listed ${first.items.length} items; with ${short} more made, ${now}${max === undefined ? '' : ` (the maximum is ${max})`}`);
    }
    const fill = await fillOf(ctx, c);
    await fill.alone(async () => {
      let walked = 0;
      for (const n of fillSteps(c.maxLimit)) {
        const { filters, ids } = await filledTo(ctx, c, fill, n);
        // A larger step already made (by LIM-limit-capped) is walked once.
        if (ids.length === walked) continue;
        walked = ids.length;
        const pages: number[] = [];
        const seen: string[] = [];
        // The default page size is the server's: as small as one item a page. Items a failed
        // attempt at a step left under the mark are walked too.
        for await (const page of walk(ctx, c, { filters }, 2 * ids.length + 2)) {
          withinMax(page, c.maxLimit);
          pages.push(page.items.length);
          seen.push(...idsOf(page, c));
        }
        const defects = walkDefects(ids, seen);
        ensure(defects.length === 0, `walking ${ids.length} items at the default page size ${defects.join('; ')}, expected each once: a default page must not drop items`, `the ${ids.length} items once each`, brief(seen));
        // A first page smaller than what the walk listed is a bound the server keeps (at most the maximum, as checked).
        const listed = new Set(seen).size;
        if (pages[0]! < listed) return ctx.note(`without a limit, ${listed} items came in pages of ${pages[0]} (the maximum is ${c.maxLimit})`);
      }
    });
  },
});

export const limitCapped = defineCheck({
  id: 'LIM-limit-capped',
  title: 'A limit above the maximum is clamped or refused',
  rule: 'A `limit` above the maximum MUST be clamped to at most the maximum or refused with 400 or 422; a page never holds more items than the cap, and without a declared maximum a huge `limit` MUST NOT return an unbounded list.',
  severity: 'must',
  needs: ['collection'],
  uses: ['cappedWalk'],
  dependsOn: ['END-get-collection-200'],
  async run(ctx, { collection, cappedWalk: c }) {
    const max = c?.maxLimit ?? collection.pagination.maxLimit;
    if (max === undefined) return unboundedProbe(ctx, collection);
    // The collection as it is first: a refusal, or a capped page with more items after it, shows
    // the cap without filling the collection (and on a read-only run too).
    const listed = await pageAboveCap(ctx, collection, max, {});
    if (listed === undefined) return;
    if (await moreFollow(ctx, collection, listed)) return ctx.note(`${collection.name} already lists more than ${max} items: limit=${max + 1} answered ${listed.items.length}`);
    if (c === undefined) {
      const key = unfillable(ctx).configKey;
      throw new CheckSkipped(`${collection.name} lists ${listed.items.length} items, no more than its declared maximum of ${max}, and restprobe may not fill it (${key}): a cap shows only on a fuller collection`, key);
    }
    const fill = await fillOf(ctx, c);
    const { filters } = await fill.alone(() => filledTo(ctx, c, fill, max + 1));
    await pageAboveCap(ctx, c, max, filters);
  },
});

/** Why the cap checks may not fill the collection: the capped walk's own unmet need (the check's `uses` left it undefined). */
function unfillable(ctx: CheckContext): Unmet {
  const unmet = needs.cappedWalk.resolve(ctx.profile, {});
  return unmet instanceof Unmet ? unmet : new Unmet('the collection could not be filled', 'collections[].create.body');
}

/** A page fetched without a limit holds at most the maximum page size, or the check fails. */
function withinMax(page: Page, max: number | undefined): void {
  if (max !== undefined) ensure(page.items.length <= max, `${describe(page.res)}: ${page.items.length} items without a limit, expected at most the maximum ${max}`, `≤ ${max}`, String(page.items.length));
}

const idsOf = (page: Page, c: CollectionProfile): string[] => page.items.map((i) => String(i[c.idField]));

/**
 * What the default pages show as the collection is, when they show a bound and drop nothing
 * at it: a second default page (by the next cursor, or at the next offset or page) of other
 * items, which the same positions asked for with a limit also hold (nothing skipped between
 * the pages: for a cursor, the first page's items and one more, where that is within the
 * maximum), and, for offset and page numbers, the first page the same when read again (a list
 * with no bound would now hold another writer's new items, which passed for a second page).
 * Undefined when any of that is not so, or a limited request is refused: no proof either way.
 */
async function boundShown(ctx: CheckContext, c: CollectionProfile, first: Page, max: number | undefined, made?: readonly string[]): Promise<string | undefined> {
  const held = first.items.length;
  if (!positional(c) && typeof first.nextCursor !== 'string') return undefined;
  const next = !positional(c) ? { cursor: first.nextCursor! } : c.pagination.style === 'page' ? { page: 1 } : { offset: held };
  const second = await fetchPageOrEnd(ctx, c, next);
  if (second === undefined) return undefined;
  withinMax(second, max);
  const [one, two] = [idsOf(first, c), idsOf(second, c)];
  if (two.length === 0 || two.some((id) => one.includes(id))) return undefined;
  // An item the check made after the first read, past the first page and on the next (an unbounded
  // page holds them all), and every one it made on the two pages (none dropped): no other writer's
  // item can stand in for them, so the pages need not be read again, which other writers move.
  if (made !== undefined) {
    if (!made.some((id) => two.includes(id)) || !made.every((id) => one.includes(id) || two.includes(id))) return undefined;
    return `without a limit, the first page held ${held} items and the next ${two.length} others, every item made among them`;
  }
  const cursorReach = max === undefined || held + 1 <= max;
  const [limited, want] = positional(c) ? [c.pagination.style === 'page' ? { limit: held, page: 1 } : { limit: held, offset: held }, two] : [{ limit: held + 1 }, [...one, two[0]]];
  if (positional(c) || cursorReach) {
    const res = await ctx.http.send({ method: 'GET', path: pagePath(c, limited) });
    if (res.status !== 200 || idsOf(readPage(res, c), c).join() !== want.join()) return undefined;
  }
  // Both pages read again: the first unchanged, the second still holding one of its items.
  // Another writer's item that came and went between the reads could make an unbounded
  // positional listing look split in two; a bounded one's second page keeps most of its items.
  if (positional(c)) {
    if (idsOf(await fetchPage(ctx, c, {}), c).join() !== one.join()) return undefined;
    const again = await fetchPageOrEnd(ctx, c, next);
    if (again === undefined || !idsOf(again, c).some((id) => two.includes(id))) return undefined;
  }
  const between = positional(c) || cursorReach ? ', with none skipped between them' : '';
  return `without a limit, the first page held ${held} items and the next ${two.length} others${between}`;
}

/** GETs limit=max+1: undefined when refused with 400 or 422, else a page of at most `max` items, or the check fails. */
async function pageAboveCap(ctx: CheckContext, c: CollectionProfile, max: number, filters: Readonly<Record<string, string>>): Promise<Page | undefined> {
  const res = await ctx.http.send({ method: 'GET', path: pagePath(c, { limit: max + 1, filters }) });
  if (res.status === 400 || res.status === 422) {
    ctx.note(`limit=${max + 1} refused with ${res.status}`);
    return undefined;
  }
  expectStatus(res, 200, `a page, or 400/422 for limit=${max + 1}`);
  const page = readPage(res, c);
  ensure(page.items.length <= max, `${describe(res)}: ${page.items.length} items for limit=${max + 1}, expected at most the maximum ${max} (or 400/422)`, `≤ ${max}`, String(page.items.length));
  return page;
}

/**
 * Whether other items follow a non-empty page, read where they would be: the page a next
 * cursor leads to (a keyset cursor without lookahead names the last id on every page, the
 * last too), or (offset and page styles) the next offset, still there when read again; and,
 * there, the page itself the same when read again (another writer's new item at the next
 * offset would make an unbounded page look followed, and the unbounded page would now hold it).
 */
async function moreFollow(ctx: CheckContext, c: CollectionProfile, page: Page): Promise<boolean> {
  const n = page.items.length;
  if (n === 0) return false;
  const first = idsOf(page, c);
  const others = (p: Page | undefined): string[] => (p === undefined ? [] : idsOf(p, c).filter((id) => !first.includes(id)));
  if (!positional(c)) return typeof page.nextCursor === 'string' && others(await fetchPageOrEnd(ctx, c, { cursor: page.nextCursor })).length > 0;
  const nextPage = () => fetchPageOrEnd(ctx, c, { limit: n, offset: n });
  const following = others(await nextPage());
  if (following.length === 0 || !others(await nextPage()).some((id) => following.includes(id))) return false;
  const again = await ctx.http.send({ method: 'GET', url: page.res.url });
  return again.status === 200 && idsOf(readPage(again, c), c).join() === first.join();
}

/** A limit no cap allows: a list that answers it in full is unbounded. */
const hugeLimit = 1_000_000;

/**
 * No maximum declared (or none restprobe can fill past): a huge limit must be refused, or
 * answered with a page that shows a cap (more pages follow). A list too short to show
 * either way is a skip, not a pass.
 */
async function unboundedProbe(ctx: CheckContext, c: CollectionProfile): Promise<void> {
  const res = await ctx.http.send({ method: 'GET', path: pagePath(c, { limit: hugeLimit }) });
  if (res.status === 400 || res.status === 422) return ctx.note(`no maximum page size declared; limit=${hugeLimit} refused with ${res.status}`);
  expectStatus(res, 200, `a page, or 400/422 for limit=${hugeLimit}`);
  const page = readPage(res, c);
  const n = page.items.length;
  // Pages that follow show a cap, however large (Spring Data's default is 2 000 a page).
  if (await moreFollow(ctx, c, page)) return ctx.note(`no maximum page size declared; limit=${hugeLimit} was clamped to ${n} items a page (the observed maximum)`);
  ensure(n <= maxCapToFill, `${describe(res)}: ${n} items for limit=${hugeLimit} and no page after them, an unbounded list, expected a maximum page size (a clamped page, or 400/422)`, `≤ a maximum page size`, `${n} items`);
  throw new CheckSkipped(`no maximum page size declared, and ${c.name} lists only ${n} items: a cap above that cannot be told from none`, 'collections[].pagination.maxLimit');
}

export const limitInvalid400 = defineCheck({
  id: 'LIM-limit-invalid-400',
  title: 'Zero, negative and non-numeric limits are refused or clamped',
  rule: 'A `limit` that is not an integer MUST get 400 or 422, and one that is zero or negative MUST get 400 or 422 or be clamped to 1, as a limit above the maximum may be clamped to it.',
  severity: 'must',
  needs: ['collection'],
  uses: ['anyWalk'],
  dependsOn: ['END-get-collection-200'],
  async run(ctx, { collection, anyWalk }) {
    const c = anyWalk ?? collection;
    // Marked items (more than one) tell a page clamped to one item from an ignored limit.
    const set = anyWalk ? await sharedWalkSet(ctx, anyWalk) : undefined;
    const filters = set?.filters ?? {};
    const available = set ? set.ids.length : (await fetchPage(ctx, c, {})).items.length;
    const send = (limit: string) => ctx.http.send({ method: 'GET', path: `${pagePath(c, { filters })}${Object.keys(filters).length > 0 ? '&' : '?'}${new URLSearchParams({ [c.pagination.limitParam]: limit })}` });
    for (const limit of ['abc', '1.5']) expectStatus(await send(limit), [400, 422], `limit=${limit}`);
    for (const limit of ['0', '-1']) {
      const res = await send(limit);
      expectStatus(res, [400, 422, 200], `limit=${limit}`);
      if (res.status !== 200) continue;
      const { items } = readPage(res, c);
      ensure(items.length <= 1, `${describe(res)}: ${items.length} items for limit=${limit}, expected 400 or 422, or a page clamped to at most 1 item`, '400, 422, or at most 1 item', `${items.length} items`);
      if (available < 2) ctx.note(`limit=${limit} answered 200 with ${items.length} items, but ${c.name} lists fewer than 2 items: clamping cannot be told from an ignored limit (collections[].mark)`);
    }
  },
});

export const pageLimitChecks = [defaultPageBounded, limitCapped, limitInvalid400];
