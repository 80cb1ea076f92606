import { describe, expect, it } from 'vitest';
import { testProfile } from '../../test/support/profile.js';
import type { TargetProfile } from '../model/profile.js';
import { paceLine, runPace } from './pace.js';

const limited = (rateLimit: Partial<NonNullable<TargetProfile['rateLimit']>>, http: Partial<TargetProfile['http']> = {}): TargetProfile => {
  const base = testProfile('http://127.0.0.1:9');
  return { ...base, http: { ...base.http, ...http }, rateLimit: { keyedBy: 'apiKey', keyHeader: 'X-API-Key', budget: 50, path: '/', ...rateLimit } };
};

describe('runPace', () => {
  it("goes under the quota rateLimit declares for the run's own key, from the start", () => {
    expect(runPace(limited({ limit: 100, windowMs: 10_000 }))).toEqual({ perSecond: 9, from: 'rateLimit' });
    // Per client address: the run's requests count against it whatever key they carry.
    expect(runPace(limited({ limit: 20, windowMs: 1_000, keyedBy: 'ip', credential: { envName: 'LIMIT_KEY', value: 'l' } }))).toEqual({ perSecond: 18, from: 'rateLimit' });
    // Per route, every client shares the counter: the run's requests too.
    expect(runPace(limited({ limit: 20, windowMs: 1_000, keyedBy: 'route', credential: { envName: 'LIMIT_KEY', value: 'l' } }))).toEqual({ perSecond: 18, from: 'rateLimit' });
  });

  it('leaves the run unpaced when the quota is not the run key\'s, or not known; the config\'s own pace wins', () => {
    expect(runPace(limited({ limit: 100, windowMs: 10_000, credential: { envName: 'LIMIT_KEY', value: 'l' } }))).toBeUndefined();
    expect(runPace(limited({ limit: 100, windowMs: 10_000, keyedBy: 'user', credential: { envName: 'LIMIT_KEY', value: 'l' } }))).toBeUndefined();
    expect(runPace(limited({}))).toBeUndefined();
    expect(runPace(testProfile('http://127.0.0.1:9'))).toBeUndefined();
    expect(runPace(limited({ limit: 100, windowMs: 10_000 }, { maxRequestsPerSecond: 2 }))).toEqual({ perSecond: 2, from: 'http.maxRequestsPerSecond' });
  });

  it('says the pace, why, and about how long the run takes at it', () => {
    expect(paceLine({ perSecond: 9, from: 'rateLimit' }, 210)).toBe("paced at 9 requests/s (9/10 of rateLimit's quota for the run's key; http.maxRequestsPerSecond sets another): about 2,100 requests, so about 3 min 53 s");
    expect(paceLine({ perSecond: 2, from: 'http.maxRequestsPerSecond' }, 4)).toBe('paced at 2 requests/s (http.maxRequestsPerSecond): about 40 requests, so about 20 s');
  });
});
