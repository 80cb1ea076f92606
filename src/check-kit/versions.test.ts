import { describe, expect, it } from 'vitest';
import type { VersionProfile } from '../model/profile.js';
import { deprecationProblem, linkTargets, versionedRequest } from './versions.js';

const base: VersionProfile = { scheme: 'url', current: '2', deprecated: ['1'], removed: [], header: 'Accept', queryParam: 'v', renames: [] };

describe('versionedRequest', () => {
  it('names the version in the path, in a header or in the query, as the scheme says', () => {
    expect(versionedRequest(base, '1', '/api/v2/projects')).toEqual({ path: '/api/v1/projects' });
    expect(versionedRequest(base, '1', '/v2')).toEqual({ path: '/v1' });
    expect(versionedRequest(base, '1', '/v22/projects')).toBeUndefined();
    expect(versionedRequest({ ...base, scheme: 'header', vendor: 'acme' }, '1', '/projects')).toEqual({ path: '/projects', headers: { Accept: 'application/vnd.acme+json; version=1' } });
    expect(versionedRequest({ ...base, scheme: 'header', header: 'X-API-Version' }, '3', '/projects')).toEqual({ path: '/projects', headers: { 'X-API-Version': '3' } });
    expect(versionedRequest({ ...base, scheme: 'query' }, '1', '/projects?limit=5')).toEqual({ path: '/projects?limit=5&v=1' });
  });
});

describe('deprecationProblem', () => {
  it('takes an sf-date and names the drafts’ formats', () => {
    expect(deprecationProblem('@1688169599')).toBeUndefined();
    expect(deprecationProblem('@-1')).toBeUndefined();
    expect(deprecationProblem('true')).toMatch(/before RFC 9745/);
    expect(deprecationProblem('Sun, 06 Nov 1994 08:49:37 GMT')).toMatch(/before RFC 9745/);
    expect(deprecationProblem('@1.5')).toMatch(/not an sf-date/);
  });
});

describe('linkTargets', () => {
  it('finds the links of a relation among several', () => {
    expect(linkTargets('</docs/v1>; rel="deprecation"; type="text/html", <https://x.test/s>; rel=sunset', 'deprecation')).toEqual(['/docs/v1']);
    expect(linkTargets('<https://x.test/s>; rel="sunset alternate"', 'sunset')).toEqual(['https://x.test/s']);
    expect(linkTargets(undefined, 'deprecation')).toEqual([]);
  });
});
