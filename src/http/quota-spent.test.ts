import { describe, expect, it } from 'vitest';
import { quotaSpent } from './quota-spent.js';

describe('quotaSpent', () => {
  it('reads a spent quota in every draft a limiter sends', () => {
    // draft 8 and later (the reference server, express-rate-limit draft-8): any policy with none left.
    expect(quotaSpent({ ratelimit: '"default";r=0;t=7' })).toEqual({ ms: 7000, shown: 'RateLimit: "default";r=0;t=7' });
    expect(quotaSpent({ ratelimit: '"burst";r=4;t=1, "day";r=0;t=30' })?.ms).toBe(30_000);
    // draft 7: one dictionary.
    expect(quotaSpent({ ratelimit: 'limit=100, remaining=0, reset=12' })?.ms).toBe(12_000);
    // draft 6: three fields.
    expect(quotaSpent({ 'ratelimit-limit': '100', 'ratelimit-remaining': '0', 'ratelimit-reset': '3' })).toEqual({ ms: 3000, shown: 'RateLimit-Remaining: 0, RateLimit-Reset: 3' });
  });

  it('says nothing while some quota is left, or when the fields cannot be read', () => {
    expect(quotaSpent({ ratelimit: '"default";r=3;t=7' })).toBeUndefined();
    expect(quotaSpent({ ratelimit: 'limit=100, remaining=5, reset=12' })).toBeUndefined();
    expect(quotaSpent({ 'ratelimit-remaining': '0' })).toBeUndefined();
    expect(quotaSpent({ 'ratelimit-remaining': '0', 'ratelimit-reset': 'soon' })).toBeUndefined();
    expect(quotaSpent({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1764000000' })).toBeUndefined();
    expect(quotaSpent({})).toBeUndefined();
  });
});
