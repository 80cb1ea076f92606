/**
 * A store of records under secret keys (sessions, codes, pending requests, refresh tokens): keyed by
 * the secret's digest, each record kept until its time is up, and never more than a cap
 * (the oldest goes first), so that no client can exhaust memory. One instance serves
 * every node.
 */
import { digestOf } from './secrets.js';

/** Enough for any test run. */
const defaultCap = 10_000;

export class ExpiringStore<V> {
  private readonly records = new Map<string, { value: V; until: number }>();

  constructor(
    /** How long a record is kept, in milliseconds. */
    private readonly lifetimeMs: number,
    private readonly cap = defaultCap,
  ) {}

  set(secret: string, value: V): void {
    this.records.set(digestOf(secret), { value, until: Date.now() + this.lifetimeMs });
    if (this.records.size > this.cap) {
      const oldest = this.records.keys().next().value;
      if (oldest !== undefined) this.records.delete(oldest);
    }
  }

  /** The record, while it is kept. */
  get(secret: string): V | undefined {
    const key = digestOf(secret);
    const record = this.records.get(key);
    if (record === undefined) return undefined;
    if (Date.now() >= record.until) {
      this.records.delete(key);
      return undefined;
    }
    return record.value;
  }

  delete(secret: string): void {
    this.records.delete(digestOf(secret));
  }
}
