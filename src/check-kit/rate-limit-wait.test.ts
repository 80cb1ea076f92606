import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CheckContext } from '../model/context.js';
import type { RateLimitProbe } from '../model/needs.js';
import { sendAs } from './rate-limit-burst.js';
import { retryAfterWait, wholeQuotaFirst } from './rate-limit-wait.js';

/** A check's context with what the waits use: notes, a run fixture store (one run), a probe path that always serves. */
function fakeRun(): { ctx: () => CheckContext; notes: string[] } {
  const notes: string[] = [];
  const fixtures = new Map<string, Promise<unknown>>();
  const ctx = () =>
    ({
      note: (line: string) => notes.push(line),
      signal: new AbortController().signal,
      profile: { http: { maxRetryWaitMs: 60_000 } },
      runFixture: (key: string, make: (maker: unknown) => Promise<unknown>) => {
        if (!fixtures.has(key)) fixtures.set(key, make({}));
        return fixtures.get(key);
      },
      rawHttp: () => ({ send: async () => ({ status: 200, headers: {}, text: '' }) }),
    }) as unknown as CheckContext;
  return { ctx, notes };
}

const probe = { client: { label: 'RESTPROBE_LIMIT_KEY', ownQuota: true, headers: {} }, windowMs: 250, path: '/v2/projects', budget: 50 } as unknown as RateLimitProbe;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('wholeQuotaFirst: every quota whole a window after the run\'s last probe request', () => {
  it('waits a whole window when no probe request was sent in this run (another process may have spent it)', async () => {
    const { ctx, notes } = fakeRun();
    await wholeQuotaFirst(ctx(), { ...probe, windowMs: 5 });
    expect(notes).toEqual(['waited a whole window (5 ms) first, so every node\'s quota is whole']);
  });

  it('waits only what is left of the window since another check\'s last probe request, and nothing once it has passed', async () => {
    const { ctx, notes } = fakeRun();
    const now = vi.spyOn(performance, 'now').mockReturnValue(1_000);
    // An earlier check's request (it ended at 1 000 ms).
    await sendAs(ctx(), probe);
    now.mockReturnValue(1_100);
    await wholeQuotaFirst(ctx(), probe);
    now.mockReturnValue(5_000);
    await wholeQuotaFirst(ctx(), probe);
    expect(notes).toEqual([
      'waited 152 ms, until a whole window (250 ms) had passed since the run\'s last probe request, so every node\'s quota is whole',
      'a whole window (250 ms) had passed since the run\'s last probe request: every node\'s quota is whole',
    ]);
  });

  it('counts a probe request that got no answer (the target may have counted it)', async () => {
    const { ctx, notes } = fakeRun();
    const now = vi.spyOn(performance, 'now').mockReturnValue(1_000);
    const unanswered = { ...ctx(), rawHttp: () => ({ send: async () => Promise.reject(new Error('timed out')) }) } as unknown as CheckContext;
    await expect(sendAs(unanswered, probe)).rejects.toThrow('timed out');
    now.mockReturnValue(1_200);
    await wholeQuotaFirst(ctx(), probe);
    expect(notes).toEqual(['waited 52 ms, until a whole window (250 ms) had passed since the run\'s last probe request, so every node\'s quota is whole']);
  });

  it('does not wait for a quota the run shares (not the probe client\'s own)', async () => {
    const { ctx, notes } = fakeRun();
    await wholeQuotaFirst(ctx(), { ...probe, client: { ...probe.client, ownQuota: false } });
    expect(notes).toEqual([]);
  });
});

describe('retryAfterWait', () => {
  const sent = (headers: Record<string, string>, wall: number) => ({ res: { headers }, left: 0, at: 0, wall }) as unknown as Parameters<typeof retryAfterWait>[0];
  it('reads an HTTP-date against the answer\'s own Date: a server clock 5 s ahead of restprobe\'s states 2 s, not 7', () => {
    const server = Date.parse('Wed, 21 Oct 2026 07:28:05 GMT');
    const ours = server - 5_000;
    expect(retryAfterWait(sent({ date: new Date(server).toUTCString(), 'retry-after': new Date(server + 2_000).toUTCString() }, ours))).toEqual({ ms: 2_000, said: expect.any(String), quantumMs: 2000, graceMs: 1000 });
  });
  it('reads it against the arrival time where the Date is not to be believed: a frozen 1970 clock, or no IMF-fixdate', () => {
    const now = Date.parse('Wed, 21 Oct 2026 07:28:00 GMT');
    const at = new Date(now + 3_000).toUTCString();
    expect(retryAfterWait(sent({ date: 'Thu, 01 Jan 1970 00:00:00 GMT', 'retry-after': at }, now))?.ms).toBe(3_000);
    expect(retryAfterWait(sent({ date: new Date(now + 10_000).toISOString(), 'retry-after': at }, now))?.ms).toBe(3_000);
  });

  it('reads it against the arrival time where the Date is within its two-second grain of it, or absent, and delta-seconds as they are', () => {
    const now = Date.parse('Wed, 21 Oct 2026 07:28:00 GMT') + 900;
    expect(retryAfterWait(sent({ date: new Date(now - 900).toUTCString(), 'retry-after': new Date(now + 2_100).toUTCString() }, now))).toEqual({ ms: 2_100, said: expect.any(String), quantumMs: 3000, graceMs: 2000 });
    expect(retryAfterWait(sent({ 'retry-after': new Date(now + 3_100).toUTCString() }, now))?.ms).toBe(3_100);
    expect(retryAfterWait(sent({ date: 'not a date', 'retry-after': '4' }, now))?.ms).toBe(4_000);
  });
  it('keeps delta-seconds to their one-second grain, whatever the Date says: they are counted from the arrival', () => {
    const now = Date.parse('Wed, 21 Oct 2026 07:28:00 GMT');
    expect(retryAfterWait(sent({ date: new Date(now + 5_000).toUTCString(), 'retry-after': '2' }, now))).toEqual({ ms: 2_000, said: 'Retry-After: 2', quantumMs: 1000, graceMs: 0 });
  });
});
