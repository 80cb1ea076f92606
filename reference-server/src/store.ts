/**
 * In-memory storage for one kind of resource.
 *
 * Every entry gets a sequence number from a per-store counter when it is created; the
 * sequence is the creation order, the tiebreaker of every sort and part of every cursor
 * key, so inserts and deletes between pages never skip or repeat an item. Creation
 * times strictly increase with the sequence, so sequence order is also `created_at`
 * order.
 *
 * Besides the id map the store keeps its entries in an array in sequence order (a
 * replaced entry keeps its place), so a listing can find a cursor position by binary
 * search instead of scanning. Other orders are built on demand and cached until the
 * next write.
 */
import { randomUUID } from 'node:crypto';
import type { FieldValue } from './validation.js';

export type Fields = Readonly<Record<string, FieldValue>>;

/** A stored resource with the metadata the server keeps about it. */
export interface Entry<D extends Fields> {
  readonly id: string;
  readonly seq: number;
  readonly data: D;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** GETs of this item; shown only under fault `get-counts-views`. */
  readonly views: number;
  /** PUTs of this item; shown only under fault `put-bumps-revision`. */
  readonly revision: number;
}

function sameFields(a: Fields, b: Fields): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) if (a[key] !== b[key]) return false;
  return true;
}

/** A sort order over entries, ascending; ties are always broken by sequence number. */
export interface Ordering<D extends Fields> {
  /** Names the order in the store's cache ("name"); `created_at` never needs one. */
  readonly name: string;
  /** The sort value of an entry. Compared by UTF-16 code units (`<`), as JavaScript does. */
  value(entry: Entry<D>): string;
}

/** Where an entry stands in an order: its sort value, then its sequence number. */
export interface SortKey {
  readonly value: string;
  readonly seq: number;
}

/** Compares two keys: by value (code units), then by sequence number. */
export function compareKeys(a: SortKey, b: SortKey): number {
  if (a.value < b.value) return -1;
  if (a.value > b.value) return 1;
  return a.seq - b.seq;
}

/** How a store chooses ids: random UUIDs, or integers that a delete can free again. */
export type IdScheme = 'uuid' | 'reuse';

export class Collection<D extends Fields> {
  private readonly entries = new Map<string, Entry<D>>();
  /** The same entries, in sequence order. */
  private readonly bySeq: Entry<D>[] = [];
  private readonly deletedIds = new Set<string>();
  /** Orders built since the last write, by ordering name. */
  private readonly orders = new Map<string, Entry<D>[]>();
  private lastSeq = 0;
  private lastTime = 0;

  /**
   * @param ids `uuid` (default): random ids, never seen again. `reuse`: integers, the next
   *   one above the highest in use, so deleting the newest item hands its id to the next
   *   create, as many real APIs do (`serve --reuse-ids`).
   */
  constructor(private readonly ids: IdScheme = 'uuid') {}

  /** A fresh server-chosen id. */
  newId(): string {
    if (this.ids === 'uuid') return randomUUID();
    let max = 0;
    for (const id of this.entries.keys()) if (/^\d+$/.test(id)) max = Math.max(max, Number(id));
    return String(max + 1);
  }

  /** ISO-8601 time, strictly later than any this store gave before, so updated_at always moves on a change. */
  private now(): string {
    this.lastTime = Math.max(Date.now(), this.lastTime + 1);
    return new Date(this.lastTime).toISOString();
  }

  /** How many entries the store holds. */
  get size(): number {
    return this.entries.size;
  }

  get(id: string): Entry<D> | undefined {
    return this.entries.get(id);
  }

  /** Whether an id was deleted and not created again since. */
  wasDeleted(id: string): boolean {
    return this.deletedIds.has(id);
  }

  insert(id: string, data: D): Entry<D> {
    return this.add(id, data, this.now());
  }

  /**
   * Creates `count` entries at once, as if they had been created one per millisecond
   * up to now (so bulk data lies in the past, not in the future).
   */
  seed(count: number, make: (index: number) => D): void {
    let time = Math.max(Date.now() - count, this.lastTime + 1);
    for (let i = 0; i < count; i++, time++) this.add(this.newId(), make(i), new Date(time).toISOString());
    this.lastTime = Math.max(this.lastTime, time - 1);
  }

  private add(id: string, data: D, time: string): Entry<D> {
    const entry: Entry<D> = { id, seq: ++this.lastSeq, data, createdAt: time, updatedAt: time, views: 0, revision: 0 };
    const previous = this.entries.get(id);
    if (previous !== undefined) this.removeFromOrder(previous);
    this.entries.set(id, entry);
    this.bySeq.push(entry); // the highest sequence number so far: the end
    this.deletedIds.delete(id);
    this.orders.clear();
    return entry;
  }

  /** Stores new field values; `updatedAt` moves only when a value actually changed. */
  update(id: string, data: D): Entry<D> {
    const entry = this.require(id);
    if (sameFields(entry.data, data)) return entry;
    return this.replace({ ...entry, data, updatedAt: this.now() });
  }

  /** Changes bookkeeping that is not part of the data (view and revision counters). */
  touch(id: string, change: Partial<Pick<Entry<D>, 'views' | 'revision'>>): Entry<D> {
    return this.replace({ ...this.require(id), ...change });
  }

  delete(id: string): boolean {
    const entry = this.entries.get(id);
    if (entry === undefined) return false;
    this.entries.delete(id);
    this.removeFromOrder(entry);
    this.deletedIds.add(id);
    this.orders.clear();
    return true;
  }

  /** Every entry matching a predicate, in sequence order. */
  filter(predicate: (data: D) => boolean): Entry<D>[] {
    return this.bySeq.filter((e) => predicate(e.data));
  }

  /** Every entry in sequence (and so `created_at`) order. Do not modify. */
  inSequence(): readonly Entry<D>[] {
    return this.bySeq;
  }

  /** Every entry in an order, ascending, ties by sequence number; cached until the next write. Do not modify. */
  sorted(ordering: Ordering<D>): readonly Entry<D>[] {
    let sorted = this.orders.get(ordering.name);
    if (sorted === undefined) {
      const keyed = this.bySeq.map((entry) => ({ entry, key: { value: ordering.value(entry), seq: entry.seq } }));
      keyed.sort((a, b) => compareKeys(a.key, b.key));
      sorted = keyed.map((k) => k.entry);
      this.orders.set(ordering.name, sorted);
    }
    return sorted;
  }

  /** The index of the entry with sequence number `seq` in {@link bySeq}, or -1. */
  private indexOfSeq(seq: number): number {
    let low = 0;
    let high = this.bySeq.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((this.bySeq[mid]?.seq ?? Infinity) < seq) low = mid + 1;
      else high = mid;
    }
    return this.bySeq[low]?.seq === seq ? low : -1;
  }

  private replace(updated: Entry<D>): Entry<D> {
    this.entries.set(updated.id, updated);
    const index = this.indexOfSeq(updated.seq);
    if (index >= 0) this.bySeq[index] = updated;
    this.orders.clear();
    return updated;
  }

  private removeFromOrder(entry: Entry<D>): void {
    const index = this.indexOfSeq(entry.seq);
    if (index >= 0) this.bySeq.splice(index, 1);
  }

  private require(id: string): Entry<D> {
    const entry = this.entries.get(id);
    if (entry === undefined) throw new Error(`store: no entry ${id}`);
    return entry;
  }
}
