import { describe, expect, it } from 'vitest';
import type { CheckContext, HttpResponse } from '../model/context.js';
import type { RateLimitProbe } from '../model/needs.js';
import { burstUntil } from './rate-limit-burst.js';

interface Limiter {
  /** Requests the quota holds at first. */
  readonly quota: number;
  /** Requests the quota gains at the start of each wave (a bucket that refills while the burst goes on). */
  readonly refillPerWave?: number;
  /** The RateLimit fields of an answer, given what is left after it (-1 on a refusal). */
  readonly fields: (left: number) => Record<string, string>;
}

/**
 * A check's context whose raw session is `limiter`; `sent` counts what reached it and
 * `waves` the size of each wave (requests sent together, before any of them is answered).
 */
function limitedRun({ quota, refillPerWave = 0, fields }: Limiter, concurrency = 8): { ctx: CheckContext; sent: () => number; waves: number[] } {
  let sent = 0;
  let left = quota;
  const waves: number[] = [];
  let inWave = false;
  const clock = Promise.resolve({});
  const send = async (): Promise<HttpResponse> => {
    if (!inWave) {
      inWave = true;
      waves.push(0);
      left += refillPerWave;
      setImmediate(() => (inWave = false));
    }
    waves[waves.length - 1]!++;
    sent++;
    const served = left > 0;
    if (served) left--;
    await new Promise((resolve) => setImmediate(resolve));
    return { status: served ? 200 : 429, headers: { ...fields(served ? left : -1), ...(!served && { 'retry-after': '1' }) }, text: '' } as unknown as HttpResponse;
  };
  const ctx = { profile: { http: { concurrency } }, runFixture: () => clock, rawHttp: () => ({ send }) } as unknown as CheckContext;
  return { ctx, sent: () => sent, waves };
}

const probe = { client: { label: 'RESTPROBE_LIMIT_KEY', headers: {} }, path: '/v2/projects', budget: 50 } as unknown as RateLimitProbe;
const draft10 = (left: number) => ({ 'ratelimit-policy': '"default";q=10;w=1', ratelimit: `"default";r=${Math.max(0, left)};t=1` });

describe('burstUntil: waves no wider than what the target says is left', () => {
  it('sends one request past what the RateLimit fields say is left, not a whole wave of refusals', async () => {
    const { ctx, sent, waves } = limitedRun({ quota: 10, fields: draft10 });
    const burst = await burstUntil(ctx, probe);
    expect(burst.served).toBe(10);
    expect(burst.stop?.res.status).toBe(429);
    // 8, then the 2 left and the one that meets the limit.
    expect(waves).toEqual([8, 3]);
    expect(sent()).toBe(11);
  });

  it('reads draft-06 fields the same way', async () => {
    const { ctx, sent } = limitedRun({ quota: 10, fields: (left) => ({ 'ratelimit-limit': '10', 'ratelimit-remaining': String(Math.max(0, left)), 'ratelimit-reset': '1' }) });
    await burstUntil(ctx, probe);
    expect(sent()).toBe(11);
  });

  it('sends whole waves where the target says nothing of what is left', async () => {
    const { ctx, sent, waves } = limitedRun({ quota: 10, fields: () => ({}) });
    const burst = await burstUntil(ctx, probe);
    expect(burst.served).toBe(10);
    expect(waves).toEqual([8, 8]);
    expect(sent()).toBe(16);
  });

  it('narrows once only: a bucket that refills as the burst goes serves a narrow wave whole, and whole waves then meet its limit', async () => {
    // Two requests back a wave: narrow waves of what is left and one would be served for ever.
    const { ctx, waves, sent } = limitedRun({ quota: 10, refillPerWave: 2, fields: draft10 });
    const burst = await burstUntil(ctx, probe);
    expect(burst.stop?.res.status).toBe(429);
    expect(waves).toEqual([8, 5, 8]);
    expect(sent()).toBe(21);
  });

  it('goes on in whole waves where the target understates what is left, and stops at the same first refusal', async () => {
    const { ctx, waves } = limitedRun({ quota: 10, fields: () => ({ ratelimit: '"default";r=0;t=1' }) });
    const burst = await burstUntil(ctx, probe);
    expect(burst.served).toBe(10);
    expect(waves).toEqual([8, 1, 8]);
  });

  it('keeps whole waves once a refusal did not end the burst (past the first 429, until a 503)', async () => {
    const { ctx, sent, waves } = limitedRun({ quota: 0, fields: draft10 });
    const burst = await burstUntil(ctx, probe, { until: (a) => a === 'shed', budget: 12 });
    expect(burst.stop).toBeUndefined();
    // The refusals say nothing is left: a wave sized by that would be one request.
    expect(waves).toEqual([8, 4]);
    expect(sent()).toBe(12);
  });
});
