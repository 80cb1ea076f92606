/**
 * In-memory storage for one kind of resource.
 *
 * Every entry gets a sequence number from a per-store counter when it is created; the
 * sequence is the listing order and the keyset for cursors, so inserts and deletes
 * between pages never skip or repeat an item. Map iteration order is insertion order,
 * which is sequence order because a replaced entry keeps its place.
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

export class Collection<D extends Fields> {
  private readonly entries = new Map<string, Entry<D>>();
  private readonly deletedIds = new Set<string>();
  private lastSeq = 0;
  private lastTime = 0;

  /** A fresh server-chosen id. */
  newId(): string {
    return randomUUID();
  }

  /** ISO-8601 time, strictly later than any this store gave before, so updated_at always moves on a change. */
  private now(): string {
    this.lastTime = Math.max(Date.now(), this.lastTime + 1);
    return new Date(this.lastTime).toISOString();
  }

  get(id: string): Entry<D> | undefined {
    return this.entries.get(id);
  }

  /** Whether an id was deleted and not created again since. */
  wasDeleted(id: string): boolean {
    return this.deletedIds.has(id);
  }

  insert(id: string, data: D): Entry<D> {
    const time = this.now();
    const entry: Entry<D> = { id, seq: ++this.lastSeq, data, createdAt: time, updatedAt: time, views: 0, revision: 0 };
    this.entries.set(id, entry);
    this.deletedIds.delete(id);
    return entry;
  }

  /** Stores new field values; `updatedAt` moves only when a value actually changed. */
  update(id: string, data: D): Entry<D> {
    const entry = this.require(id);
    if (sameFields(entry.data, data)) return entry;
    const updated: Entry<D> = { ...entry, data, updatedAt: this.now() };
    this.entries.set(id, updated);
    return updated;
  }

  /** Changes bookkeeping that is not part of the data (view and revision counters). */
  touch(id: string, change: Partial<Pick<Entry<D>, 'views' | 'revision'>>): Entry<D> {
    const updated: Entry<D> = { ...this.require(id), ...change };
    this.entries.set(id, updated);
    return updated;
  }

  delete(id: string): boolean {
    const existed = this.entries.delete(id);
    if (existed) this.deletedIds.add(id);
    return existed;
  }

  /** Every entry matching a predicate, in sequence order. */
  filter(predicate: (data: D) => boolean): Entry<D>[] {
    return [...this.entries.values()].filter((e) => predicate(e.data));
  }

  /**
   * Up to `limit` entries after sequence number `afterSeq` that match `predicate`, and
   * whether more follow.
   */
  page(afterSeq: number, limit: number, predicate: (data: D) => boolean): { items: Entry<D>[]; more: boolean } {
    const items: Entry<D>[] = [];
    for (const entry of this.entries.values()) {
      if (entry.seq <= afterSeq || !predicate(entry.data)) continue;
      if (items.length === limit) return { items, more: true };
      items.push(entry);
    }
    return { items, more: false };
  }

  private require(id: string): Entry<D> {
    const entry = this.entries.get(id);
    if (entry === undefined) throw new Error(`store: no entry ${id}`);
    return entry;
  }
}
