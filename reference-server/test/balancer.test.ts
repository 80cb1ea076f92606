/**
 * The load balancer in front of the nodes (`balancer: true`, `serve --balancer`): it hands
 * each request to the next node in turn, so state a fault keeps per node shows through it
 * as it does behind a production balancer.
 */
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../src/index.js';
import { slowProbeQuota } from './rate-limit-client.js';

async function get(url: string, headers: Record<string, string>): Promise<{ status: number; etag: string | null }> {
  const res = await fetch(url, { headers });
  await res.arrayBuffer();
  return { status: res.status, etag: res.headers.get('etag') };
}

describe('the load balancer', () => {
  it('listens on a URL of its own and hands requests to the nodes in turn (ETags kept per node alternate)', async () => {
    const server = await startReferenceServer({ port: 0, nodes: 2, balancer: true, faults: ['etag-per-node'] });
    try {
      expect(server.balancerUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(server.urls).not.toContain(server.balancerUrl);
      const key = { 'x-api-key': server.secrets.RESTPROBE_API_KEY };
      const created = await fetch(`${server.balancerUrl}/v2/projects`, { method: 'POST', headers: { ...key, 'content-type': 'application/json' }, body: '{"name":"n"}' });
      const { id } = (await created.json()) as { id: string };
      const etags = [];
      for (let i = 0; i < 4; i++) etags.push((await get(`${server.balancerUrl}/v2/projects/${id}`, key)).etag);
      expect(etags[0]).not.toBe(etags[1]);
      expect([etags[2], etags[3]]).toEqual([etags[0], etags[1]]);
    } finally {
      await server.close();
    }
  });

  it.each([
    [[], 1],
    [['rate-limit-per-node'], 2],
  ] as const)('with faults %j, a burst through it is served %i times the limit before its first 429', async (faults, times) => {
    const server = await startReferenceServer({ port: 0, nodes: 2, balancer: true, probeRateLimit: slowProbeQuota, faults: [...faults] });
    try {
      let served = 0;
      while ((await get(`${server.balancerUrl}/v2/projects`, { 'x-api-key': server.secrets.RESTPROBE_LIMIT_KEY })).status === 200) served++;
      expect(served).toBe(times * slowProbeQuota.limit);
    } finally {
      await server.close();
    }
  });
});
