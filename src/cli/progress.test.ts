import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Progress } from './progress.js';
import { waitLine } from './run-command.js';
import type { TargetProfile } from '../model/profile.js';

function capture(): { out: PassThrough; text: () => string } {
  const out = new PassThrough();
  let text = '';
  out.on('data', (c) => (text += c));
  return { out, text: () => text };
}

describe('Progress', () => {
  it('on a terminal: numbered result lines, and a status line redrawn in place, erased at the end', () => {
    const { out, text } = capture();
    let requests = 0;
    const progress = new Progress({ out, live: true, total: 12, requests: () => requests, refreshMs: 60_000 });
    progress.started('END-a [projects]');
    progress.started('END-b');
    requests = 7;
    expect(progress.statusLine()).toMatch(/^⏳ 0\/12 · END-a \[projects\] \(\+1 more\) · 7 requests · \d+\.\d s$/);
    progress.finished('END-a [projects]', '✔ pass  END-a [projects]');
    expect(progress.statusLine()).toMatch(/^⏳ 1\/12 · END-b · 7 requests/);
    progress.finished('END-b', '✘ FAIL  END-b');
    progress.stop();
    expect(text()).toContain('\r\x1b[K[ 1/12] ✔ pass  END-a [projects]\n');
    expect(text()).toContain('\r\x1b[K[ 2/12] ✘ FAIL  END-b\n');
    expect(text()).toContain('\r\x1b[K⏳ 1/12 · END-b · 7 requests');
    expect(text().endsWith('\r\x1b[K')).toBe(true);
  });

  it('elsewhere (a CI log): the result lines alone, nothing redrawn', () => {
    const { out, text } = capture();
    const progress = new Progress({ out, live: false, total: 2, requests: () => 3 });
    progress.started('END-a');
    progress.finished('END-a', '✔ pass  END-a');
    progress.stop();
    expect(text()).toBe('✔ pass  END-a\n');
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('elsewhere: a status line whenever nothing was printed for the heartbeat period, saying what the run waits for', () => {
    vi.useFakeTimers();
    const { out, text } = capture();
    const progress = new Progress({ out, live: false, total: 8, requests: () => 40, heartbeatMs: 15_000 });
    progress.started('LIM-rate-limit-enforced');
    vi.advanceTimersByTime(14_000);
    expect(text()).toBe('');
    progress.waiting({ why: 'GET /v2/projects answered 429 (Retry-After: 10)', ms: 10_000, count: 3 });
    vi.advanceTimersByTime(1_500);
    expect(text()).toMatch(/^⏳ 0\/8 · LIM-rate-limit-enforced · waiting 10\.0 s: GET \/v2\/projects answered 429 \(Retry-After: 10\), wait 3 · 40 requests · 1\d\.\d s\n$/);
    // A result line resets the silence; the next status line comes a whole period later, once the wait is over.
    progress.finished('LIM-rate-limit-enforced', '✔ pass  LIM-rate-limit-enforced');
    vi.advanceTimersByTime(14_000);
    expect(text().split('\n').filter(Boolean)).toHaveLength(2);
    vi.advanceTimersByTime(1_000);
    const lines = text().split('\n').filter(Boolean);
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatch(/^⏳ 1\/8 · waiting · 40 requests/);
    progress.stop();
    vi.advanceTimersByTime(60_000);
    expect(text().split('\n').filter(Boolean)).toHaveLength(3);
  });
});

describe('waitLine', () => {
  const profile = (maxRequestsPerSecond?: number) => ({ http: { ...(maxRequestsPerSecond !== undefined && { maxRequestsPerSecond }) } }) as unknown as TargetProfile;
  it('points at pacing when waiting took most of the run, and says nothing else (the summary line gives the waits)', () => {
    expect(waitLine({ count: 0, wallMs: 0 }, 6_800, profile())).toBeUndefined();
    expect(waitLine({ count: 11, wallMs: 110_000 }, 165_000, profile())).toBe("most of the run (110 s of 165 s) was waiting on the target's rate limit: set http.maxRequestsPerSecond under its quota to pace the run instead");
    expect(waitLine({ count: 1, wallMs: 10_000 }, 165_000, profile())).toBeUndefined();
    expect(waitLine({ count: 11, wallMs: 110_000 }, 165_000, profile(2))).toBeUndefined();
  });
});
