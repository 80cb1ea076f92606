/**
 * The rate limiter: per-client quotas (the probe keys' small one, `--rate-limit` for every
 * other client), one counter shared by every node, 429 problem+json with Retry-After and
 * Retry-After-Ms, RateLimit fields (draft-10), a token bucket or a fixed window, and 503 for
 * a client that keeps sending while limited.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseRateLimit, type ReferenceServerOptions } from '../src/index.js';
import { startHarness, type Harness } from './client.js';
import { pause, probe, probeUntil, shortProbeQuota, slowProbeQuota } from './rate-limit-client.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const start = async (options: Omit<ReferenceServerOptions, 'faults'>): Promise<Harness> => (h = await startHarness([], options));

describe("--rate-limit: every client but the probe keys", () => {
  it('answers the request past the limit 429 problem+json with Retry-After, counting across nodes', async () => {
    const s = await start({ nodes: 2, rateLimit: { limit: 3, windowMs: 60_000 } });
    const statuses = [];
    for (const node of [0, 1, 0, 1]) statuses.push((await s.call('GET', '/v2/projects', { node })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await s.call('GET', '/v2/projects');
    expect(limited.status).toBe(429);
    expect(limited.headers['content-type']).toBe('application/problem+json');
    // A token bucket: one request comes back every 20 s.
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(19);
    expect(limited.headers['ratelimit-policy']).toBe('"default";q=3;w=60');
    expect(limited.json()).toMatchObject({ status: 429, title: 'Too Many Requests' });
  });

  it('counts each client on its own: another key is still served', async () => {
    const s = await start({ rateLimit: { limit: 1, windowMs: 60_000 } });
    expect((await s.call('GET', '/v2/projects')).status).toBe(200);
    expect((await s.call('GET', '/v2/projects')).status).toBe(429);
    // An unknown key counts as its address, a client with a quota of its own: admitted, then refused as unknown (401).
    expect((await s.call('GET', '/v2/projects', { headers: { 'x-api-key': 'another-key' } })).status).toBe(401);
    expect((await probe(s)).status).toBe(200);
  });

  it('reads limits as requests/window', () => {
    expect(parseRateLimit('20/10s')).toEqual({ limit: 20, windowMs: 10_000 });
    expect(parseRateLimit('600/1m')).toEqual({ limit: 600, windowMs: 60_000 });
    expect(parseRateLimit('50/500ms')).toEqual({ limit: 50, windowMs: 500 });
    for (const bad of ['20', '0/1s', '20/0s', 'x/1s', '20/1h']) expect(parseRateLimit(bad), bad).toBeUndefined();
  });
});

describe('the probe keys', () => {
  it('have a small quota of their own, each, with RateLimit fields; the primary key is not limited and gets none', async () => {
    // A token every 200 ms: the five come back one by one, slower than the test sends.
    const s = await start({ probeRateLimit: { limit: 5, windowMs: 1_000 } });
    const remaining = [];
    for (let i = 0; i < 5; i++) {
      const res = await probe(s);
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-policy']).toBe('"probe";q=5;w=1');
      remaining.push(Number(/;r=(\d+);/.exec(res.headers['ratelimit'] ?? '')?.[1]));
    }
    expect(remaining[0]).toBe(4);
    expect(remaining.at(-1)).toBeLessThanOrEqual(1);
    const limited = await probeUntil(s, 429, {}, 5);
    expect(limited?.headers['content-type']).toBe('application/problem+json');
    expect(limited?.headers['retry-after']).toBe('1');
    expect(Number(limited?.headers['retry-after-ms'])).toBeGreaterThan(0);
    expect(Number(limited?.headers['retry-after-ms'])).toBeLessThanOrEqual(200);
    expect(limited?.headers['ratelimit']).toBe('"probe";r=0;t=1');
    expect((await probe(s, { key: 2 })).status).toBe(200);
    for (let i = 0; i < 20; i++) {
      const res = await s.call('GET', '/v2/projects');
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit']).toBeUndefined();
    }
    await pause(Number(limited?.headers['retry-after-ms']));
    expect((await probe(s)).status).toBe(200);
  });

  it('are read-only credentials', async () => {
    const s = await start({});
    expect(s.server.secrets.RESTPROBE_LIMIT_KEY).not.toBe(s.server.secrets.RESTPROBE_LIMIT_KEY_2);
    const write = await s.call('POST', '/v2/projects', { auth: false, headers: { 'x-api-key': s.server.secrets.RESTPROBE_LIMIT_KEY }, json: { name: 'n' } });
    expect(write.status).toBe(403);
  });

  it('default to 5 requests per 250 ms (no w: the policy counts whole seconds), shared by every node', async () => {
    const s = await start({ nodes: 2 });
    expect((await probe(s, { node: 1 })).headers['ratelimit-policy']).toBe('"probe";q=5');
    const limited = await probeUntil(s, 429, { node: 0 });
    expect(limited?.headers['ratelimit']).toBe('"probe";r=0;t=1');
    // The other node counts on the same bucket: at most what refilled meanwhile is left.
    expect((await probe(s, { node: 1 })).headers['ratelimit']).toMatch(/^"probe";r=[01];t=1$/);
  });

  it('are limited by a fixed window when asked, which comes back whole at its end', async () => {
    const s = await start({ probeRateLimit: { limit: 3, windowMs: 200 }, rateLimitAlgorithm: 'fixed-window' });
    const limited = await probeUntil(s, 429, {}, 10);
    expect(limited?.headers['ratelimit']).toBe('"probe";r=0;t=1');
    const wait = Number(limited?.headers['retry-after-ms']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(200);
    await pause(wait);
    for (let i = 0; i < 3; i++) expect((await probe(s)).status).toBe(200);
  });

  it('get Retry-After as an HTTP-date when asked', async () => {
    const s = await start({ probeRateLimit: shortProbeQuota, retryAfter: 'http-date' });
    const limited = await probeUntil(s, 429);
    const date = limited?.headers['retry-after'] ?? '';
    expect(date).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    expect(Date.parse(date)).toBeGreaterThanOrEqual(Date.now() - 1000);
    // Whole seconds, rounded up: the wait (under a quarter of a second) plus at most one second.
    expect(Date.parse(date)).toBeLessThanOrEqual(Date.now() + 2000);
  });

  it('shed a client that keeps sending while limited with 503 + Retry-After, unless overload is off', async () => {
    const s = await start({ probeRateLimit: slowProbeQuota });
    const shed = await probeUntil(s, 503);
    // Until the window the refusals counted in ends (the clock's 10 s), at least a token's 2 s.
    expect(Number(shed?.headers['retry-after'])).toBeGreaterThanOrEqual(2);
    expect(Number(shed?.headers['retry-after'])).toBeLessThanOrEqual(10);
    expect(shed?.headers['content-type']).toBe('application/problem+json');
    expect(shed?.json()).toMatchObject({ status: 503, title: 'Service Unavailable' });
    await s.close();
    const calm = await start({ probeRateLimit: slowProbeQuota, overload: false });
    expect(await probeUntil(calm, 503, {}, 30)).toBeUndefined();
  });
});
