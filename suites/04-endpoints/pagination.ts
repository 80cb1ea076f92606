/**
 * §4 collection query parameters: cursor and offset pagination, sorting and filters.
 * Every walk runs over items the check created and marked, so it holds on a shared
 * staging database as well as on an empty one.
 */
import type { Arbitrary, WeightedArbitrary } from 'fast-check';
import { fastCheck } from '../../src/check-kit/lazy-libraries.js';
import { CheckFailure, defineCheck } from '../../src/model/check.js';
import type { CheckContext, CreatedResource, HttpResponse } from '../../src/model/context.js';
import type { CollectionProfile } from '../../src/model/profile.js';
import { supports, type WalkableCollection } from '../../src/model/needs.js';
import { isObject } from '../../src/model/json.js';
import { envelopeOf, isMismatch, readItems } from '../../src/model/page-envelope.js';
import { brief, describe, ensure, expectStatus } from '../../src/check-kit/expect.js';
import { checkProperty } from '../../src/check-kit/property.js';
import { createMarked, fetchMarkedPage, fetchPageOrEnd, pagePath, settableSortField, sharedWalkAnswers, sharedWalkIds, sharedWalkSet, walk, walkDefects, walkIds, type MarkedSet, type PageQuery, type WalkSet } from '../../src/check-kit/pagination.js';
import { setupError } from '../../src/check-kit/setup.js';
import { createdItemUrl } from '../../src/check-kit/created-url.js';

/** Page size for walks over small marked sets: several pages, every boundary crossed. */
const small = 2;

/** Pages a walk over `n` items, `limit` a page, may take before it is called endless. */
const pagesFor = (n: number, limit = small): number => Math.ceil(n / limit) + 3;

export const paginationTerminates = defineCheck({
  id: 'END-pagination-terminates',
  title: 'A cursor walk ends with next_cursor null',
  rule: 'Every page MUST carry `data` and `next_cursor`, and `next_cursor` MUST be null at the end, so a walk terminates.',
  severity: 'must',
  needs: ['cursorWalk'],
  dependsOn: ['END-get-collection-200'],
  async run(ctx, { cursorWalk: c }) {
    const { filters, ids } = await sharedWalkSet(ctx, c);
    let pages = 0;
    // The walk at 2 a page END-pagination-complete-walk reads too, sent once.
    const answered = await sharedWalkAnswers(ctx, c, { limit: small, filters }, pagesFor(ids.length), { judgeShape: true });
    for await (const page of walk(ctx, c, { limit: small, filters }, pagesFor(ids.length), { judgeShape: true, answered })) {
      pages++;
      ctx.note(`page ${pages}: ${page.items.length} items, next_cursor ${page.nextCursor === null ? 'null' : 'set'}`);
    }
  },
});

export const paginationCompleteWalk = defineCheck({
  id: 'END-pagination-complete-walk',
  title: 'A walk returns every item exactly once',
  rule: 'Walking every page of a collection MUST return each item exactly once, at every page size (walked at 1, 2 and 3 items a page).',
  severity: 'must',
  needs: ['cursorWalk'],
  dependsOn: ['END-pagination-terminates'],
  async run(ctx, { cursorWalk: c }) {
    const created = await sharedWalkSet(ctx, c);
    // Page-boundary bugs can show at one page size only.
    for (const limit of [1, 2, 3]) {
      const ids = await sharedWalkIds(ctx, c, { limit, filters: created.filters }, pagesFor(created.ids.length, limit));
      const defects = walkDefects(created.ids, ids);
      ensure(defects.length === 0, `the walk at limit=${limit} ${defects.join('; ')}, expected each of the ${created.ids.length} items once`, brief(created.ids), brief(ids));
      ensure(ids.length === created.ids.length, `the walk at limit=${limit} returned ${ids.length} items, expected the ${created.ids.length} marked ones`);
    }
  },
});

/** `to`: where an insert or a move lands in the sort order, with a sort field the harness sets: just after the item at position `to` (0–5 hold the walk's items; 6–9 are past the last). */
type WalkOp = { kind: 'next' } | { kind: 'insert'; to: number } | { kind: 'delete'; pick: number } | { kind: 'move'; pick: number; to: number };

/** Interleavings of page fetches with inserts, deletes and (with a settable sort field) moves. */
function walkOps(canMove: boolean): Arbitrary<WalkOp[]> {
  const fc = fastCheck();
  const ops: WeightedArbitrary<WalkOp>[] = [
    { arbitrary: fc.constant({ kind: 'next' as const }), weight: 3 },
    { arbitrary: fc.nat({ max: 9 }).map((to) => ({ kind: 'insert' as const, to })), weight: 1 },
    { arbitrary: fc.nat({ max: 5 }).map((pick) => ({ kind: 'delete' as const, pick })), weight: 1 },
  ];
  if (canMove) ops.push({ arbitrary: fc.record({ kind: fc.constant('move' as const), pick: fc.nat({ max: 5 }), to: fc.nat({ max: 9 }) }), weight: 1 });
  return fc.array(fc.oneof(...ops), { minLength: 1, maxLength: 8 });
}

/** One interleaving and the page size its walk uses. */
interface WalkCase {
  readonly limit: number;
  readonly ops: readonly WalkOp[];
}

const showCase = ({ limit, ops }: WalkCase): string =>
  `limit=${limit}: ${ops.map((o) => (o.kind === 'delete' ? `delete #${o.pick}` : o.kind === 'move' ? `move #${o.pick} to position ${o.to}` : o.kind === 'insert' ? `insert at position ${o.to}` : o.kind)).join(', ')}`;

export const paginationStableUnderWrites = defineCheck({
  id: 'END-pagination-stable-under-writes',
  title: 'Cursor pages stay correct while items are inserted, deleted and moved',
  rule: 'While items are inserted, deleted, or moved by an update of the sort field during a cursor walk at any page size, every item left untouched for the whole walk MUST appear exactly once and none twice.',
  severity: 'must',
  // A property over writes: hundreds of requests.
  slow: true,
  needs: ['cursorWalk'],
  assumes: ['END-filter-matches'],
  async run(ctx, { cursorWalk: c }) {
    // With a sort field the harness can set, the walk is sorted by it and items can move.
    const sortField = settableSortField(c);
    const patchable = supports(c, 'PATCH');
    // A move is a PATCH of the sort field.
    const moves = sortField !== undefined && patchable;
    if (!sortField) ctx.note('no sortable string field in the create body: moves are not interleaved (collections[].sorts)');
    else if (!patchable) ctx.note(`${c.name} takes no PATCH: moves are not interleaved (collections[].methods)`);
    // The page size is part of the input: 1, 2, 3 … up to the cap, or one past the items.
    const maxLimit = Math.min(c.pagination.maxLimit ?? initialItems + 2, initialItems + 2);
    const pool: ItemPool = { recycle: patchable, slots: [], loose: [], parked: [] };
    const fc = fastCheck();
    await checkProperty(ctx, {
      arbitrary: fc.record({ limit: fc.integer({ min: 1, max: maxLimit }), ops: walkOps(moves) }),
      examples: [
        { limit: small, ops: [{ kind: 'next' }, { kind: 'delete', pick: 0 }, { kind: 'next' }] },
        // Inserted behind the walk's position (with a sort field; else at the end): an offset in disguise repeats an item.
        { limit: Math.min(3, maxLimit), ops: [{ kind: 'next' }, { kind: 'insert', to: 0 }, { kind: 'next' }] },
        // An item moved behind the walk's position, another ahead of it.
        ...(moves ? [{ limit: small, ops: [{ kind: 'next' as const }, { kind: 'move' as const, pick: 0, to: 9 }, { kind: 'move' as const, pick: 4, to: 0 }, { kind: 'next' as const }] }] : []),
      ],
      // The targeted cases above come first; each random case walks a fresh set of items (taken over from the case before, where PATCH is served).
      randomCases: randomWalkCases,
      show: showCase,
      predicate: async (input) => {
        try {
          await walkWithWrites(ctx, c, sortField, input, pool);
        } finally {
          // Without PATCH, each run's items are deleted before the next run makes more.
          if (!pool.recycle) await ctx.cleanup();
        }
      },
    });
  },
});

/**
 * Random interleavings tried after the targeted ones, unless `properties.numRuns` says how
 * many: each costs about 12 requests (its items moved under its mark, or made and deleted), and the targeted ones
 * already put a delete, an insert and moves behind and ahead of the walk at two page sizes.
 */
const randomWalkCases = 1;

/** Items each interleaving starts from. */
const initialItems = 6;

/** A sort value of a case's mark at position `n`, spaced out so a move can land between any two. */
const position = (marker: string, n: number) => `${marker}-${String(n * 10).padStart(3, '0')}`;

/**
 * The items interleavings share where PATCH is served: one mark for them all, and its items
 * by sort position. A case's writes free the positions of the items it moved or deleted, and
 * leave items off them (moved, inserted); before the next walk those fill the free positions
 * with one PATCH each (none without a sort field), the rest are parked under a mark of their
 * own, out of every walk, and only what is still missing is created.
 */
interface ItemPool {
  recycle: boolean;
  marker?: string;
  /** The mark's item at each position; undefined where a case's write freed it. */
  readonly slots: (CreatedResource | undefined)[];
  /** Under the mark, off every position: placed or parked before the next walk. */
  readonly loose: CreatedResource[];
  /** Under another mark, out of the walks: placed where a position is free. */
  readonly parked: CreatedResource[];
  parkMark?: string;
}

/**
 * An interleaving's items: `initialItems` under the pool's mark at their sort positions (or,
 * without PATCH, under a fresh mark each, created). Items the earlier interleavings left are
 * taken over where their PATCH answers show the values sent; where one does not, recycling
 * stops and a fresh set is created. Taken-over items end the check's way: deleted at its end.
 */
async function itemsForCase(ctx: CheckContext, c: WalkableCollection, sortField: string | undefined, pool: ItemPool): Promise<MarkedSet> {
  if (pool.recycle && pool.marker !== undefined) {
    const marker = pool.marker;
    for (let i = 0; i < initialItems && pool.recycle; i++) {
      if (pool.slots[i] !== undefined) continue;
      // The mark is sent with the position: a PATCH that resets what it does not name (a fault of its own) keeps the item under it.
      const at = { [c.markField]: marker, ...(sortField && { [sortField]: position(marker, i) }) };
      const loose = pool.loose.shift();
      // Without a sort field (so no moves), a loose item was inserted under the mark: it takes a free position as it is.
      if (loose !== undefined && !sortField) {
        pool.slots[i] = loose;
        continue;
      }
      const item = loose ?? pool.parked.shift();
      pool.slots[i] = item === undefined ? await ctx.create(c, at) : await takeOver(ctx, item, at, pool);
    }
    while (pool.recycle && pool.loose.length > 0) {
      const parked = await takeOver(ctx, pool.loose.shift()!, { [c.markField]: (pool.parkMark ??= ctx.newMark()) }, pool);
      if (parked !== undefined) pool.parked.push(parked);
    }
    if (pool.recycle) {
      const items = [...pool.slots] as CreatedResource[];
      return { marker, items, ids: items.map((x) => x.id), filters: { [c.markField]: marker } };
    }
  }
  const marker = ctx.newMark();
  const made = await createMarked(ctx, c, initialItems, (i) => (sortField ? { [sortField]: position(marker, i) } : {}), marker);
  if (pool.recycle) {
    pool.marker = marker;
    pool.slots.splice(0, pool.slots.length, ...made.items);
  }
  return made;
}

/** PATCHes `fields` onto an earlier interleaving's item; undefined, and no recycling from here on, when the answer does not show them. */
async function takeOver(ctx: CheckContext, item: CreatedResource, fields: Record<string, unknown>, pool: ItemPool): Promise<CreatedResource | undefined> {
  const res = await ctx.http.send({ method: 'PATCH', url: item.url, json: fields });
  const shown = res.status === 200 && isObject(res.json) ? res.json : undefined;
  if (shown === undefined || !Object.entries(fields).every(([k, v]) => shown[k] === v)) {
    pool.recycle = false;
    ctx.note(`${describe(res)} to move an earlier interleaving's item does not show ${brief(fields)}: each interleaving makes its own items`);
    return undefined;
  }
  return { ...item, sent: fields, body: shown, response: res };
}

/**
 * One interleaving: a walk over marked items with writes between page fetches. Items an
 * operation touched may rightly appear twice (moved ahead) or not at all (deleted, moved
 * behind); every other item must appear exactly once.
 */
async function walkWithWrites(ctx: CheckContext, c: WalkableCollection, sortField: string | undefined, input: WalkCase, pool: ItemPool): Promise<void> {
  const { limit, ops } = input;
  const { marker, items, filters } = await itemsForCase(ctx, c, sortField, pool);
  const touched = new Set<string>();
  // What the next interleaving may take over: the items it deleted are gone.
  const deleted = new Set<string>();
  const inserted: CreatedResource[] = [];
  const seen: string[] = [];
  const pages = walk(ctx, c, { limit, filters, ...(sortField && { sort: sortField }) }, pagesFor(initialItems + ops.length, limit) + ops.length);
  let done = false;
  const next = async () => {
    const r = await pages.next();
    if (r.done) done = true;
    else seen.push(...r.value.items.map((i) => String(i[c.idField])));
  };
  const pick = (n: number) => {
    const live = items.filter((x) => !touched.has(x.id));
    return live[n % Math.max(live.length, 1)];
  };
  try {
    for (const [k, op] of ops.entries()) {
      if (op.kind === 'next' && !done) await next();
      else if (op.kind === 'insert') inserted.push(await ctx.create(c, { [c.markField]: marker, ...(sortField && { [sortField]: `${position(marker, op.to)}-new-${k}` }) }));
      else if (op.kind === 'delete' || op.kind === 'move') {
        const victim = pick(op.pick);
        if (!victim) continue;
        touched.add(victim.id);
        if (op.kind === 'delete') deleted.add(victim.id);
        const spec = op.kind === 'delete' ? { method: 'DELETE', url: victim.url } : { method: 'PATCH', url: victim.url, json: { [sortField!]: `${position(marker, op.to)}-moved` } };
        expectStatus(await ctx.http.send(spec), op.kind === 'delete' ? [200, 202, 204] : [200, 204], `${spec.method} during the walk`);
      }
    }
    while (!done) await next();
  } finally {
    // The positions of the items this walk moved or deleted are free for the next; what it moved or inserted is loose.
    if (pool.recycle) {
      for (const [i, x] of items.entries()) if (touched.has(x.id)) pool.slots[i] = undefined;
      pool.loose.push(...items.filter((x) => touched.has(x.id) && !deleted.has(x.id)), ...inserted);
    }
  }
  const untouched = items.filter((x) => !touched.has(x.id)).map((x) => x.id);
  // Only this walk's items are judged: one an earlier walk could not remove (a DELETE answered 202) may still be listed under the shared mark.
  const own = new Set([...items.map((x) => x.id), ...inserted.map((x) => x.id)]);
  const defects = walkDefects(untouched, seen.filter((id) => own.has(id) && !touched.has(id)));
  if (defects.length > 0) {
    throw new CheckFailure(`during [${showCase(input)}] the walk ${defects.join('; ')}; expected every untouched item exactly once`, brief(untouched), brief(seen));
  }
}

/** The shared walk set of `c` with its values of `field`, which the sort checks read. */
async function sortedWalkSet(ctx: CheckContext, c: WalkableCollection, field: string): Promise<WalkSet & { sort: NonNullable<WalkSet['sort']> }> {
  const set = await sharedWalkSet(ctx, c);
  if (set.sort?.field !== field) throw new Error(`the shared walk set of ${c.name} holds no values of ${field}`);
  return { ...set, sort: set.sort };
}

/** Ids of `set` that share their sort value with another of its items. */
const tiedIds = (set: { sort: NonNullable<WalkSet['sort']> }): string[] => {
  const values = [...set.sort.values.values()];
  return [...set.sort.values].filter(([, v]) => values.indexOf(v) !== values.lastIndexOf(v)).map(([id]) => id);
};

export const sortHonoured = defineCheck({
  id: 'END-sort-honoured',
  title: 'sort orders ascending and descending, and refuses unknown fields',
  rule: '`sort=<field>` MUST order items ascending and `sort=-<field>` descending, across pages; an unknown sort field is bad input and MUST get 400 or 422.',
  severity: 'must',
  needs: ['sortableWalk'],
  assumes: ['END-filter-matches', 'END-offset-pages-disjoint'],
  async run(ctx, { sortableWalk: c }) {
    const field = c.sortField;
    // The shared set's values on the sort field were given out of creation order.
    const created = await sortedWalkSet(ctx, c, field);
    const idOf = created.sort.values;
    const values = [...idOf.values()];
    const tied = new Set(tiedIds(created));
    for (const [sort, cmp] of [[field, 1], [`-${field}`, -1]] as const) {
      // The ascending walk is END-sort-ties-deterministic's first, sent once.
      const ids = await sharedWalkIds(ctx, c, { limit: small, sort, filters: created.filters }, pagesFor(values.length));
      const got = ids.map((id) => idOf.get(id) ?? `(unknown ${id})`);
      const order = (a: string, b: string) => cmp * (a < b ? -1 : a > b ? 1 : 0);
      const want = [...values].sort(order);
      if (got.join() === want.join()) continue;
      // Tied items missing or repeated, the others in order, are END-sort-ties-deterministic's finding.
      const inOrder = got.every((v, i) => i === 0 || order(got[i - 1]!, v) <= 0);
      const wrong = [...new Set(ids.filter((id, i) => !idOf.has(id) || ids.indexOf(id) !== i)), ...created.ids.filter((id) => !ids.includes(id))];
      if (inOrder && wrong.every((id) => tied.has(id))) {
        ctx.note(`sort=${sort} returned ${field} in the order ${brief(got)}: in order, with tied items missing or repeated, which END-sort-ties-deterministic judges`);
        continue;
      }
      ensure(false, `sort=${sort} returned ${field} in the order ${brief(got)}, expected ${brief(want)}`, brief(want), brief(got));
    }
    const res = await ctx.http.send({ method: 'GET', path: pagePath(c, { sort: 'restprobe_no_such_field', limit: small }) });
    expectStatus(res, [400, 422], 'sort on an unknown field');
  },
});

export const sortTiesDeterministic = defineCheck({
  id: 'END-sort-ties-deterministic',
  title: 'Ties on the sort field are broken deterministically',
  rule: 'When the sort field is not unique the server MUST break ties (by id), so walks return every tied item exactly once, in the same order every time.',
  severity: 'must',
  needs: ['sortableWalk'],
  assumes: ['END-filter-matches', 'END-offset-pages-disjoint'],
  async run(ctx, { sortableWalk: c }) {
    const field = c.sortField;
    // The shared set holds items tied on the field, which pages end inside; where the target
    // refused the tie there (a unique field), the check makes a tied set of its own, as refusable.
    const shared = await sortedWalkSet(ctx, c, field);
    const own = shared.sort.tied ? undefined : await createMarked(ctx, c, 6, (_i, marker) => ({ [field]: `${marker}-tie` }));
    const tied = own ? own.ids : tiedIds(shared);
    const set = own ?? shared;
    const size = set.ids.length;
    const filters = set.filters;
    const tiedIn = (walked: readonly string[]) => walked.filter((id) => tied.includes(id));
    // Both directions on the shared set (END-sort-honoured's walks, sent once); the ascending one twice.
    let first: string[] = [];
    for (const sort of own ? [field] : [field, `-${field}`]) {
      const walked = tiedIn(await (own ? walkIds : sharedWalkIds)(ctx, c, { limit: small, sort, filters }, pagesFor(size)));
      const defects = walkDefects(tied, walked);
      ensure(defects.length === 0, `a walk with sort=${sort} over ${size} items, ${tied.length} of them tied on ${field}, ${defects.join('; ')}, expected each tied item once`, brief(tied), brief(walked));
      if (sort === field) first = walked;
    }
    const second = tiedIn(await walkIds(ctx, c, { limit: small, sort: field, filters }, pagesFor(size)));
    ensure(first.join() === second.join(), `two walks over items tied on ${field} came in different orders (${brief(first)} then ${brief(second)}), expected one deterministic order`, brief(first), brief(second));
  },
});

/** An item of a marked set and the values of its filterable fields. */
interface Member {
  readonly id: string;
  readonly values: Readonly<Record<string, unknown>>;
}

const isScalar = (v: unknown): v is string | number | boolean => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/**
 * Another value for a string field that does not hold `value` in any case: a contains or prefix
 * filter (django-filter's icontains, Sequelize's iLike '%v%', a Mongoose RegExp) would match
 * one that held it, and rightly list the item.
 */
function notHolding(value: string): string {
  const lower = value.toLowerCase();
  return ['restprobe-other', 'zzqq-other', 'qqzz', '0x0x'].find((v) => !v.includes(lower) && !lower.includes(v)) ?? `${value.replace(/./g, (ch) => (ch === 'z' ? 'y' : 'z'))}`;
}

/**
 * Marked items made to differ from `value` in `field`: one created without the field (so
 * it takes its default), then, for a string, one with another value, until one differs.
 * Their values are read back, since the server decides them; every item made is returned,
 * differing or not, as it belongs to the marked set.
 */
async function differingMembers(ctx: CheckContext, c: WalkableCollection, marker: string, field: string, value: string | number | boolean): Promise<Member[]> {
  const { [field]: _omitted, ...withoutField } = c.createBody;
  const attempts = [withoutField, ...(typeof value === 'string' ? [{ ...c.createBody, [field]: notHolding(value) }] : [])];
  const made: Member[] = [];
  for (const body of attempts) {
    const res = await ctx.sendCreating(c, { method: 'POST', path: c.path, json: { ...body, [c.markField]: marker } });
    const { url } = createdItemUrl(ctx.profile, res, c);
    if (res.status < 200 || res.status > 299 || url === undefined) continue;
    const got = await ctx.http.send({ method: 'GET', url });
    if (got.status !== 200 || typeof got.json !== 'object' || got.json === null) throw setupError(got, `reading back an item made to differ in ${field}: ${describe(got)} (see END-get-item-200)`);
    const values = got.json as Record<string, unknown>;
    made.push({ id: String(values[c.idField]), values });
    if (String(values[field]) !== String(value)) break;
  }
  return made;
}

export const filterMatches = defineCheck({
  id: 'END-filter-matches',
  title: 'Filters return only matching items, across pages',
  rule: 'A filter `?<field>=<value>` MUST return only items whose field equals the value, and every such item, on every page (judged on items that differ in the field).',
  severity: 'must',
  needs: ['anyWalk'],
  // A walk that drops or repeats items (cursor or offset) would look like a filter problem.
  assumes: ['END-pagination-complete-walk', 'END-offset-pages-disjoint'],
  async run(ctx, { anyWalk: c }) {
    const matching = await createMarked(ctx, c, 3);
    // Items under another mark, which the mark filter must leave out.
    await sharedWalkSet(ctx, c);
    const members: Member[] = matching.ids.map((id) => ({ id, values: c.createBody }));
    const queries: Readonly<Record<string, string>>[] = [matching.filters];
    for (const f of c.filters) {
      const v = c.createBody[f];
      if (f === c.markField || !isScalar(v)) continue;
      // Items that all hold the value would pass a server that ignores the filter.
      const made = await differingMembers(ctx, c, matching.marker, f, v);
      members.push(...made);
      if (!made.some((m) => String(m.values[f]) !== String(v))) ctx.note(`no ${c.name} item could be made that differs in ${f} (omitting it, or another value, was refused or kept ${JSON.stringify(v)}): ${f}= is judged on matching items only`);
      queries.push({ ...matching.filters, [f]: String(v) });
    }
    for (const filters of queries) {
      const expected = members.filter((m) => Object.entries(filters).every(([k, v]) => k === c.markField || String(m.values[k]) === v)).map((m) => m.id);
      const seen: string[] = [];
      for await (const page of walk(ctx, c, { limit: small, filters }, pagesFor(members.length), { judgeFilters: true })) {
        for (const item of page.items) {
          const off = Object.entries(filters).filter(([k, v]) => String(item[k]) !== v);
          ensure(off.length === 0, `${describe(page.res)} returned item ${String(item[c.idField])} with ${off.map(([k]) => `${k}=${JSON.stringify(item[k])}`).join(', ')}, expected only items matching ${brief(filters)}`, brief(filters), brief(item));
          seen.push(String(item[c.idField]));
        }
      }
      const defects = walkDefects(expected, seen);
      ensure(defects.length === 0 && seen.length === expected.length, `filter ${brief(filters)}: the walk ${defects.join('; ') || `returned ${seen.length} items`}, expected the ${expected.length} matching items once each`, brief(expected), brief(seen));
    }
  },
});

/** Variants of a real cursor: altered, cut, extended. Any of them may still decode to a position. */
export function tamperings(cursor: string): Record<string, string> {
  const mid = Math.floor(cursor.length / 2);
  const flip = cursor[mid] === 'A' ? 'B' : 'A';
  const all = {
    'one character changed': cursor.slice(0, mid) + flip + cursor.slice(mid + 1),
    truncated: cursor.slice(0, Math.max(1, mid)),
    'garbage appended': `${cursor}x!`,
  };
  // A one-character cursor (a raw id on a fresh database) cut is the cursor itself: no tampering.
  return Object.fromEntries(Object.entries(all).filter(([, v]) => v !== cursor));
}

/** A string no server issued as a cursor: it decodes to no position, so only a 4xx answers it. */
const notACursor = 'restprobe-not-a-cursor';

/** A request with a cursor the server did not issue for it, and the items a page answering it may hold. */
interface CursorProbe {
  readonly how: string;
  readonly res: HttpResponse;
  readonly collection: CollectionProfile;
  /** The ids the query lists; undefined on another collection, whose items the check did not make. */
  readonly allowed?: ReadonlySet<string>;
  /** No page can answer it: the cursor cannot be decoded. */
  readonly undecodable?: boolean;
}

/**
 * The cursor probes' answers, sent once per collection for the run: both tamper checks
 * judge the same answers (one for a 4xx or the query's own items, one for a 4xx only), each
 * holding them in its own evidence.
 */
function cursorProbes(ctx: CheckContext, c: WalkableCollection): Promise<CursorProbe[]> {
  return ctx.sharedAnswers(`cursor probes [${c.name}]`, (sender) => sendCursorProbes(sender, c), (sent, take) => sent.map((p) => ({ ...p, res: take(p.res) })));
}

/**
 * Sends altered and foreign cursors: the tamperings of a real cursor on its own query,
 * that cursor with another filter, with another sort, and on another cursor-paginated
 * collection when one is configured. The other filter is a fresh mark that lists nothing:
 * any item a page answers it with is one the query does not list.
 */
async function sendCursorProbes(ctx: CheckContext, c: WalkableCollection): Promise<CursorProbe[]> {
  const mine = await sharedWalkSet(ctx, c);
  const other = { filters: { [c.markField]: ctx.newMark() }, ids: [] };
  const first = await fetchMarkedPage(ctx, c, { limit: 1, filters: mine.filters });
  const cursor = first.nextCursor;
  if (typeof cursor !== 'string') throw setupError(first.res, `${describe(first.res)}: no next_cursor on the first of ${mine.ids.length} pages, so there is no cursor to alter (see END-pagination-terminates)`);
  const probes: CursorProbe[] = [];
  const send = async (how: string, collection: CollectionProfile, q: PageQuery, allowed?: readonly string[], undecodable = false) => {
    const res = await ctx.http.send({ method: 'GET', path: pagePath(collection, q) });
    probes.push({ how, res, collection, undecodable, ...(allowed && { allowed: new Set(allowed) }) });
  };
  for (const [how, bad] of Object.entries(tamperings(cursor))) await send(`a cursor with ${how}`, c, { limit: 1, cursor: bad, filters: mine.filters }, mine.ids);
  await send(`${JSON.stringify(notACursor)} as the cursor`, c, { limit: 1, cursor: notACursor, filters: mine.filters }, mine.ids, true);
  await send('a cursor issued for another filter', c, { limit: 1, cursor, filters: other.filters }, other.ids);
  const sort = c.sorts[0];
  if (sort !== undefined) await send(`a cursor issued for the default order, used with sort=-${sort}`, c, { limit: 1, cursor, filters: mine.filters, sort: `-${sort}` }, mine.ids);
  const otherCollection = ctx.collections.find((x) => x.path !== c.path && x.pagination.style === 'cursor');
  if (otherCollection) await send(`a ${c.name} cursor on ${otherCollection.name}`, otherCollection, { limit: 1, cursor });
  return probes;
}

/** Why a cursor probe's answer is neither a refusal nor a page of the query's own items; undefined when it is one of them. */
function wrongCursorAnswer(p: CursorProbe): string | undefined {
  const { res } = p;
  if (res.status >= 400 && res.status < 500) return undefined;
  if (res.status !== 200) return `${p.how}: ${describe(res)}`;
  // The items are what this check judges: a page's next member is END-pagination-terminates'.
  const items = readItems(res, envelopeOf(p.collection.pagination));
  if (isMismatch(items)) return `${p.how}: ${describe(res)}, which is no page (${items.found})`;
  // An empty page misleads no one: Prisma answers a cursor that names no record so.
  if (p.undecodable) return items.length === 0 ? undefined : `${p.how}: ${describe(res)} with ${items.length} item(s), where a cursor that decodes to no position can get only a 4xx or an empty page`;
  if (p.allowed === undefined) return undefined;
  const stray = items.map((i) => String(i[p.collection.idField])).filter((id) => !p.allowed!.has(id));
  return stray.length === 0 ? undefined : `${p.how}: ${describe(res)} with item(s) ${brief(stray)} the query does not list`;
}

export const cursorTamper400 = defineCheck({
  id: 'END-cursor-tamper-400',
  title: 'A tampered or foreign cursor gets a 4xx or a page of the query\'s own items, never a 5xx',
  rule: 'A cursor that was altered, or issued for another filter, sort or collection, MUST get a 4xx, or a 200 page holding only items the query lists (an opaque cursor may decode to another position), and a string that is no cursor at all MUST get a 4xx or an empty page (Prisma answers a cursor naming no record so); never a 5xx and never other data.',
  severity: 'must',
  needs: ['cursorWalk'],
  dependsOn: ['END-get-collection-200'],
  async run(ctx, { cursorWalk: c }) {
    const wrong = (await cursorProbes(ctx, c)).map(wrongCursorAnswer).filter((w): w is string => w !== undefined);
    ensure(wrong.length === 0, `${wrong.join('; ')}; expected a 4xx, or a page of the query's own items`, "a 4xx, or a page of the query's own items", wrong.join('; '));
  },
});

export const cursorTamperEvident = defineCheck({
  id: 'END-cursor-tamper-evident',
  title: 'A tampered or foreign cursor is refused',
  rule: 'A cursor that was altered, or issued for another filter, sort or collection, SHOULD be refused with a 4xx (the conventions ask only for an opaque encoded value; refusing it is what the JSON:API cursor profile asks).',
  severity: 'should',
  needs: ['cursorWalk'],
  assumes: ['END-cursor-tamper-400'],
  async run(ctx, { cursorWalk: c }) {
    const accepted = (await cursorProbes(ctx, c)).filter((p) => p.res.status < 400 || p.res.status >= 500).map((p) => `${p.how}: ${describe(p.res)}`);
    ensure(accepted.length === 0, `${accepted.join('; ')}; expected each refused with a 4xx`, 'a 4xx', accepted.join('; '));
  },
});

export const offsetPagesDisjoint = defineCheck({
  id: 'END-offset-pages-disjoint',
  title: 'Offset pages are disjoint and contiguous',
  rule: 'On unchanging data, consecutive `limit`/`offset` pages MUST be disjoint and together list every item once; an offset past the end MUST answer an empty `data`.',
  severity: 'must',
  needs: ['offsetWalk'],
  dependsOn: ['END-get-collection-200'],
  async run(ctx, { offsetWalk: c }) {
    const created = await sharedWalkSet(ctx, c);
    const filters = created.filters;
    const pages: string[][] = [];
    for (let offset = 0; offset < created.ids.length; offset += small) {
      pages.push((await fetchMarkedPage(ctx, c, { limit: small, offset, filters })).items.map((i) => String(i[c.idField])));
    }
    const all = pages.flat();
    const defects = walkDefects(created.ids, all);
    ensure(defects.length === 0 && all.length === created.ids.length, `offset pages ${brief(pages)} ${defects.join('; ') || `hold ${all.length} items`}, expected the ${created.ids.length} items once each`, brief(created.ids), brief(pages));
    // A page number past the last one may be answered 404 (Django REST framework): no items either.
    const past = await fetchPageOrEnd(ctx, c, { limit: small, offset: created.ids.length + 10, filters });
    if (past !== undefined) ensure(past.items.length === 0, `${describe(past.res)}: an offset past the end returned ${past.items.length} items, expected none`, 'data: []', `${past.items.length} items`);
  },
});

export const offsetShiftUnderInserts = defineCheck({
  id: 'END-offset-shift-under-inserts',
  title: 'Offset pages shift when items are inserted (reported, not judged)',
  rule: 'Offset pages are unstable while items are inserted (the conventions say so): a page that shifts is reported as an informational warning that never fails a run, not even under --strict.',
  severity: 'info',
  needs: ['newestFirstWalk'],
  assumes: ['END-offset-pages-disjoint'],
  async run(ctx, { newestFirstWalk: c }) {
    const newestFirst = c.sortField;
    // Pages of one item over two: an insert ahead of them pushes page 1's item onto page 2.
    const { marker, filters } = await createMarked(ctx, c, 2);
    const q = { limit: 1, sort: `-${newestFirst}`, filters };
    const first = (await fetchMarkedPage(ctx, c, { ...q, offset: 0 })).items.map((i) => String(i[c.idField]));
    await ctx.create(c, { [c.markField]: marker });
    const second = (await fetchMarkedPage(ctx, c, { ...q, offset: 1 })).items.map((i) => String(i[c.idField]));
    const repeated = second.filter((id) => first.includes(id));
    if (repeated.length > 0) {
      throw new CheckFailure(`after one insert, offset page 2 repeated ${brief(repeated)} from page 1: offset pages shift under writes (prefer cursor pagination for changing data)`, 'disjoint pages', brief(repeated));
    }
    ctx.note('no shift observed after an insert');
  },
});

export const paginationChecks = [
  paginationTerminates,
  paginationCompleteWalk,
  paginationStableUnderWrites,
  sortHonoured,
  sortTiesDeterministic,
  filterMatches,
  cursorTamper400,
  cursorTamperEvident,
  offsetPagesDisjoint,
  offsetShiftUnderInserts,
];
