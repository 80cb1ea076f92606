/** --rate-limit: a fixed window per client, shared by every node; 429 problem+json with Retry-After. */
import { afterEach, describe, expect, it } from 'vitest';
import { parseRateLimit, startReferenceServer, type ReferenceServer } from '../src/index.js';

let server: ReferenceServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const get = (url: string, key: string) => fetch(`${url}/v2/projects`, { headers: { 'x-api-key': key, accept: 'application/json' } });

describe('the reference server\'s rate limiter', () => {
  it('answers the request past the limit 429 problem+json with Retry-After, counting across nodes', async () => {
    const s = (server = await startReferenceServer({ port: 0, nodes: 2, rateLimit: { limit: 3, windowMs: 60_000 } }));
    const key = s.secrets.RESTPROBE_API_KEY;
    const statuses = [];
    for (const url of [s.urls[0]!, s.urls[1]!, s.urls[0]!, s.urls[1]!]) statuses.push((await get(url, key)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await get(s.urls[0]!, key);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('content-type')).toBe('application/problem+json');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
    expect(await limited.json()).toMatchObject({ status: 429, title: 'Too Many Requests' });
  });

  it('counts each client on its own: another key is still served', async () => {
    const s = (server = await startReferenceServer({ port: 0, rateLimit: { limit: 1, windowMs: 60_000 } }));
    expect((await get(s.url, s.secrets.RESTPROBE_API_KEY)).status).toBe(200);
    expect((await get(s.url, s.secrets.RESTPROBE_API_KEY)).status).toBe(429);
    // An unknown key is its own client: limited separately (and then refused as unknown, 401).
    expect((await get(s.url, 'another-key')).status).toBe(401);
  });

  it('reads limits as requests/window', () => {
    expect(parseRateLimit('20/10s')).toEqual({ limit: 20, windowMs: 10_000 });
    expect(parseRateLimit('600/1m')).toEqual({ limit: 600, windowMs: 60_000 });
    expect(parseRateLimit('50/500ms')).toEqual({ limit: 50, windowMs: 500 });
    for (const bad of ['20', '0/1s', '20/0s', 'x/1s', '20/1h']) expect(parseRateLimit(bad), bad).toBeUndefined();
  });
});
