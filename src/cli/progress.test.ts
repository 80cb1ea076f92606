import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Progress } from './progress.js';

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
});
