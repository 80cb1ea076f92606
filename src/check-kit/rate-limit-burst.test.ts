import { describe, expect, it } from 'vitest';
import type { CheckContext, HttpResponse } from '../model/context.js';
import type { RateLimitProbe } from '../model/needs.js';
import { burstUntil } from './rate-limit-burst.js';

/**
 * A check's context whose raw session is a limiter of `quota` requests (never refilled),
 * answering `fields(left)` on each served request; `sent` counts what reached it.
 */
function limitedRun(quota: number, fields: (left: number) => Record<string, string>, concurrency = 8): { ctx: CheckContext; sent: () => number } {
  let sent = 0;
  const clock = Promise.resolve({});
  const send = async (): Promise<HttpResponse> => {
    sent++;
    const left = quota - sent;
    await new Promise((resolve) => setImmediate(resolve));
    return (left >= 0 ? { status: 200, headers: fields(left), text: '' } : { status: 429, headers: { 'retry-after': '1' }, text: '' }) as unknown as HttpResponse;
  };
  const ctx = { profile: { http: { concurrency } }, runFixture: () => clock, rawHttp: () => ({ send }) } as unknown as CheckContext;
  return { ctx, sent: () => sent };
}

const probe = { client: { label: 'RESTPROBE_LIMIT_KEY', headers: {} }, path: '/v2/projects', budget: 50 } as unknown as RateLimitProbe;

describe('burstUntil: waves no wider than what the target says is left', () => {
  it('sends one request past what the RateLimit fields say is left, not a whole wave of refusals', async () => {
    const { ctx, sent } = limitedRun(10, (left) => ({ 'ratelimit-policy': '"default";q=10;w=1', ratelimit: `"default";r=${left};t=1` }));
    const burst = await burstUntil(ctx, probe);
    expect(burst.served).toBe(10);
    expect(burst.stop?.res.status).toBe(429);
    // 8, then the 2 left and the one that meets the limit.
    expect(sent()).toBe(11);
  });

  it('reads draft-06 fields the same way', async () => {
    const { ctx, sent } = limitedRun(10, (left) => ({ 'ratelimit-limit': '10', 'ratelimit-remaining': String(left), 'ratelimit-reset': '1' }));
    await burstUntil(ctx, probe);
    expect(sent()).toBe(11);
  });

  it('sends whole waves where the target says nothing of what is left', async () => {
    const { ctx, sent } = limitedRun(10, () => ({}));
    const burst = await burstUntil(ctx, probe);
    expect(burst.served).toBe(10);
    expect(sent()).toBe(16);
  });

  it('goes on one request a wave where the target understates what is left, and stops at the same refusal', async () => {
    const { ctx, sent } = limitedRun(10, () => ({ ratelimit: '"default";r=0;t=1' }));
    const burst = await burstUntil(ctx, probe);
    expect(burst.served).toBe(10);
    expect(sent()).toBe(11);
  });

  it('keeps whole waves once a refusal did not end the burst (past the first 429, until a 503)', async () => {
    const { ctx, sent } = limitedRun(0, (left) => ({ ratelimit: `"default";r=${left};t=1` }));
    const burst = await burstUntil(ctx, probe, { until: (a) => a === 'shed', budget: 12 });
    expect(burst.stop).toBeUndefined();
    expect(sent()).toBe(12);
  });
});
