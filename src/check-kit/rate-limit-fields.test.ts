import { describe, expect, it } from 'vitest';
import type { HttpResponse } from '../model/context.js';
import { legacyFields, readRateLimitFields, retryAfterProblem, tightest } from './rate-limit-fields.js';
import { parseDictionary, parseList } from './structured-fields.js';

const withHeaders = (headers: Record<string, string>): HttpResponse => ({ status: 200, headers, text: '', json: undefined, mediaType: '', exchangeIndex: 0, url: 'http://x/', method: 'GET' });

describe('structured fields (RFC 8941)', () => {
  it('reads Lists of Items with parameters, and Dictionaries', () => {
    const list = parseList('"burst";q=100;w=60, "daily";q=1000;w=86400;qu="requests"');
    expect(list.ok && list.value.map((i) => [i.value, Object.fromEntries(i.params)])).toEqual([
      [{ type: 'string', value: 'burst' }, { q: { type: 'integer', value: 100 }, w: { type: 'integer', value: 60 } }],
      [{ type: 'string', value: 'daily' }, { q: { type: 'integer', value: 1000 }, w: { type: 'integer', value: 86400 }, qu: { type: 'string', value: 'requests' } }],
    ]);
    const dict = parseDictionary('limit=100, remaining=50, reset=5, flag');
    expect(dict.ok && [...dict.value].map(([k, v]) => [k, v.value.value])).toEqual([['limit', 100], ['remaining', 50], ['reset', 5], ['flag', true]]);
    expect(parseList('a;pk=:cHJvYmU=:, ?1, 1.5, tok/en').ok).toBe(true);
  });

  it.each([
    ['', 'an empty value at character 1'],
    ['"open', 'a string without its closing quote at character 6'],
    ['"a", ', 'a trailing comma at character 6'],
    ['(a b)', 'an inner list, where an item was due at character 1'],
    ['a b', '"b" where a comma or the end was due at character 3'],
    ['1234567890123456', 'an integer of more than 15 digits at character 17'],
  ])('refuses %j: %s', (text, problem) => {
    expect(parseList(text)).toEqual({ ok: false, problem });
  });
});

describe('rate-limit fields', () => {
  it('accepts delay-seconds and IMF-fixdate Retry-After, and says why anything else is not', () => {
    expect(retryAfterProblem('120')).toBeUndefined();
    expect(retryAfterProblem('Sun, 06 Nov 1994 08:49:37 GMT')).toBeUndefined();
    expect(retryAfterProblem('Sunday, 06-Nov-94 08:49:37 GMT')).toMatch(/^is an obsolete HTTP-date format/);
    expect(retryAfterProblem('Sun Nov  6 08:49:37 1994')).toMatch(/^is an obsolete HTTP-date format/);
    for (const bad of ['1.5', '-1', 'soon', '', 'Sun, 32 Nov 1994 08:49:37 GMT']) expect(retryAfterProblem(bad), bad).toBeDefined();
  });

  it('reads draft-10 RateLimit and RateLimit-Policy, naming every breach of its grammar', () => {
    const ok = readRateLimitFields(withHeaders({ 'ratelimit-policy': '"burst";q=10;w=1, "day";q=1000;w=86400', ratelimit: '"burst";r=0;t=1, "day";r=900;t=3600' }));
    expect(ok).toEqual({ draft: '10', policies: [{ name: 'burst', quota: 10, window: 1 }, { name: 'day', quota: 1000, window: 86400 }], left: [{ name: 'burst', remaining: 0, reset: 1 }, { name: 'day', remaining: 900, reset: 3600 }], problems: [] });
    expect(tightest(ok)).toEqual({ name: 'burst', remaining: 0, reset: 1 });
    const bad = readRateLimitFields(withHeaders({ 'ratelimit-policy': 'burst;w=0', ratelimit: '"other";t=-1' }));
    expect(bad?.problems).toEqual([
      'RateLimit-Policy: the policy name burst is a token; draft-10 names policies with quoted strings',
      'RateLimit-Policy "burst": q is missing, expected a non-negative integer (REQUIRED)',
      'RateLimit-Policy "burst": w is 0, expected a positive integer of seconds',
      'RateLimit "other": r is missing, expected a non-negative integer (REQUIRED)',
      'RateLimit "other": t is -1, expected non-negative delay-seconds',
    ]);
    expect(readRateLimitFields(withHeaders({ 'ratelimit-policy': '"a";q=1', ratelimit: '"b";r=0' }))?.problems).toEqual(['RateLimit names "b", which RateLimit-Policy does not list']);
  });

  it("reads draft-07's Dictionary as such, with its policy of integers, and reports the legacy fields", () => {
    expect(readRateLimitFields(withHeaders({ ratelimit: 'limit=100, remaining=50, reset=5' }))).toEqual({ draft: '07', policies: [{ name: 'default', quota: 100 }], left: [{ name: 'default', remaining: 50, reset: 5 }], problems: [] });
    // express-rate-limit's standardHeaders: 'draft-7'.
    expect(readRateLimitFields(withHeaders({ 'ratelimit-policy': '100;w=60', ratelimit: 'limit=100, remaining=0, reset=42' }))).toEqual({ draft: '07', policies: [{ name: 'default', quota: 100, window: 60 }], left: [{ name: 'default', remaining: 0, reset: 42 }], problems: [] });
    expect(readRateLimitFields(withHeaders({}))).toBeUndefined();
    expect(legacyFields(withHeaders({ 'x-ratelimit-remaining': '0', 'x-rate-limit-reset': '5', 'ratelimit-reset': '5', 'content-type': 'x' }))).toEqual(['x-ratelimit-remaining: 0', 'x-rate-limit-reset: 5']);
  });

  it("reads draft-06's separate fields as such (express-rate-limit's standardHeaders: true), never as draft-10", () => {
    const six = { 'ratelimit-policy': '10;w=1, 1000;w=3600', 'ratelimit-limit': '10', 'ratelimit-remaining': '3', 'ratelimit-reset': '1' };
    expect(readRateLimitFields(withHeaders(six))).toEqual({ draft: '06', policies: [{ name: 'default', quota: 10, window: 1 }], left: [{ name: 'default', remaining: 3, reset: 1 }], problems: [] });
    // RateLimit-Reset is left out when the store gives no reset time.
    expect(readRateLimitFields(withHeaders({ 'ratelimit-policy': '5;w=60', 'ratelimit-limit': '5', 'ratelimit-remaining': '4' }))).toEqual({ draft: '06', policies: [{ name: 'default', quota: 5, window: 60 }], left: [{ name: 'default', remaining: 4 }], problems: [] });
    expect(readRateLimitFields(withHeaders({ 'ratelimit-limit': '10', 'ratelimit-remaining': '-1', 'ratelimit-policy': '"burst";q=10' }))?.problems).toEqual([
      'RateLimit-Remaining: "-1" is not a non-negative integer (draft-06)',
      'RateLimit-Policy "\"burst\";q=10" is not quotas as integers with an optional w, as draft-06 writes them (e.g. 100;w=60)',
    ]);
  });

  it("reads express-rate-limit's draft-8 fields (spaces after each ';', a pk) as draft-10", () => {
    const eight = { 'ratelimit-policy': '"100-in-1min"; q=100; w=60; pk=:ZTNiM2QwNjYzZmQx:', ratelimit: '"100-in-1min"; r=99; t=60' };
    expect(readRateLimitFields(withHeaders(eight))).toEqual({ draft: '10', policies: [{ name: '100-in-1min', quota: 100, window: 60 }], left: [{ name: '100-in-1min', remaining: 99, reset: 60 }], problems: [] });
  });
});
