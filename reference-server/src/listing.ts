/**
 * What a collection listing shows and in which order (conventions §4 "Collection query
 * parameters"): filters on fields (`status=archived`, combined with AND), `sort` (a
 * field name, `-` for descending), and the page selection for both pagination styles.
 *
 * Every order is total: ties on the sort field are broken by the creation sequence
 * number, ascending for ascending sorts and descending for descending ones. A cursor
 * page resumes strictly after the (sort value, sequence number) key of the last item
 * served, found by binary search in the store's ordered entries, so a page costs
 * O(log n + page) when no filter thins the walk out.
 */
import { createHash } from 'node:crypto';
import { faultActive } from './request-faults.js';
import {
  decodeCursor,
  decodeOffsetCursor,
  encodeCursor,
  encodeOffsetCursor,
  singleParam,
  type CursorPosition,
} from './pagination.js';
import type { FieldError } from './problem.js';
import { compareKeys, type Collection, type Entry, type Fields, type SortKey } from './store.js';

/** A filter parameter: exact match of a field against the parameter's value. */
export interface FilterParam<D extends Fields> {
  readonly name: string;
  /** The allowed values; any string when absent. */
  readonly values?: readonly string[];
  /** The error message for a value not in `values`. */
  readonly message?: string;
  matches(data: D, value: string): boolean;
}

/** A field a listing can be sorted on. */
export interface SortField<D extends Fields> {
  readonly name: string;
  value(entry: Entry<D>): string;
  /** The store's sequence order is this field's ascending order (`created_at`). */
  readonly sequential?: boolean;
}

/** How one collection can be listed. */
export interface ListingSpec<D extends Fields> {
  readonly filters: readonly FilterParam<D>[];
  /** The first one, ascending, is the default order. */
  readonly sorts: readonly [SortField<D>, ...SortField<D>[]];
  /** What belongs to the listing at all (a parent's tasks); not a filter. */
  readonly within?: (data: D) => boolean;
}

/** Exact match on a string-or-null field (`label=x`). */
export function exactFilter<D extends Fields>(name: string, pick: (data: D) => unknown): FilterParam<D> {
  return { name, matches: (data, value) => pick(data) === value };
}

/** Match on a field with a fixed set of values; others are refused with 400. */
export function enumFilter<D extends Fields>(
  name: string,
  values: readonly string[],
  pick: (data: D) => unknown,
  message = `must be one of ${values.map((v) => `"${v}"`).join(', ')}`,
): FilterParam<D> {
  return { name, values, message, matches: (data, value) => String(pick(data)) === value };
}

/** `created_at`: creation order, which is sequence order. */
export function createdAtSort<D extends Fields>(): SortField<D> {
  return { name: 'created_at', value: (entry) => entry.createdAt, sequential: true };
}

/** A string field of the data (`name`). */
export function fieldSort<D extends Fields>(name: string, pick: (data: D) => string): SortField<D> {
  return { name, value: (entry) => pick(entry.data) };
}

/** A listing request, read from the query. */
export interface View<D extends Fields> {
  readonly predicate: (data: D) => boolean;
  readonly sort: SortField<D>;
  readonly descending: boolean;
  /** Digest of the filter values and the sort as requested: what a cursor is bound to. */
  readonly binding: string;
}

/**
 * Reads the filter and sort parameters, adding an error for each bad one.
 *
 * Faults: `filter-ignored` (filters are checked, then ignored), `sort-ignored` (a valid
 * sort is accepted, then creation order is used).
 */
export function readView<D extends Fields>(
  query: URLSearchParams,
  spec: ListingSpec<D>,
  errors: FieldError[],
): View<D> {
  const within = spec.within ?? (() => true);
  const active: [FilterParam<D>, string][] = [];
  for (const filter of spec.filters) {
    const value = singleParam(query, filter.name, errors);
    if (value === undefined) continue;
    if (filter.values !== undefined && !filter.values.includes(value)) {
      errors.push({ field: filter.name, message: filter.message ?? 'is not a valid value' });
    } else {
      active.push([filter, value]);
    }
  }
  // Fault `status-filter-ignored`: the status filter is read, then not applied.
  const applied = faultActive('status-filter-ignored') ? active.filter(([filter]) => filter.name !== 'status') : active;
  const predicate =
    applied.length === 0 || faultActive('filter-ignored')
      ? within
      : (data: D) => within(data) && applied.every(([filter, value]) => filter.matches(data, value));

  const [defaultSort] = spec.sorts;
  let sort = defaultSort;
  let descending = false;
  const rawSort = singleParam(query, 'sort', errors);
  if (rawSort !== undefined) {
    descending = rawSort.startsWith('-');
    const found = spec.sorts.find((s) => s.name === (descending ? rawSort.slice(1) : rawSort));
    if (found === undefined) {
      const allowed = spec.sorts.flatMap((s) => [`"${s.name}"`, `"-${s.name}"`]).join(', ');
      errors.push({ field: 'sort', message: `must be one of ${allowed}` });
      descending = false;
    } else {
      sort = found;
    }
  }
  const binding = createHash('sha256')
    .update(JSON.stringify([active.map(([f, v]) => [f.name, v]), `${descending ? '-' : ''}${sort.name}`]))
    .digest()
    .subarray(0, 16)
    .toString('base64url');
  if (faultActive('sort-ignored')) return { predicate, sort: defaultSort, descending: false, binding };
  return { predicate, sort, descending, binding };
}

/** Where a cursor page starts: after a key (null: the beginning), or at an offset (fault `offset-cursor`). */
export type CursorStart = { readonly key: SortKey | null } | { readonly offset: number };

/**
 * Reads `cursor` for a listing and view, adding an error when it is not one this
 * listing issued for these filters and this sort.
 *
 * Faults: `offset-cursor` (the cursor is a plain offset), `tampered-cursor-500`,
 * `cursor-not-bound` (the filter and sort binding is not checked).
 */
export function readCursor<D extends Fields>(
  query: URLSearchParams,
  scope: string,
  view: View<D>,
  errors: FieldError[],
): CursorStart {
  const raw = singleParam(query, 'cursor', errors);
  if (faultActive('offset-cursor')) {
    if (raw === undefined) return { offset: 0 };
    const offset = decodeOffsetCursor(raw);
    if (offset !== undefined) return { offset };
  } else {
    if (raw === undefined) return { key: null };
    const position = decodeCursor(raw);
    if (position !== undefined) {
      if (position.scope !== scope) {
        errors.push({ field: 'cursor', message: 'was issued for another listing; start this one without a cursor' });
      } else if (position.binding !== view.binding && !faultActive('cursor-not-bound')) {
        errors.push({
          field: 'cursor',
          message: 'was issued for other filters or another sort; repeat them as they were, or start without a cursor',
        });
      }
      return { key: position.key };
    }
  }
  if (faultActive('tampered-cursor-500')) {
    // Fault: a careless handler trusts the cursor to decode.
    throw new TypeError('cursor did not decode');
  }
  errors.push({ field: 'cursor', message: 'is not a cursor this listing issued; use next_cursor as given' });
  return { key: null };
}

function keyOf<D extends Fields>(entry: Entry<D>, sort: SortField<D>): SortKey {
  return { value: sort.value(entry), seq: entry.seq };
}

/** The store's entries in the sort field's ascending order (ties by sequence number). */
function ascending<D extends Fields>(store: Collection<D>, sort: SortField<D>): readonly Entry<D>[] {
  return sort.sequential === true ? store.inSequence() : store.sorted(sort);
}

/** The first index whose key is above `key` (`strict`) or at least `key`, by binary search. */
function bound<D extends Fields>(
  entries: readonly Entry<D>[],
  sort: SortField<D>,
  key: SortKey,
  strict: boolean,
): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    const entry = entries[mid];
    const c = entry === undefined ? 1 : compareKeys(keyOf(entry, sort), key);
    if (c < 0 || (strict && c === 0)) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Shuffles each run of entries with equal sort values (fault `sort-without-tiebreaker`). */
function shuffleTies<D extends Fields>(entries: Entry<D>[], sort: SortField<D>): void {
  let start = 0;
  while (start < entries.length) {
    const first = entries[start];
    if (first === undefined) break;
    const value = sort.value(first);
    let end = start + 1;
    while (end < entries.length && sort.value(entries[end] as Entry<D>) === value) end++;
    for (let i = end - 1; i > start; i--) {
      const j = start + Math.floor(Math.random() * (i - start + 1));
      [entries[i], entries[j]] = [entries[j] as Entry<D>, entries[i] as Entry<D>];
    }
    start = end;
  }
}

/** Every entry of a view, in its order: O(n), for offset pages and the faults that need it. */
function everyMatch<D extends Fields>(
  store: Collection<D>,
  view: View<D>,
): Entry<D>[] {
  const entries = ascending(store, view.sort).filter((e) => view.predicate(e.data));
  if (view.descending) entries.reverse();
  if (faultActive('sort-without-tiebreaker')) shuffleTies(entries, view.sort);
  return entries;
}

/**
 * Up to `limit` matching entries strictly after `after` in the view's order (passing
 * over the first `skip` of them), and whether more follow.
 */
function keysetPage<D extends Fields>(
  store: Collection<D>,
  view: View<D>,
  after: SortKey | null,
  limit: number,
  skip = 0,
): { items: Entry<D>[]; more: boolean } {
  const entries = ascending(store, view.sort);
  const items: Entry<D>[] = [];
  const step = view.descending ? -1 : 1;
  let i: number;
  if (view.descending) i = (after === null ? entries.length : bound(entries, view.sort, after, false)) - 1;
  else i = after === null ? 0 : bound(entries, view.sort, after, true);
  let skipped = 0;
  for (; i >= 0 && i < entries.length; i += step) {
    const entry = entries[i] as Entry<D>;
    if (!view.predicate(entry.data)) continue;
    if (skipped < skip) {
      skipped++;
      continue;
    }
    // Peek one past the page, so that next_cursor is null exactly on the last page.
    if (items.length === limit) return { items, more: true };
    items.push(entry);
  }
  return { items, more: false };
}

/**
 * One cursor page: the entries, and the cursor to the next page or null after the last.
 *
 * Faults: `offset-cursor`, `sort-without-tiebreaker` (keyed on the sort value alone),
 * `next-cursor-never-null`, `page-boundary-skip`.
 */
export function cursorPage<D extends Fields>(
  store: Collection<D>,
  view: View<D>,
  scope: string,
  start: CursorStart,
  limit: number,
  /** Fault `cursor-overrides-filter`: the filter query the next cursor carries. */
  carriedFilters?: string,
): { items: Entry<D>[]; nextCursor: string | null } {
  const forever = faultActive('next-cursor-never-null');
  if ('offset' in start) {
    const all = everyMatch(store, view);
    const items = all.slice(start.offset, start.offset + limit);
    const more = all.length > start.offset + limit;
    return { items, nextCursor: more || forever ? encodeOffsetCursor(start.offset + items.length) : null };
  }
  let items: Entry<D>[];
  let more: boolean;
  if (faultActive('sort-without-tiebreaker')) {
    const all = everyMatch(store, view);
    const after = start.key;
    const from =
      after === null
        ? 0
        : all.findIndex((e) => {
            const value = view.sort.value(e);
            return view.descending ? value < after.value : value > after.value;
          });
    items = from < 0 ? [] : all.slice(from, from + limit);
    more = from >= 0 && all.length > from + limit;
  } else {
    // Faults `page-boundary-skip` (and `odd-page-boundary-skip`, at odd page sizes above 1): every later page starts one item late.
    const skipsAtThisSize = faultActive('page-boundary-skip') || (faultActive('odd-page-boundary-skip') && limit > 1 && limit % 2 === 1);
    const skip = skipsAtThisSize && start.key !== null ? 1 : 0;
    ({ items, more } = keysetPage(store, view, start.key, limit, skip));
  }
  const last = items.at(-1);
  if (!more && !forever) return { items, nextCursor: null };
  const position: CursorPosition = {
    scope,
    binding: view.binding,
    key: last === undefined ? start.key : keyOf(last, view.sort),
    ...(carriedFilters !== undefined && { filters: carriedFilters }),
  };
  return { items, nextCursor: encodeCursor(position) };
}

/** One offset page and the count of every match. Fault `offset-overlap` starts one early. */
export function offsetPage<D extends Fields>(
  store: Collection<D>,
  view: View<D>,
  offset: number,
  limit: number,
): { items: Entry<D>[]; total: number } {
  const all = everyMatch(store, view);
  const from = faultActive('offset-overlap') && offset > 0 ? offset - 1 : offset;
  return { items: all.slice(from, from + limit), total: all.length };
}

/**
 * Fault `cursor-overrides-filter`: the query a listing is answered for when the cursor
 * carries the filters it was issued for (they replace the request's own), and the filter
 * query the next cursor is to carry.
 */
export function queryWithCarriedFilters<D extends Fields>(query: URLSearchParams, spec: ListingSpec<D>): { query: URLSearchParams; carried: string } {
  const names = new Set(spec.filters.map((f) => f.name));
  const raw = query.get('cursor');
  const carriedByCursor = raw === null ? undefined : decodeCursor(raw)?.filters;
  const effective = new URLSearchParams([...query].filter(([k]) => carriedByCursor === undefined || !names.has(k)));
  if (carriedByCursor !== undefined) for (const [k, v] of new URLSearchParams(carriedByCursor)) effective.append(k, v);
  const carried = new URLSearchParams([...effective].filter(([k]) => names.has(k))).toString();
  return { query: effective, carried };
}
