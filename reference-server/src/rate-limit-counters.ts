/**
 * The rate limiter's counters, one per client and tier, in bounded memory: traffic from
 * ever new clients must not grow the server without end.
 *
 * A counter untouched for a whole window of its tier, and not held by a fault's block, is
 * the same as a fresh one (its bucket has refilled, its fixed window and overload window
 * have ended), so dropping it changes no answer; such counters are swept out. Past
 * `capacity` clients the one seen longest ago is dropped first (the map is kept in order of
 * last use), so a client under pressure, which is sending, keeps its counter.
 */

/** One client's state under one policy. */
export interface Counter {
  /** Token bucket: tokens left; fixed window: unused. */
  tokens: number;
  /** Token bucket: last refill; fixed window: the window's start. */
  at: number;
  /** Fixed window: requests admitted in the window. */
  used: number;
  /** Refusals in the window `refusalsIn` (the clock's window index), for overload. */
  refusals: number;
  refusalsIn: number;
  /** Faults `retry-after-too-short` and `rate-limit-never-recovers`: refused until then. */
  blockedUntil: number;
}

/** How many clients the limiter tracks at most. */
export const maxTrackedClients = 10_000;

/** How often idle counters are swept out at most: a sweep reads every counter. */
const sweepEveryMs = 1_000;

interface Tracked {
  readonly counter: Counter;
  /** The tier's window: idle this long, the counter is as good as fresh. */
  readonly windowMs: number;
  seen: number;
}

export class Counters {
  private readonly tracked = new Map<string, Tracked>();
  private nextSweep = 0;

  constructor(private readonly capacity = maxTrackedClients) {}

  /** How many clients are tracked now. */
  get size(): number {
    return this.tracked.size;
  }

  /** The counter of `id` under `tier` (a fresh one, its quota whole, when none is kept), marked as used at `now`. */
  counter(id: string, tier: { readonly limit: number; readonly windowMs: number }, now: number): Counter {
    if (now >= this.nextSweep) this.sweep(now);
    const found = this.tracked.get(id);
    // Re-inserted, so the map's first entry is always the one seen longest ago.
    this.tracked.delete(id);
    const entry = found ?? { counter: { tokens: tier.limit, at: now, used: 0, refusals: 0, refusalsIn: 0, blockedUntil: 0 }, windowMs: tier.windowMs, seen: now };
    entry.seen = now;
    this.tracked.set(id, entry);
    if (this.tracked.size > this.capacity) {
      const oldest = this.tracked.keys().next().value;
      if (oldest !== undefined) this.tracked.delete(oldest);
    }
    return entry.counter;
  }

  /** Drops every counter idle for a whole window of its tier (not one a fault blocks for longer). */
  private sweep(now: number): void {
    for (const [id, { counter, windowMs, seen }] of this.tracked) {
      if (now - seen >= windowMs && counter.blockedUntil <= now) this.tracked.delete(id);
    }
    this.nextSweep = now + sweepEveryMs;
  }
}
