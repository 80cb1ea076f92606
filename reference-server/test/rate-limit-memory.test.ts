/**
 * The limiter's memory stays bounded whatever clients send: made-up keys count as their
 * address (one counter, and one quota), counters whose windows have passed are dropped, and
 * past the cap the client seen longest ago is dropped first.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { KeyRing } from '../src/auth.js';
import { Counters, maxTrackedClients } from '../src/rate-limit-counters.js';
import { RateLimits } from '../src/rate-limit.js';
import { startHarness, type Harness } from './client.js';

/** What the limiter reads of a request: its headers and its peer's address. */
const request = (headers: Record<string, string>, remoteAddress = '127.0.0.1'): IncomingMessage =>
  ({ headers, socket: { remoteAddress } }) as unknown as IncomingMessage;

const randomKey = (): string => randomBytes(24).toString('base64url');

const limits = (): RateLimits => new RateLimits({ rateLimit: { limit: 5, windowMs: 60_000 } }, new Set(), new KeyRing(randomKey(), randomKey()));

describe('the limiter under made-up keys', () => {
  it('tracks one client for an address, however many different keys it sends', async () => {
    const rateLimits = limits();
    const limiter = rateLimits.nodeLimiter();
    const answers = [];
    for (let i = 0; i < 2_000; i++) answers.push(await limiter.admit(request(i % 2 === 0 ? { 'x-api-key': randomKey() } : { authorization: `Bearer ${randomKey()}` })));
    expect(rateLimits.trackedClients).toBe(1);
    // One quota for all of them: five admitted, then refused.
    expect(answers.filter((a) => a === undefined)).toHaveLength(5);
  });

  it('tracks at most its cap of clients, from however many addresses', async () => {
    const rateLimits = limits();
    const limiter = rateLimits.nodeLimiter();
    for (let i = 0; i < maxTrackedClients + 2_000; i++) await limiter.admit(request({}, `127.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`));
    expect(rateLimits.trackedClients).toBe(maxTrackedClients);
  });

  it('refuses made-up keys past the quota of their address (401 until then, 429 after)', async () => {
    let h: Harness | undefined;
    try {
      h = await startHarness([], { rateLimit: { limit: 3, windowMs: 60_000 } });
      const statuses = [];
      for (let i = 0; i < 6; i++) statuses.push((await h.call('GET', '/v2/projects', { auth: false, headers: { 'x-api-key': randomKey() } })).status);
      expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);
      // A real key is its own client, still served.
      expect((await h.call('GET', '/v2/projects')).status).toBe(200);
    } finally {
      await h?.close();
    }
  });
});

describe('Counters', () => {
  const tier = { limit: 5, windowMs: 1_000 };

  it('drops counters idle for a whole window, keeping recent and fault-blocked ones', () => {
    const counters = new Counters();
    for (let i = 0; i < 100; i++) counters.counter(`c${i}`, tier, 0);
    counters.counter('blocked', tier, 0).blockedUntil = Number.POSITIVE_INFINITY;
    counters.counter('recent', tier, 600);
    expect(counters.size).toBe(102);
    // Swept on the first use after a sweep is due (at most once a second).
    counters.counter('new', tier, 1_100);
    expect(counters.size).toBe(3);
  });

  it('drops the client seen longest ago past its cap, keeping the state of the others', () => {
    const counters = new Counters(3);
    const a = counters.counter('a', tier, 0);
    a.tokens = 0;
    const b = counters.counter('b', tier, 1);
    counters.counter('c', tier, 2);
    expect(counters.counter('a', tier, 3)).toBe(a);
    counters.counter('d', tier, 4);
    expect(counters.size).toBe(3);
    // `b` was seen longest ago: dropped, so it comes back fresh; `a` kept its spent bucket.
    expect(counters.counter('b', tier, 5)).not.toBe(b);
    expect(counters.counter('a', tier, 6)).toBe(a);
    expect(a.tokens).toBe(0);
  });
});
